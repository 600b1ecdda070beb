import type { ActionFunctionArgs } from "@remix-run/node";
import { communityErrorResponse, communityServices } from "#app/components/community/community.server";
import { readJsonBody } from "#app/utils/api-errors.server";
import { validateCsrfHeader } from "#app/utils/csrf-header.server";
import { requireUser } from "#app/utils/session.server";
import { documentIdOf } from "#domain/community/community-rules";

/**
 * POST /api/communities/{id}/resources {resource_id, type}: opens a resource
 * (spec 001 §7) — where its preview is. Only roles that open resources get it;
 * a VIEWER, or a resource of another community, answers 404.
 */
export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUser(request);
  if (request.method !== "POST") return Response.json({ code: "METHOD", message: "Method not allowed" }, { status: 405 });
  try {
    await validateCsrfHeader(request);
    const body = (await readJsonBody(request)) as { resource_id?: unknown };
    const documentId = typeof body.resource_id === "string" ? documentIdOf(body.resource_id) : "";
    const { communityQueries } = await communityServices();
    if (!documentId || !(await communityQueries.mayOpen(user.id, params.id ?? "", documentId))) {
      return Response.json({ code: "RESOURCE_NOT_FOUND", message: "Document not found in this community." }, { status: 404 });
    }
    return Response.json({ resource_id: body.resource_id, type: "DOCUMENT", url: `/documents/download/${encodeURIComponent(documentId)}?inline=1` });
  } catch (error) {
    return communityErrorResponse(error);
  }
}
