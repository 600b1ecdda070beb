import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { IMAGE_TOO_LARGE, MAX_IMAGE_BYTES, NOT_AN_IMAGE } from "#domain/conversation/chat-image";
import { apiErrorResponse, readBodyBytes, readJsonBody } from "#app/utils/api-errors.server";
import { validateCsrfHeader } from "#app/utils/csrf-header.server";
import { getRequestContext } from "#app/utils/request-context.server";
import { getServices } from "#app/utils/services.server";
import { requireWritableUser } from "#app/utils/session.server";

const linkSchema = z.object({ url: z.string().trim().min(1, "Enter an image link.").max(2048, "The link is too long.") });

/**
 * POST /api/conversations/{id}/media — attaches an image to the chat for the
 * next question and answers `{media_id}`. Either the image's bytes as the body
 * (any `image/*` or `application/octet-stream` type: the bytes decide), or JSON
 * `{url}` for an image link, which the server fetches through the egress rules.
 */
export const bodyLimit = MAX_IMAGE_BYTES;

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireWritableUser(request);
  if (request.method !== "POST") return Response.json({ code: "METHOD", message: "Method not allowed" }, { status: 405 });
  try {
    await validateCsrfHeader(request);
    const { conversations } = await getServices();
    const ctx = getRequestContext(request, { actorId: user.id, impersonatorId: user.impersonatorId });
    const conversationId = params.id ?? "";
    const type = (request.headers.get("Content-Type") ?? "").toLowerCase();
    if (type.startsWith("application/json")) {
      const parsed = linkSchema.safeParse(await readJsonBody(request, 8 * 1024));
      if (!parsed.success) return Response.json({ code: "VALIDATION", message: parsed.error.issues[0]?.message ?? "Enter an image link." }, { status: 400 });
      const { mediaId } = await conversations.attachImageLink(user.id, conversationId, parsed.data.url, ctx);
      return Response.json({ media_id: mediaId }, { status: 201 });
    }
    if (!type.startsWith("image/") && !type.startsWith("application/octet-stream")) {
      return Response.json({ code: "IMAGE_NOT_ATTACHED", message: NOT_AN_IMAGE }, { status: 415 });
    }
    const bytes = await readBodyBytes(request, MAX_IMAGE_BYTES, IMAGE_TOO_LARGE);
    const { mediaId } = await conversations.attachImage(user.id, conversationId, bytes, ctx);
    return Response.json({ media_id: mediaId }, { status: 201 });
  } catch (error) {
    return apiErrorResponse(error);
  }
}

export async function loader() {
  return Response.json({ code: "METHOD", message: "Method not allowed" }, { status: 405 });
}
