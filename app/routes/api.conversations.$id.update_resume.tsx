import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { apiErrorResponse } from "#app/utils/api-errors.server";
import { validateCsrfHeader } from "#app/utils/csrf-header.server";
import { getRequestContext } from "#app/utils/request-context.server";
import { getServices } from "#app/utils/services.server";
import { requireWritableUser } from "#app/utils/session.server";

const UpdateResumeBody = z.object({ user_query: z.string().min(1), is_complete_resume: z.boolean().default(true) });

/**
 * PUT /api/conversations/{id}/update_resume {user_query, is_complete_resume}
 * (spec 001 §7): saves the content as the newest version of the resume of the
 * conversation's workspace, if it compiles. The answer is not shown; the chat
 * says 'The resume is updated successfully' or 'Failed to update resume'.
 */
/** A whole resume of MAX_RESUME_BYTES, escaped as JSON. */
export const bodyLimit = 2 * 1024 * 1024;

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireWritableUser(request);
  if (request.method !== "PUT") return Response.json({ code: "METHOD", message: "Method not allowed" }, { status: 405 });
  try {
    await validateCsrfHeader(request);
    const parsed = UpdateResumeBody.safeParse(await request.json().catch(() => null));
    if (!parsed.success) return Response.json({ code: "VALIDATION", message: "user_query is required" }, { status: 400 });
    const { resumes } = await getServices();
    const { user_query, is_complete_resume } = parsed.data;
    const saved = await resumes.updateFromConversation(user.id, params.id ?? "", user_query, is_complete_resume, getRequestContext(request, { actorId: user.id }));
    return Response.json({ ok: true, version: saved.version });
  } catch (error) {
    return apiErrorResponse(error);
  }
}
