import { recordViewWhileImpersonating } from "#app/components/administration/record-view.server";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { errorResponse, toApiDocument } from "#app/components/library/api.server";
import { validateCsrfHeader } from "#app/utils/csrf-header.server";
import { getRequestContext } from "#app/utils/request-context.server";
import { getServices } from "#app/utils/services.server";
import { requireUser, requireWritableUser } from "#app/utils/session.server";

/** GET /api/documents/{id}: one of the owner's documents; anyone else's id is a 404. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  try {
    const { libraryQueries } = await getServices();
    const document = await libraryQueries.getDocument(user.id, params.id ?? "");
    await recordViewWhileImpersonating(request, user, "document", document.id, document.name);
    return Response.json(toApiDocument(document), { headers: { "Cache-Control": "private, no-store" } });
  } catch (error) {
    return errorResponse(error);
  }
}

/** DELETE /api/documents/{id} (header X-CSRF-Token). An in-progress document is deleted too, which cancels its ingestion. */
export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireWritableUser(request);
  if (request.method !== "DELETE") return Response.json({ code: "METHOD", message: "Method not allowed" }, { status: 405 });
  try {
    await validateCsrfHeader(request);
    const { library } = await getServices();
    await library.deleteDocuments(user.id, [params.id ?? ""], getRequestContext(request, { actorId: user.id }));
    return new Response(null, { status: 204 });
  } catch (error) {
    return errorResponse(error);
  }
}
