import type { RequestContext } from "#application/shared/request-context";

/** Set by server.mjs from the socket (any incoming header of the same name is overwritten). */
export const REQUEST_ID_HEADER = "x-request-id";
export const CLIENT_ADDRESS_HEADER = "x-docuchat-client-address";

export function getRequestContext(request: Request, actor?: { actorId?: string; impersonatorId?: string | null }): RequestContext {
  return {
    requestId: request.headers.get(REQUEST_ID_HEADER) ?? crypto.randomUUID(),
    clientAddress: request.headers.get(CLIENT_ADDRESS_HEADER) ?? "unknown",
    actorId: actor?.actorId,
    impersonatorId: actor?.impersonatorId ?? undefined,
  };
}
