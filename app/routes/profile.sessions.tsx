import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { validateCsrf } from "#app/utils/csrf.server";
import { getRequestContext } from "#app/utils/request-context.server";
import { getServices } from "#app/utils/services.server";
import { clearSessionCookie, requireUserForAction } from "#app/utils/session.server";
import { toastHeader } from "#app/utils/toast.server";

export const LOGGED_OUT_EVERYWHERE_TOAST = "Logged out of all devices successfully";

export async function loader() {
  return redirect("/account/security");
}

/** POST /profile/sessions: 'Log out of all Devices' — every session goes, this browser's too. */
export async function action({ request }: ActionFunctionArgs) {
  const formData = await request.formData();
  await validateCsrf(formData, request);
  const user = await requireUserForAction(request);
  if (user.role === "impersonate") throw new Response("Read-only while impersonating", { status: 403 });
  const { identity } = await getServices();
  await identity.logOutEverywhere(user.id, getRequestContext(request, { actorId: user.id }));
  const headers = new Headers();
  headers.append("Set-Cookie", await clearSessionCookie());
  headers.append("Set-Cookie", await toastHeader({ type: "success", message: LOGGED_OUT_EVERYWHERE_TOAST }));
  return redirect("/login", { headers });
}
