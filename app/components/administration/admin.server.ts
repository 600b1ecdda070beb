import { redirect } from "@remix-run/node";
import { type CurrentUser, requireUser, requireUserForAction } from "#app/utils/session.server";

/**
 * Admin pages and APIs (spec 001 §6): an admin passes; an admin already
 * impersonating is sent to / (spec 001 §2); anyone else gets the not-found
 * page, as if the route did not exist.
 */
export async function requireAdmin(request: Request, options: { forAction?: boolean } = {}): Promise<CurrentUser> {
  const user = options.forAction ? await requireUserForAction(request) : await requireUser(request);
  if (user.role === "impersonate") throw redirect("/");
  if (user.role !== "admin") throw new Response("Not Found", { status: 404 });
  return user;
}

/** JSON APIs answer a non-admin 404 in JSON. */
export async function requireAdminApi(request: Request): Promise<CurrentUser> {
  const user = await requireUserForAction(request).catch(() => null);
  if (!user || user.role !== "admin") throw Response.json({ code: "NOT_FOUND", message: "Not Found" }, { status: 404 });
  return user;
}
