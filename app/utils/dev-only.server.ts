import { classifyAddress } from "#infrastructure/egress/address-policy";
import { CLIENT_ADDRESS_HEADER } from "./request-context.server";

/**
 * Development-only routes (the dev mailbox) answer only to a browser on the
 * server's own machine; anyone else gets the same 404 as a route that does not
 * exist. Production never gets here: start-up refuses a configuration that
 * would need them (docs/decisions/080).
 */
export function requireLoopbackClient(request: Request): void {
  if (!isLoopbackClient(request.headers.get(CLIENT_ADDRESS_HEADER))) throw new Response("Not Found", { status: 404 });
}

/** The socket address server.mjs recorded; a missing one is not trusted. */
export function isLoopbackClient(address: string | null): boolean {
  return address !== null && classifyAddress(address) === "loopback";
}
