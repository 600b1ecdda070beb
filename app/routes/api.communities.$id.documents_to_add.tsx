import type { LoaderFunctionArgs } from "@remix-run/node";
import { communityErrorResponse, communityServices } from "#app/components/community/community.server";
import { listPageParams } from "#app/utils/list-page.server";
import { requireUser } from "#app/utils/session.server";

/**
 * GET /api/communities/{id}/documents_to_add?search=&limit=&offset= — 'Add New Files' a page at a time:
 * the caller's own ready documents, each with `in_community`. A viewer answers 403; a private community they
 * do not belong to, 404 like a missing one.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  try {
    const { communityQueries } = await communityServices();
    const { documents, total } = await communityQueries.documentsToAdd(user.id, params.id ?? "", listPageParams(new URL(request.url)));
    return Response.json(
      { documents: documents.map((d) => ({ document_id: d.id, document_name: d.name, in_community: d.inCommunity })), total },
      { headers: { "Cache-Control": "private, no-store" } },
    );
  } catch (error) {
    return communityErrorResponse(error);
  }
}
