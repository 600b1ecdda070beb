import { recordDocumentReadWhileImpersonating } from "#app/components/administration/record-view.server";
import type { LoaderFunctionArgs } from "@remix-run/node";
import { errorResponse } from "#app/components/library/api.server";
import { getServices } from "#app/utils/services.server";
import { requireUser } from "#app/utils/session.server";

/**
 * GET /api/documents/{id}/audio: the owner's recording for the transcript
 * player (its seekable MP3 copy, decision 143), with byte ranges so the
 * player can start anywhere. Another user's id, or a document that is not a
 * recording, is a 404.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  try {
    const { libraryQueries } = await getServices();
    const { blob } = await libraryQueries.openPlayback(user.id, params.id ?? "");
    await recordDocumentReadWhileImpersonating(request, user, params.id ?? "");
    const parts: Buffer[] = [];
    for await (const part of blob.body) parts.push(part as Buffer);
    const bytes = Buffer.concat(parts);
    const headers = new Headers({
      "Content-Type": blob.contentType || "application/octet-stream",
      "Accept-Ranges": "bytes",
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
      "Content-Security-Policy": "default-src 'none'; sandbox",
    });
    const range = /^bytes=(\d*)-(\d*)$/.exec(request.headers.get("range") ?? "");
    if (range && (range[1] || range[2])) {
      const start = range[1] ? Number(range[1]) : Math.max(0, bytes.length - Number(range[2]));
      const end = range[1] && range[2] ? Math.min(Number(range[2]), bytes.length - 1) : bytes.length - 1;
      if (start >= bytes.length || start > end) {
        headers.set("Content-Range", `bytes */${bytes.length}`);
        return new Response(null, { status: 416, headers });
      }
      headers.set("Content-Range", `bytes ${start}-${end}/${bytes.length}`);
      headers.set("Content-Length", String(end - start + 1));
      return new Response(new Uint8Array(bytes.subarray(start, end + 1)), { status: 206, headers });
    }
    headers.set("Content-Length", String(bytes.length));
    return new Response(new Uint8Array(bytes), { status: 200, headers });
  } catch (error) {
    return errorResponse(error);
  }
}
