import { TOKENS } from "#application/tokens";
import type { DevMailbox } from "#application/ports/mailer";
import type { ExternalIdentityProvider } from "#application/ports/external-identity";
import { IdentityQueries } from "#application/identity/identity-queries";
import { IdentityService } from "#application/identity/identity-service";
import { LibraryQueries } from "#application/library/library-queries";
import { LibraryService } from "#application/library/library-service";
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
    config: { productName: config.productName, cookieSecure: config.cookieSecure, appSecret: config.appSecret },
    logger: runtime.logger,
    identity: runtime.container.get(IdentityService),
    identityQueries: runtime.container.get(IdentityQueries),
    library: runtime.container.get(LibraryService),
    libraryQueries: runtime.container.get(LibraryQueries),
    devMailbox: config.adapters.mail === "dev-mailbox" ? runtime.get<DevMailbox>(TOKENS.DevMailbox) : null,
    /** null when OpenID sign-in is not configured. */
    externalIdentity: runtime.container.isBound(TOKENS.ExternalIdentityProvider)
      ? runtime.get<ExternalIdentityProvider>(TOKENS.ExternalIdentityProvider)
      : null,
  };
}

export type Services = Awaited<ReturnType<typeof getServices>>;
