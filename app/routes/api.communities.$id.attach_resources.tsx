import type { ActionFunctionArgs } from "@remix-run/node";
import { communityErrorResponse, communityServices } from "#app/components/community/community.server";
import { readJsonBody } from "#app/utils/api-errors.server";
import { validateCsrfHeader } from "#app/utils/csrf-header.server";
import { getRequestContext } from "#app/utils/request-context.server";
import { requireWritableUser } from "#app/utils/session.server";

/** POST /api/communities/{id}/attach_resources {resources: [{id, name, type}]}: a member contributes their own ACTIVE documents. */
export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireWritableUser(request);
  if (request.method !== "POST") return Response.json({ code: "METHOD", message: "Method not allowed" }, { status: 405 });
  try {
    await validateCsrfHeader(request);
    const body = await readJsonBody(request);
    const { communities } = await communityServices();
    await communities.attachResources(user.id, params.id ?? "", body, getRequestContext(request, { actorId: user.id }));
    return Response.json({ ok: true });
  } catch (error) {
    return communityErrorResponse(error);
  }
}
