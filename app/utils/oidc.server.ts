import { createCookie } from "@remix-run/node";
import { z } from "zod";
import type { PendingAuthorization } from "#application/ports/external-identity";
import { getServices } from "./services.server";

/** How long a browser may take at the provider before the callback is refused. */
export const PENDING_AUTHORIZATION_SECONDS = 10 * 60;

const pendingSchema = z.object({
  state: z.string().min(16),
  nonce: z.string().min(16),
  codeVerifier: z.string().min(43),
  redirectTo: z.string().nullable(),
});
export type PendingSignIn = PendingAuthorization & { redirectTo: string | null };

/**
 * state, nonce and PKCE verifier between the redirect out and the callback:
 * a signed (tamper-evident), httpOnly, SameSite=Lax cookie, valid 10 minutes
 * and scoped to /auth/oidc. Lax is what lets the provider's top-level GET
 * redirect bring it back.
 */
async function pendingCookie() {
  const { config } = await getServices();
  return createCookie("__oidc", {
    httpOnly: true,
    sameSite: "lax",
    secure: config.cookieSecure,
    path: "/auth/oidc",
    maxAge: PENDING_AUTHORIZATION_SECONDS,
    secrets: [config.appSecret],
  });
}

export async function serializePendingSignIn(pending: PendingSignIn): Promise<string> {
  return (await pendingCookie()).serialize(pending);
}

export async function readPendingSignIn(request: Request): Promise<PendingSignIn | null> {
  const parsed = pendingSchema.safeParse(await (await pendingCookie()).parse(request.headers.get("Cookie")));
  return parsed.success ? parsed.data : null;
}

export async function clearPendingSignIn(): Promise<string> {
  return (await pendingCookie()).serialize("", { maxAge: 0 });
}

/** 'Google Authentication Failed!!' (spec 000 §8), with the configured provider's name. */
export const authenticationFailedMessage = (providerName: string) => `${providerName} Authentication Failed!!`;
