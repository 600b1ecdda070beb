import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { validateCsrf } from "#app/utils/csrf.server";
import { getRequestContext } from "#app/utils/request-context.server";
import { getServices } from "#app/utils/services.server";
import { requireUser, safeRedirect } from "#app/utils/session.server";
import { redirectWithToast } from "#app/utils/toast.server";
import { isDomainError } from "#domain/shared/domain-error";

/** Retrieve Now (banner, My Account, the delete page): cancels a scheduled deletion. POST only. */
export async function loader() {
  return redirect("/profile/my-account");
}

export async function action({ request }: ActionFunctionArgs) {
  const formData = await request.formData();
  await validateCsrf(formData, request);
  const user = await requireUser(request);
  const back = safeRedirect(formData.get("redirectTo"), "/profile/my-account");
  const { accountDeletion } = await getServices();
  try {
    await accountDeletion.retrieve(user.id, getRequestContext(request, { actorId: user.id }));
  } catch (error) {
    if (!isDomainError(error)) throw error;
    return redirectWithToast(back, { type: "error", message: error.message });
  }
  return redirectWithToast(back === "/delete-account" ? "/profile/my-account" : back, {
    type: "success",
    message: "Your account has been retrieved.",
  });
}
