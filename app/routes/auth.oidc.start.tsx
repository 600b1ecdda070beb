import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { validateCsrf } from "#app/utils/csrf.server";
import { authenticationFailedMessage, serializePendingSignIn } from "#app/utils/oidc.server";
import { getServices } from "#app/utils/services.server";
import { refuseWhileImpersonating, safeRedirect } from "#app/utils/session.server";
import { redirectWithToast } from "#app/utils/toast.server";

/** Starting a sign-in sets a cookie, so it is POST (with CSRF) only. */
export async function loader() {
  return redirect("/login");
}

/** 'Continue with Google': remember state, nonce and PKCE verifier, then send the browser to the provider. */
export async function action({ request }: ActionFunctionArgs) {
  await refuseWhileImpersonating(request);
  const formData = await request.formData();
  await validateCsrf(formData, request);
  const { externalIdentity, logger } = await getServices();
  if (!externalIdentity) {
    return redirectWithToast("/login", { type: "error", message: "Google sign-in is not configured" });
  }
  const redirectTo = formData.get("redirectTo");
  try {
    const { authorizationUrl, pending } = await externalIdentity.begin();
    const cookie = await serializePendingSignIn({ ...pending, redirectTo: redirectTo ? safeRedirect(redirectTo) : null });
    return redirect(authorizationUrl.href, { headers: { "Set-Cookie": cookie, "Cache-Control": "no-store" } });
  } catch (error) {
    logger.error({ err: error }, "OpenID sign-in could not start (discovery failed?)");
    return redirectWithToast("/login", { type: "error", message: authenticationFailedMessage(externalIdentity.providerName) });
  }
}
