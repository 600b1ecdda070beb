import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { validateCsrf } from "#app/utils/csrf.server";
import { clearImpersonationCookie, impersonationToken } from "#app/utils/impersonation.server";
import { getRequestContext } from "#app/utils/request-context.server";
import { getServices } from "#app/utils/services.server";
import { requireUserForAction } from "#app/utils/session.server";
import { toastHeader } from "#app/utils/toast.server";
import { isDomainError } from "#domain/shared/domain-error";

export async function loader() {
  return redirect("/");
}

/**
 * Exit Admin Mode (spec 001 §4): ends the impersonation the cookie names —
 * only the admin who started it can (the session must be theirs) — and drops
 * the cookie, so the admin's own session is what the browser has again.
 */
export async function action({ request }: ActionFunctionArgs) {
  const formData = await request.formData();
  await validateCsrf(formData, request);
  const user = await requireUserForAction(request);
  const token = await impersonationToken(request);
  const headers = new Headers();
  headers.append("Set-Cookie", await clearImpersonationCookie());
  if (token && user.impersonation) {
    const { impersonations } = await getServices();
    try {
      await impersonations.end(token, user.impersonation.adminId, getRequestContext(request, { actorId: user.id }));
    } catch (error) {
      if (!isDomainError(error)) throw error;
    }
  }
  headers.append("Set-Cookie", await toastHeader({ type: "info", message: "You left admin mode." }));
  return redirect(user.impersonation || user.role === "admin" ? "/adminDashboard" : "/", { headers });
}
