import { Readable } from "node:stream";
import type { LoaderFunctionArgs } from "@remix-run/node";
import { getServices } from "#app/utils/services.server";
import { getCurrentUser } from "#app/utils/session.server";

const notFound = () => new Response("Not Found", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });

/**
 * A user's profile picture. Only the user themself (and admins) may fetch it;
 * anyone else gets 404, as for a missing picture (ARCHITECTURE §8).
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const viewer = await getCurrentUser(request);
  const userId = params.userId ?? "";
  if (!viewer || (viewer.id !== userId && viewer.role !== "admin")) return notFound();
  const { identityQueries, blobs } = await getServices();
  const key = await identityQueries.pictureKey(userId);
  if (!key || !key.startsWith(`avatars/${userId}/`)) return notFound();
  const blob = await blobs.get(key);
  if (!blob) return notFound();
  return new Response(Readable.toWeb(blob.body) as ReadableStream, {
    headers: {
      "Content-Type": "image/png",
      "Content-Length": String(blob.size),
      "X-Content-Type-Options": "nosniff",
      "Content-Disposition": 'inline; filename="profile-picture.png"',
      // The URL carries the picture's id (?v=), so a changed picture is a new URL.
      "Cache-Control": "private, max-age=86400",
    },
  });
}
