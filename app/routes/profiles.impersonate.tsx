import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { requireAdmin } from "#app/components/administration/admin.server";
import { validateCsrf } from "#app/utils/csrf.server";
import { impersonationCookieHeader } from "#app/utils/impersonation.server";
import { getRequestContext } from "#app/utils/request-context.server";
import { getServices } from "#app/utils/services.server";
import { redirectWithToast, toastHeader } from "#app/utils/toast.server";
import { isDomainError } from "#domain/shared/domain-error";

/** GET does nothing: starting an impersonation is POST only. */
export async function loader() {
  return redirect("/adminDashboard");
}

/**
 * POST /profiles/impersonate (spec 001 §7: type, user_id; plus the required
 * reason): starts the impersonation and sets the impersonation cookie beside
 * the admin's own session (decision 101); then the user's dashboard.
 */
export async function action({ request }: ActionFunctionArgs) {
  const formData = await request.formData();
  await validateCsrf(formData, request);
  const admin = await requireAdmin(request, { forAction: true });
  const { impersonations } = await getServices();
  try {
    // The dashboard offers to end the admin's running impersonation first (one left open by a closed browser).
    const endRunning = String(formData.get("end_running") ?? "");
    if (endRunning) await impersonations.endOwn(admin.id, endRunning, getRequestContext(request, { actorId: admin.id }));
    const { token, deadline } = await impersonations.start(
      admin.id,
      { userId: String(formData.get("user_id") ?? ""), reason: String(formData.get("reason") ?? "") },
      getRequestContext(request, { actorId: admin.id }),
    );
    const headers = new Headers();
    headers.append("Set-Cookie", await impersonationCookieHeader(token, deadline));
    headers.append("Set-Cookie", await toastHeader({ type: "info", message: "Admin mode: you see this account read-only." }));
    return redirect("/", { headers });
  } catch (error) {
    if (!isDomainError(error)) throw error;
    const back = new URLSearchParams({ q: String(formData.get("q") ?? "") });
    return redirectWithToast(`/adminDashboard?${back}`, { type: "error", message: error.message });
  }
}
