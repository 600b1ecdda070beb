import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { errorResponse, readJson, toApiDocument } from "#app/components/library/api.server";
import { validateCsrfHeader } from "#app/utils/csrf-header.server";
import { listPageParams } from "#app/utils/list-page.server";
import { getRequestContext } from "#app/utils/request-context.server";
import { getServices } from "#app/utils/services.server";
import { requireUser, requireWritableUser } from "#app/utils/session.server";

/**
 * GET /api/documents?search=&limit=&offset=&status= — the owner's documents, newest first (polling, infinite scroll);
 * `status=ACTIVE` keeps the ready ones (the assessment's resume picker).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  try {
    const url = new URL(request.url);
    const { search, limit, offset } = listPageParams(url);
    const status = url.searchParams.get("status") || undefined;
    const { libraryQueries } = await getServices();
    const { documents, total } = await libraryQueries.listDocuments(user.id, { search, limit, offset, status });
    const nextOffset = offset + documents.length < total ? offset + documents.length : null;
    return Response.json(
      { documents: documents.map(toApiDocument), total, nextOffset },
      { headers: { "Cache-Control": "private, no-store" } },
    );
  } catch (error) {
    return errorResponse(error);
  }
}

/** POST /api/documents with the upload payload (spec 000 §3) → { url, document_id, user_id }. */
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireWritableUser(request);
  if (request.method !== "POST") return Response.json({ code: "METHOD", message: "Method not allowed" }, { status: 405 });
  try {
    await validateCsrfHeader(request);
    const payload = await readJson(request);
    const { library } = await getServices();
    const registered = await library.registerUpload(user.id, payload, getRequestContext(request, { actorId: user.id }));
    return Response.json(registered, { status: 201 });
  } catch (error) {
    return errorResponse(error);
  }
}
