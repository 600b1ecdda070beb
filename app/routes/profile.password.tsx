import { data, redirect, type ActionFunctionArgs } from "@remix-run/node";
import { PASSWORD_CHANGED_TOAST, type ChangePasswordActionData } from "#app/components/account/change-password-form";
import { validateCsrf } from "#app/utils/csrf.server";
import { getRequestContext } from "#app/utils/request-context.server";
import { getServices } from "#app/utils/services.server";
import { requireUserForAction } from "#app/utils/session.server";
import { redirectWithToast } from "#app/utils/toast.server";
import { changePasswordSchema, fieldErrors } from "#domain/identity/credentials";
import { isDomainError } from "#domain/shared/domain-error";

/** The form lives on the profile page (and /account/security); a GET goes there. */
export async function loader() {
  return redirect("/account/security");
}

/** POST /profile/password: Change Password (spec 001 §5). */
export async function action({ request }: ActionFunctionArgs) {
  const formData = await request.formData();
  await validateCsrf(formData, request);
  const user = await requireUserForAction(request);
  if (user.role === "impersonate") throw new Response("Read-only while impersonating", { status: 403 });
  const byScript = formData.get("mode") === "script";
  const back = (toast: { type: "success" | "error"; message: string }) => redirectWithToast("/account/security", toast);
  const parsed = changePasswordSchema.safeParse({
    oldPassword: String(formData.get("oldPassword") ?? ""),
    newPassword: String(formData.get("newPassword") ?? ""),
  });
  if (!parsed.success) {
    if (!byScript) return back({ type: "error", message: parsed.error.issues[0]?.message ?? "Password is required" });
    return data<ChangePasswordActionData>({ ok: false, fieldErrors: fieldErrors(parsed.error) }, { status: 400 });
  }
  const { identity } = await getServices();
  try {
    await identity.changePassword(user.id, parsed.data, getRequestContext(request, { actorId: user.id }));
  } catch (error) {
    if (!isDomainError(error)) throw error;
    if (!byScript) return back({ type: "error", message: error.message });
    const field = error.field === "oldPassword" || error.field === "newPassword" ? error.field : null;
    return data<ChangePasswordActionData>(
      field ? { ok: false, fieldErrors: { [field]: error.message } } : { ok: false, fieldErrors: {}, formError: error.message },
      { status: error.code === "RATE_LIMITED" ? 429 : 400 },
    );
  }
  if (!byScript) return back({ type: "success", message: PASSWORD_CHANGED_TOAST });
  return data<ChangePasswordActionData>({ ok: true });
}
