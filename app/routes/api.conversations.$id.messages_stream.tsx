import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { answerStreamBody } from "#application/conversation/answer-stream";
import { isDomainError } from "#domain/shared/domain-error";
import { apiErrorResponse, readJsonBody } from "#app/utils/api-errors.server";
import { validateCsrfHeader } from "#app/utils/csrf-header.server";
import { getRequestContext } from "#app/utils/request-context.server";
import { getServices } from "#app/utils/services.server";
import { requireWritableUser } from "#app/utils/session.server";


const bodySchema = z.object({
  text: z.string().max(8000).default(""),
  selected_text: z.string().max(20_000).nullish(),
  media_ids: z.array(z.string().max(64)).max(5).default([]),
  language: z.string().max(40).default("English"),
  /** Regenerate the answer to this question instead of asking a new one. */
  regenerate_question_id: z.string().max(64).nullish(),
  /** Asked by clicking one of the chat's suggestions: declined, it is not counted. */
  suggested: z.boolean().default(false),
});

/**
 * POST /api/conversations/{id}/messages_stream: the answer streams as text,
 * then `[END]`, then one JSON object of message metadata. Errors before the
 * first byte answer JSON {code, message} (MESSAGE_CREATION_FAILURE…); a cut
 * connection leaves the answer recorded as interrupted.
 */
/** A question and the selected text it is about, at their longest, escaped as JSON. */
export const bodyLimit = 256 * 1024;

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireWritableUser(request);
  try {
    await validateCsrfHeader(request);
    const parsed = bodySchema.safeParse(await readJsonBody(request, bodyLimit));
    if (!parsed.success) return Response.json({ code: "MESSAGE_CREATION_FAILURE", message: "The message could not be read." }, { status: 400 });
    const body = parsed.data;
    if (!body.regenerate_question_id && !body.text.trim()) {
      return Response.json({ code: "MESSAGE_CREATION_FAILURE", message: "Type a question first." }, { status: 400 });
    }
    const { conversations } = await getServices();
    const stream = conversations.ask(
      user.id,
      params.id ?? "",
      {
        text: body.text,
        selectedText: body.selected_text,
        mediaIds: body.media_ids,
        language: body.language,
        regenerateQuestionId: body.regenerate_question_id ?? undefined,
        suggested: body.suggested,
      },
      getRequestContext(request, { actorId: user.id, impersonatorId: user.impersonatorId }),
      request.signal,
    );
    // Pull the first event before answering, so refusals (no files, limits, read-only) are JSON errors, not a broken stream.
    const first = await stream.next();
    const body$ = answerStreamBody(
      first,
      stream,
      (event) => (event.type === "text" ? { text: event.text } : { end: event.metadata }),
      // A provider's readable reason (rate limit, refused key, cut stream) reaches the chat; anything else stays generic.
      (error) => (isDomainError(error) ? { code: error.code, message: error.message } : { code: "MESSAGE_CREATION_FAILURE", message: "The answer could not be completed. Please regenerate it." }),
    );
    return new Response(body$, {
      headers: {
        "Content-Type": "text/plain; charset=utf-8",
        "Cache-Control": "no-store",
        "X-Accel-Buffering": "no",
      },
    });
  } catch (error) {
    return apiErrorResponse(error);
  }
}
