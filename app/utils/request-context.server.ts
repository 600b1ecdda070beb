import type { RequestContext } from "#application/shared/request-context";

/** Set by server.mjs from the socket (any incoming header of the same name is overwritten). */
export const REQUEST_ID_HEADER = "x-request-id";
export const CLIENT_ADDRESS_HEADER = "x-docuchat-client-address";

/** The impersonation a request runs under, remembered when its user was resolved (session.server.ts). */
const impersonations = new WeakMap<Request, { userId: string; impersonatorId: string; impersonationId: string }>();

export function rememberImpersonation(request: Request, impersonation: { userId: string; impersonatorId: string; impersonationId: string }): void {
  impersonations.set(request, impersonation);
}

/**
 * A command's context. While an admin impersonates the acting user, every
 * context for that user names the admin and the impersonation (decision 101),
 * so the guard refuses the command even where a route passes only the user's id.
 */
export function getRequestContext(request: Request, actor?: { actorId?: string; impersonatorId?: string | null }): RequestContext {
  const impersonation = impersonations.get(request);
  const impersonated = impersonation && actor?.actorId === impersonation.userId ? impersonation : undefined;
  return {
    requestId: request.headers.get(REQUEST_ID_HEADER) ?? crypto.randomUUID(),
    clientAddress: request.headers.get(CLIENT_ADDRESS_HEADER) ?? "unknown",
    actorId: actor?.actorId,
    impersonatorId: impersonated?.impersonatorId ?? actor?.impersonatorId ?? undefined,
    ...(impersonated ? { impersonationId: impersonated.impersonationId } : {}),
  };
}
