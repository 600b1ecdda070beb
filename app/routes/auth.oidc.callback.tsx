import type { LoaderFunctionArgs } from "@remix-run/node";
import { isDomainError } from "#domain/shared/domain-error";
import { authenticationFailedMessage, clearPendingSignIn, readPendingSignIn } from "#app/utils/oidc.server";
import { getRequestContext } from "#app/utils/request-context.server";
import { getServices } from "#app/utils/services.server";
import { startUserSession } from "#app/utils/session.server";
import { redirectWithToast } from "#app/utils/toast.server";

const LOGGED_IN = { type: "success" as const, message: "Logged In Successfully" };

/**
 * The provider sends the browser back here. The pending cookie must be there
 * and its state must match (openid-client checks it, the code with the PKCE
 * verifier, and the ID token with the nonce); then the identity signs in,
 * links or creates an account (docs/decisions/010). Any failure, including a
 * denied consent (error=access_denied), goes to /login with the spec's toast.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const { externalIdentity, identity, logger } = await getServices();
  const clear = await clearPendingSignIn();
  const providerName = externalIdentity?.providerName ?? "Google";
  const fail = async (reason: string, error?: unknown) => {
    logger.warn({ err: error, reason }, "OpenID sign-in failed");
    return redirectWithToast(
      "/login",
      { type: "error", message: authenticationFailedMessage(providerName) },
      { headers: { "Set-Cookie": clear } },
    );
  };
  if (!externalIdentity) return fail("not configured");
  const pending = await readPendingSignIn(request);
  if (!pending) return fail("no pending sign-in (cookie missing, expired or tampered)");
  const params = new URL(request.url).searchParams;
  try {
    const claims = await externalIdentity.complete(params, pending);
    const { userId, outcome } = await identity.signInWithExternalIdentity(claims, getRequestContext(request));
    logger.info({ outcome }, "OpenID sign-in");
    const response = await startUserSession(request, userId, { redirectTo: pending.redirectTo, toast: LOGGED_IN, method: "oidc" });
    response.headers.append("Set-Cookie", clear);
    return response;
  } catch (error) {
    return fail(isDomainError(error) ? error.code : "provider response rejected", error);
  }
}
