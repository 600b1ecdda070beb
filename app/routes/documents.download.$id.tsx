import { createReadableStreamFromReadable, type LoaderFunctionArgs } from "@remix-run/node";
import { throwAsPageError } from "#app/components/library/api.server";
import { contentDisposition, inlineContentType } from "#app/components/library/download.server";
import { getServices } from "#app/utils/services.server";
import { requireUser } from "#app/utils/session.server";

/**
 * GET /documents/download/{id}?type=document|file — the original file as an
 * attachment. `?inline=1` is for the viewer frame: inline only for PDF, images
 * and plain text (typed from the detected kind, sandboxed), never HTML.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const url = new URL(request.url);
  const type = url.searchParams.get("type") ?? "document";
  if (type !== "document" && type !== "file") throw new Response("Unknown download type", { status: 400 });
  const { libraryQueries } = await getServices();
  let opened;
  try {
    opened = await libraryQueries.openSource(user.id, params.id ?? "");
  } catch (error) {
    throwAsPageError(error);
  }
  const { document, blob } = opened;
  const inlineType = url.searchParams.get("inline") === "1" ? inlineContentType(document) : null;
  const headers = new Headers({
    "X-Content-Type-Options": "nosniff",
    "Cache-Control": "private, no-store",
    "Referrer-Policy": "no-referrer",
  });
  if (blob.size) headers.set("Content-Length", String(blob.size));
  if (inlineType) {
    headers.set("Content-Type", inlineType);
    headers.set("Content-Disposition", contentDisposition("inline", document.name));
    headers.set("X-Frame-Options", "SAMEORIGIN");
    // Chromium's PDF viewer does not run in a sandboxed document; the other inline types are sandboxed.
    const sandbox = document.kind === "pdf" ? "" : "; sandbox";
    headers.set("Content-Security-Policy", `default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'; frame-ancestors 'self'${sandbox}`);
  } else {
    headers.set("Content-Type", blob.contentType || "application/octet-stream");
    headers.set("Content-Disposition", contentDisposition("attachment", document.name));
    headers.set("Content-Security-Policy", "default-src 'none'; sandbox");
  }
  return new Response(createReadableStreamFromReadable(blob.body), { status: 200, headers });
}
