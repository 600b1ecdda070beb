import { recordDocumentReadWhileImpersonating } from "#app/components/administration/record-view.server";
import type { LoaderFunctionArgs } from "@remix-run/node";
import { errorResponse } from "#app/components/library/api.server";
import { getServices } from "#app/utils/services.server";
import { requireUser } from "#app/utils/session.server";

/**
 * GET /api/documents/{id}/pages/{page}: the extracted text of one page (1-based)
 * of the owner's document, for the viewer of kinds the browser cannot show
 * (docx, pptx, xlsx, web pages, transcripts). Another user's id is a 404.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  try {
    const { libraryQueries } = await getServices();
    const id = params.id ?? "";
    const pageNumber = Number(params.page);
    const pages = await libraryQueries.pages(user.id, id); // checks the reader may read it first (owner or community member)
    await recordDocumentReadWhileImpersonating(request, user, params.id ?? "");
    const page = Number.isInteger(pageNumber) && pageNumber >= 1 ? pages.find((p) => p.pageNumber === pageNumber) : undefined;
    if (!page) return Response.json({ code: "PAGE_NOT_FOUND", message: "Page not found", pageCount: pages.length }, { status: 404 });
    return Response.json(
      { pageNumber: page.pageNumber, text: page.text, pageCount: pages.length, timeRange: page.timeRange ?? null, segments: page.segments ?? null },
      { headers: { "Cache-Control": "private, no-store" } },
    );
  } catch (error) {
    return errorResponse(error);
  }
}
