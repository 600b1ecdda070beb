import type { ActionFunctionArgs } from "@remix-run/node";
import { MAX_AUDIO_BYTES, MAX_FILE_BYTES, uploadByteLimit, uploadTooLargeMessage } from "#domain/library/upload-rules";
import { errorResponse } from "#app/components/library/api.server";
import { readBodyBytes } from "#app/utils/api-errors.server";
import { getRequestContext } from "#app/utils/request-context.server";
import { getServices } from "#app/utils/services.server";
import { requireWritableUser } from "#app/utils/session.server";

/**
 * PUT /api/documents/{id}/upload?token=… — the embedded twin of a presigned S3
 * URL. It authenticates by the signed token (checked by receiveUpload), and the
 * session user must own the document. The body is read against the limit of the
 * document's type (audio or document file) while it streams in, with or without
 * a Content-Length; past it the answer is 413 naming that limit.
 */
/** The largest type's limit; the document's own type is checked below as the bytes stream in. */
export const bodyLimit = Math.max(MAX_FILE_BYTES, MAX_AUDIO_BYTES);

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireWritableUser(request);
  if (request.method !== "PUT") return Response.json({ code: "METHOD", message: "Method not allowed" }, { status: 405 });
  const documentId = params.id ?? "";
  const token = new URL(request.url).searchParams.get("token") ?? "";
  try {
    const { library } = await getServices();
    // From the event log: the read model may not have the registration yet. "" = missing or someone else's.
    if (!(await library.documentName(documentId, user.id))) {
      return Response.json({ code: "DOCUMENT_NOT_FOUND", message: "Document Not Found" }, { status: 404 });
    }
    const ctx = getRequestContext(request, { actorId: user.id });
    // A refused or broken PUT ends the upload now, not at its deadline (the browser does not retry it).
    const abandon = () => library.abandonUpload(user.id, documentId, ctx);
    const { state } = await library.loadDocument(documentId);
    const source = state.exists ? state.source : "file";
    const body = await readBodyBytes(request, uploadByteLimit(source), uploadTooLargeMessage(source), "FILE_TOO_LARGE").catch(async (error: unknown) => {
      await abandon();
      throw error;
    });
    const contentType = (request.headers.get("Content-Type") ?? "application/octet-stream").slice(0, 200);
    await library.receiveUpload(documentId, token, body, contentType, ctx);
    return new Response(null, { status: 200 });
  } catch (error) {
    if (error instanceof Response) return error;
    return errorResponse(error);
  }
}
