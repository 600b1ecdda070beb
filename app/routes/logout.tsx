import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { validateCsrf } from "#app/utils/csrf.server";
import { endUserSession } from "#app/utils/session.server";

/** Logging out changes state, so it is POST only; a GET just goes home. */
export async function loader() {
  return redirect("/");
}

export async function action({ request }: ActionFunctionArgs) {
  const formData = await request.formData();
  await validateCsrf(formData, request);
  return endUserSession(request);
}
