import type { ActionFunctionArgs } from "@remix-run/node";
import { communityErrorResponse, communityServices } from "#app/components/community/community.server";
import { readJsonBody } from "#app/utils/api-errors.server";
import { validateCsrfHeader } from "#app/utils/csrf-header.server";
import { getRequestContext } from "#app/utils/request-context.server";
import { requireWritableUser } from "#app/utils/session.server";

/**
 * POST /api/communities/{id}/contributions {document_id}: upload's share-with-community.
 * The member's own document joins the community now if it is ACTIVE, else once ingestion finishes.
 */
export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireWritableUser(request);
  if (request.method !== "POST") return Response.json({ code: "METHOD", message: "Method not allowed" }, { status: 405 });
  try {
    await validateCsrfHeader(request);
    const body = (await readJsonBody(request)) as { document_id?: unknown };
    const documentId = typeof body.document_id === "string" ? body.document_id : "";
    const { communities } = await communityServices();
    await communities.contributeUpload(user.id, params.id ?? "", documentId, getRequestContext(request, { actorId: user.id }));
    return Response.json({ ok: true }, { status: 202 });
  } catch (error) {
    return communityErrorResponse(error);
  }
}
