import type { ActionFunctionArgs } from "@remix-run/node";
import { requireAdminApi } from "#app/components/administration/admin.server";
import { apiErrorResponse, readJsonBody } from "#app/utils/api-errors.server";
import { validateCsrfHeader } from "#app/utils/csrf-header.server";
import { getServices } from "#app/utils/services.server";

/** A JSON body, as spec 001 §7 sends it; not a page form. */
export const bodyTypes = ["application/json"];

export async function loader() {
  return Response.json({ code: "METHOD_NOT_ALLOWED", message: "Use POST" }, { status: 405, headers: { Allow: "POST" } });
}

/**
 * POST /profiles/filter (spec 001 §7): `logic` OR of `contains` filters on
 * email, auth_id and name; answers users with id, auth_id, name, email_id.
 * Admins only; anyone else 404. Filters under 3 characters match nothing.
 */
export async function action({ request }: ActionFunctionArgs) {
  try {
    await validateCsrfHeader(request);
    await requireAdminApi(request);
    const { administration } = await getServices();
    const users = await administration.searchUsers(await readJsonBody(request, 8 * 1024));
    return Response.json({ users: users.map(({ id, auth_id, name, email_id }) => ({ id, auth_id, name, email_id })) });
  } catch (error) {
    return apiErrorResponse(error);
  }
}
