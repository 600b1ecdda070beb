import { Readable } from "node:stream";
import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiErrorResponse } from "#app/utils/api-errors.server";
import { getServices } from "#app/utils/services.server";
import { requireUser } from "#app/utils/session.server";

/**
 * GET /api/conversations/{id}/media/{mediaId} — an image attached to one of
 * the user's chats; another user's answers 404 like a missing one. Served with
 * the type its bytes declared when it was attached, never sniffed.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  try {
    const { conversations } = await getServices();
    const blob = await conversations.image(user.id, params.id ?? "", params.mediaId ?? "");
    return new Response(Readable.toWeb(blob.body) as ReadableStream, {
      headers: {
        "Content-Type": blob.contentType,
        "Content-Length": String(blob.size),
        "X-Content-Type-Options": "nosniff",
        "Content-Security-Policy": "default-src 'none'; sandbox",
        "Content-Disposition": "inline",
        // An attached image never changes: its id is new for every attachment.
        "Cache-Control": "private, max-age=86400, immutable",
      },
    });
  } catch (error) {
    return apiErrorResponse(error);
  }
}
