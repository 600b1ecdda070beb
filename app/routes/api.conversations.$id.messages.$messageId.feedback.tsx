import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { apiErrorResponse, readJsonBody } from "#app/utils/api-errors.server";
import { validateCsrfHeader } from "#app/utils/csrf-header.server";
import { getRequestContext } from "#app/utils/request-context.server";
import { getServices } from "#app/utils/services.server";
import { requireWritableUser } from "#app/utils/session.server";

/** 'false' = disliked; null removes the dislike (spec 001 §4 Rating). */
const bodySchema = z.object({ rating: z.enum(["false"]).nullable() });

/** PUT /api/conversations/{id}/messages/{messageId}/feedback {rating}. */
export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireWritableUser(request);
  if (request.method !== "PUT") return Response.json({ code: "METHOD", message: "Method not allowed" }, { status: 405 });
  try {
    await validateCsrfHeader(request);
    const parsed = bodySchema.safeParse(await readJsonBody(request));
    if (!parsed.success) return Response.json({ code: "VALIDATION", message: "Unknown rating." }, { status: 400 });
    const { conversations } = await getServices();
    await conversations.rate(user.id, params.id ?? "", params.messageId ?? "", parsed.data.rating, getRequestContext(request, { actorId: user.id, impersonatorId: user.impersonatorId }));
    return Response.json({ rating: parsed.data.rating });
  } catch (error) {
    return apiErrorResponse(error);
  }
}
