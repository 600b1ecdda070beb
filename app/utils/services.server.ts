import { TOKENS } from "#application/tokens";
import type { DevMailbox } from "#application/ports/mailer";
import type { BlobStore } from "#application/ports/blob-store";
import type { ExternalIdentityProvider } from "#application/ports/external-identity";
import { IdentityQueries } from "#application/identity/identity-queries";
import { IdentityService } from "#application/identity/identity-service";
import { PassageSearch } from "#application/conversation/passage-search";
import { ConversationService } from "#application/conversation/conversation-service";
import { AccountAudit } from "#application/administration/account-audit";
import { AdminRoles } from "#application/administration/admin-roles";
import { AdministrationQueries } from "#application/administration/administration-queries";
import { ImpersonationAudit } from "#application/administration/impersonation-audit";
import { ImpersonationService } from "#application/administration/impersonation-service";
import { WorkflowRuns } from "#application/administration/workflow-runs";
import { AccountDeletionService } from "#application/identity/account-deletion";
import { ProfileService } from "#application/identity/profile-service";
import { LibraryQueries } from "#application/library/library-queries";
import { LibraryService } from "#application/library/library-service";
import { LinkLookup } from "#application/library/link-lookup";
import { WorkspaceQueries } from "#application/workspace/workspace-queries";
import { WorkspaceService } from "#application/workspace/workspace-service";
import { AssessmentService } from "#application/workspace/assessment-service";
import { KeysetModels } from "#application/identity/keyset-models";
import { SpeechToText } from "#application/library/speech-to-text";
import type { SpeechSynthesizer, SpeechTokens } from "#application/ports/speech";
import type { RateLimiter } from "#application/ports/sessions";
import { KeysetService } from "#application/identity/keyset-service";
import { AccessTokenService } from "#application/identity/access-tokens";
import { ChatLayoutService } from "#application/identity/chat-layout-service";
import { LatexCompilation } from "#application/resume/latex-compilation";
import { ResumeQueries } from "#application/resume/resume-queries";
import { ResumeService } from "#application/resume/resume-service";
import { BillingQueries } from "#application/billing/billing-queries";
import { CheckoutService } from "#application/billing/checkout";
import { loadConfig } from "#infrastructure/config/config";
import { type AppRuntime, createRuntime, type RuntimeOptions } from "#infrastructure/container";

declare global {
  // One runtime per process, kept on globalThis so dev rebuilds of the server bundle reuse it.
  // eslint-disable-next-line no-var
  var __docuchatRuntime: Promise<AppRuntime> | undefined;
}

/** The first call decides this process's role (server.mjs makes it at boot); later calls get the same runtime. */
export function getRuntime(role: RuntimeOptions["role"] = "app", onPrepared?: () => void, processIndex = 0): Promise<AppRuntime> {
  globalThis.__docuchatRuntime ??= createRuntime(loadConfig(), { role, onPrepared, processIndex });
  return globalThis.__docuchatRuntime;
}

/** Resolved once per runtime: every binding is a singleton, and resolving them all per request cost a few % of a page's CPU. */
const resolvedServices = new WeakMap<AppRuntime, ReturnType<typeof servicesOf>>();

export async function getServices() {
  const runtime = await getRuntime();
  let services = resolvedServices.get(runtime);
  if (!services) {
    services = servicesOf(runtime);
    resolvedServices.set(runtime, services);
  }
  return services;
}

function servicesOf(runtime: AppRuntime) {
  const { config } = runtime;
  return {
    config: {
      productName: config.productName,
      cookieSecure: config.cookieSecure,
      appSecret: config.appSecret,
      isProduction: config.isProduction,
      adminUsernames: config.adminUsernames,
      /** "temporal" on the production stack: operators use Temporal's UI. */
      workflowsAdapter: config.adapters.workflows,
    },
    logger: runtime.logger,
    identity: runtime.container.get(IdentityService),
    identityQueries: runtime.container.get(IdentityQueries),
    profiles: runtime.container.get(ProfileService),
    accountDeletion: runtime.container.get(AccountDeletionService),
    accountAudit: runtime.container.get(AccountAudit),
    administration: runtime.container.get(AdministrationQueries),
    adminRoles: runtime.container.get(AdminRoles),
    impersonations: runtime.container.get(ImpersonationService),
    impersonationAudit: runtime.container.get(ImpersonationAudit),
    workflowRuns: runtime.container.get(WorkflowRuns),
    blobs: runtime.get<BlobStore>(TOKENS.BlobStore),
    library: runtime.container.get(LibraryService),
    libraryQueries: runtime.container.get(LibraryQueries),
    /** Checks a link upload at submit (spec 000 §5 lookup messages). */
    linkLookup: runtime.container.get(LinkLookup),
    workspaces: runtime.container.get(WorkspaceService),
    workspaceQueries: runtime.container.get(WorkspaceQueries),
    assessments: runtime.container.get(AssessmentService),
    conversations: runtime.container.get(ConversationService),
    /** Passages for a query in a workspace, without a model (public API search, MCP). */
    passageSearch: runtime.container.get(PassageSearch),
    keysets: runtime.container.get(KeysetService),
    chatLayouts: runtime.container.get(ChatLayoutService),
    /** Personal access tokens for /api/v1 and /mcp (decision 220). */
    accessTokens: runtime.container.get(AccessTokenService),
    resumes: runtime.container.get(ResumeService),
    resumeQueries: runtime.container.get(ResumeQueries),
    latexCompilation: runtime.container.get(LatexCompilation),
    /** ModelCatalog: the models a user may choose (built-in + their keysets'). */
    modelCatalog: runtime.container.get(KeysetModels),
    billing: runtime.container.get(BillingQueries),
    checkout: runtime.container.get(CheckoutService),
    /** Speech: dictation through the transcriber, and the server's voice (decision 144). */
    speechToText: runtime.container.get(SpeechToText),
    voice: runtime.get<SpeechSynthesizer>(TOKENS.SpeechSynthesizer),
    /** Caps the speech routes per user (the server's voice and transcriber cost CPU). */
    speechLimiter: runtime.get<RateLimiter>(TOKENS.RateLimiter),
    /** null when no cloud speech service is configured. */
    speechTokens: runtime.container.isBound(TOKENS.SpeechTokens) ? runtime.get<SpeechTokens>(TOKENS.SpeechTokens) : null,
    devMailbox: config.adapters.mail === "dev-mailbox" ? runtime.get<DevMailbox>(TOKENS.DevMailbox) : null,
    /** null when OpenID sign-in is not configured. */
    externalIdentity: runtime.container.isBound(TOKENS.ExternalIdentityProvider)
      ? runtime.get<ExternalIdentityProvider>(TOKENS.ExternalIdentityProvider)
      : null,
  };
}

export type Services = ReturnType<typeof servicesOf>;
