import { recordDocumentReadWhileImpersonating } from "#app/components/administration/record-view.server";
import type { LoaderFunctionArgs } from "@remix-run/node";
import { errorResponse } from "#app/components/library/api.server";
import { getServices } from "#app/utils/services.server";
import { requireUser } from "#app/utils/session.server";

/** GET /api/documents/{id}/layout/{page}: layout blocks of one page (1-based) for highlights. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  try {
    const page = Number(params.page);
    const { libraryQueries } = await getServices();
    if (!Number.isInteger(page) || page < 1) {
      await libraryQueries.readableDocument(user.id, params.id ?? ""); // a foreign id stays a 404
      return Response.json({ code: "PAGE_NOT_FOUND", message: "Page not found" }, { status: 404 });
    }
    const blocks = await libraryQueries.layout(user.id, params.id ?? "", page);
    await recordDocumentReadWhileImpersonating(request, user, params.id ?? "");
    return Response.json({ page, blocks }, { headers: { "Cache-Control": "private, no-store" } });
  } catch (error) {
    return errorResponse(error);
  }
}
