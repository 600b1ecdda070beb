import { TOKENS } from "#application/tokens";
import type { DevMailbox } from "#application/ports/mailer";
import type { BlobStore } from "#application/ports/blob-store";
import type { ExternalIdentityProvider } from "#application/ports/external-identity";
import { IdentityQueries } from "#application/identity/identity-queries";
import { IdentityService } from "#application/identity/identity-service";
import { ConversationService } from "#application/conversation/conversation-service";
import { AccountAudit } from "#application/identity/account-audit";
import { AccountDeletionService } from "#application/identity/account-deletion";
import { ProfileService } from "#application/identity/profile-service";
import { LibraryQueries } from "#application/library/library-queries";
import { LibraryService } from "#application/library/library-service";
import { WorkspaceQueries } from "#application/workspace/workspace-queries";
import { WorkspaceService } from "#application/workspace/workspace-service";
import { AssessmentService } from "#application/workspace/assessment-service";
import { KeysetModels } from "#application/identity/keyset-models";
import { SpeechToText } from "#application/library/speech-to-text";
import type { SpeechSynthesizer, SpeechTokens } from "#application/ports/speech";
import type { RateLimiter } from "#application/ports/sessions";
import { KeysetService } from "#application/identity/keyset-service";
import { ChatLayoutService } from "#application/identity/chat-layout-service";
import { loadConfig } from "#infrastructure/config/config";
import { type AppRuntime, createRuntime } from "#infrastructure/container";

declare global {
  // One runtime per process, kept on globalThis so dev rebuilds of the server bundle reuse it.
  // eslint-disable-next-line no-var
  var __docuchatRuntime: Promise<AppRuntime> | undefined;
}

export function getRuntime(): Promise<AppRuntime> {
  globalThis.__docuchatRuntime ??= createRuntime(loadConfig());
  return globalThis.__docuchatRuntime;
}

export async function getServices() {
  const runtime = await getRuntime();
  const { config } = runtime;
  return {
    config: {
      productName: config.productName,
      cookieSecure: config.cookieSecure,
      appSecret: config.appSecret,
      isProduction: config.isProduction,
      adminUsernames: config.adminUsernames,
    },
    logger: runtime.logger,
    identity: runtime.container.get(IdentityService),
    identityQueries: runtime.container.get(IdentityQueries),
    profiles: runtime.container.get(ProfileService),
    accountDeletion: runtime.container.get(AccountDeletionService),
    accountAudit: runtime.container.get(AccountAudit),
    blobs: runtime.get<BlobStore>(TOKENS.BlobStore),
    library: runtime.container.get(LibraryService),
    libraryQueries: runtime.container.get(LibraryQueries),
    workspaces: runtime.container.get(WorkspaceService),
    workspaceQueries: runtime.container.get(WorkspaceQueries),
    assessments: runtime.container.get(AssessmentService),
    conversations: runtime.container.get(ConversationService),
    keysets: runtime.container.get(KeysetService),
    chatLayouts: runtime.container.get(ChatLayoutService),
    /** ModelCatalog: the models a user may choose (built-in + their keysets'). */
    modelCatalog: runtime.container.get(KeysetModels),
    /** Speech: dictation through the transcriber, and the server's voice (decision 144). */
    speechToText: runtime.container.get(SpeechToText),
    voice: runtime.get<SpeechSynthesizer>(TOKENS.SpeechSynthesizer),
    /** null when no cloud speech service is configured. */
    /** Caps the speech routes per user (the server's voice and transcriber cost CPU). */
    speechLimiter: runtime.get<RateLimiter>(TOKENS.RateLimiter),
    speechTokens: runtime.container.isBound(TOKENS.SpeechTokens) ? runtime.get<SpeechTokens>(TOKENS.SpeechTokens) : null,
    devMailbox: config.adapters.mail === "dev-mailbox" ? runtime.get<DevMailbox>(TOKENS.DevMailbox) : null,
    /** null when OpenID sign-in is not configured. */
    externalIdentity: runtime.container.isBound(TOKENS.ExternalIdentityProvider)
      ? runtime.get<ExternalIdentityProvider>(TOKENS.ExternalIdentityProvider)
      : null,
  };
}

export type Services = Awaited<ReturnType<typeof getServices>>;
