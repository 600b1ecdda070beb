import type { ActionFunctionArgs } from "@remix-run/node";
import { MAX_AUDIO_BYTES } from "#domain/library/upload-rules";
import { errorResponse } from "#app/components/library/api.server";
import { getRequestContext } from "#app/utils/request-context.server";
import { getServices } from "#app/utils/services.server";
import { requireWritableUser } from "#app/utils/session.server";

const tooLarge = () =>
  Response.json({ code: "FILE_TOO_LARGE", message: `The file is larger than ${MAX_AUDIO_BYTES / 1024 / 1024} MB.` }, { status: 413 });

/**
 * PUT /api/documents/{id}/upload?token=… — the embedded twin of a presigned S3
 * URL. It authenticates by the signed token (checked by receiveUpload), and the
 * session user must own the document. The body is read with a running limit.
 */
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
    const declared = Number(request.headers.get("Content-Length") ?? "0");
    if (declared > MAX_AUDIO_BYTES) return await abandon().then(tooLarge);
    const body = await readLimited(request, MAX_AUDIO_BYTES).catch(async (error: unknown) => {
      await abandon();
      throw error;
    });
    if (!body) return await abandon().then(tooLarge);
    const contentType = (request.headers.get("Content-Type") ?? "application/octet-stream").slice(0, 200);
    await library.receiveUpload(documentId, token, body, contentType, ctx);
    return new Response(null, { status: 200 });
  } catch (error) {
    return errorResponse(error);
  }
}

/** The whole body, or null as soon as it passes `limit` bytes (the rest is not read). */
async function readLimited(request: Request, limit: number): Promise<Buffer | null> {
  if (!request.body) return Buffer.alloc(0);
  const reader = request.body.getReader();
  const parts: Buffer[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel().catch(() => undefined);
      return null;
    }
    parts.push(Buffer.from(value.buffer, value.byteOffset, value.byteLength));
  }
  return Buffer.concat(parts, total);
}
