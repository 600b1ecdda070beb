import { redirect } from "@remix-run/node";

/** /profile opens the My Account tab (spec 001 §2: Settings selects My Account). */
export async function loader() {
  return redirect("/profile/my-account");
}
