import { recordViewWhileImpersonating } from "#app/components/administration/record-view.server";
import { createReadableStreamFromReadable, type LoaderFunctionArgs } from "@remix-run/node";
import { throwAsPageError } from "#app/components/library/api.server";
import { contentDisposition, inlineContentType } from "#app/components/library/download.server";
import { holdsCurrent, rangeStillApplies, requestedRange } from "#app/utils/byte-ranges.server";
import { getServices } from "#app/utils/services.server";
import { requireUser } from "#app/utils/session.server";

/**
 * GET /documents/download/{id}?type=document|file — the original file as an
 * attachment. `?inline=1` is for the viewer: inline only for PDF, images and
 * plain text (typed from the detected kind, sandboxed), never HTML.
 *
 * The original never changes once uploaded (decision 160): a strong ETag
 * from the document id and size, and byte ranges (206, 416, If-Range, 304
 * on If-None-Match), so pdf.js reads page 1 without the whole book. The
 * browser may keep the bytes but must ask before each use (`no-cache`): a
 * 304 costs a round trip, and access is checked every time, so a document
 * deleted or taken out of a community is not readable from the cache.
 * A foreign id is a 404.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const url = new URL(request.url);
  const type = url.searchParams.get("type") ?? "document";
  if (type !== "document" && type !== "file") throw new Response("Unknown download type", { status: 400 });
  const { libraryQueries } = await getServices();
  const documentId = params.id ?? "";
  let described;
  try {
    described = await libraryQueries.describeSource(user.id, documentId);
  } catch (error) {
    throwAsPageError(error);
  }
  const { document, blob: info } = described;
  await recordViewWhileImpersonating(request, user, "document", document.id, document.name);
  const etag = `"${document.id}.${info.size}"`;
  const inlineType = url.searchParams.get("inline") === "1" ? inlineContentType(document) : null;
  const headers = new Headers({
    "X-Content-Type-Options": "nosniff",
    // no-transform: the strong ETag promises these exact bytes, so nothing (our gzip included) may re-encode them or a slice of them.
    "Cache-Control": "private, no-cache, no-transform",
    Vary: "Cookie",
    ETag: etag,
    "Accept-Ranges": "bytes",
    "Referrer-Policy": "no-referrer",
  });
  if (inlineType) {
    headers.set("Content-Type", inlineType);
    headers.set("Content-Disposition", contentDisposition("inline", document.name));
    headers.set("X-Frame-Options", "SAMEORIGIN");
    // Chromium's PDF viewer does not run in a sandboxed document; the other inline types are sandboxed.
    const sandbox = document.kind === "pdf" ? "" : "; sandbox";
    headers.set("Content-Security-Policy", `default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'; frame-ancestors 'self'${sandbox}`);
  } else {
    headers.set("Content-Type", info.contentType || "application/octet-stream");
    headers.set("Content-Disposition", contentDisposition("attachment", document.name));
    headers.set("Content-Security-Policy", "default-src 'none'; sandbox");
  }
  if (holdsCurrent(request.headers.get("if-none-match"), etag)) return new Response(null, { status: 304, headers });

  const answer = rangeStillApplies(request.headers.get("if-range"), etag) ? requestedRange(request.headers.get("range"), info.size) : { kind: "whole" as const };
  if (answer.kind === "unsatisfiable") {
    headers.set("Content-Range", `bytes */${info.size}`);
    return new Response(null, { status: 416, headers });
  }
  const range = answer.kind === "partial" ? answer.range : undefined;
  let opened;
  try {
    opened = await libraryQueries.openSource(user.id, documentId, range);
  } catch (error) {
    throwAsPageError(error);
  }
  const body = createReadableStreamFromReadable(opened.blob.body);
  if (!range) {
    headers.set("Content-Length", String(info.size));
    return new Response(body, { status: 200, headers });
  }
  headers.set("Content-Range", `bytes ${range.start}-${range.end}/${info.size}`);
  headers.set("Content-Length", String(range.end - range.start + 1));
  return new Response(body, { status: 206, headers });
}
