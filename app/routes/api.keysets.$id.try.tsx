import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { answerStreamBody } from "#application/conversation/answer-stream";
import { apiErrorResponse, readJsonBody } from "#app/utils/api-errors.server";
import { validateCsrfHeader } from "#app/utils/csrf-header.server";
import { getServices } from "#app/utils/services.server";
import { requireUser } from "#app/utils/session.server";
import { isDomainError } from "#domain/shared/domain-error";

const bodySchema = z.object({ model: z.string().max(200).optional() });

/**
 * POST /api/keysets/{id}/try — a short streamed round trip through the
 * keyset's model (the same path a chat answer takes: provider adapter,
 * egress, streaming), ending like a chat answer with `[END]` and JSON
 * ({model, usage} or {error}). Lets a user see a key work end to end.
 */
export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUser(request);
  try {
    await validateCsrfHeader(request);
    // Using a key costs its owner money: an admin acting as the user may not.
    if (user.impersonatorId) return Response.json({ code: "IMPERSONATION_READ_ONLY", message: "An admin acting as this user cannot use their keys." }, { status: 403 });
    const parsed = bodySchema.safeParse(await readJsonBody(request));
    if (!parsed.success) return Response.json({ code: "VALIDATION", message: "The request could not be read." }, { status: 400 });
    const { keysets, modelCatalog } = await getServices();
    const keyset = await keysets.get(user.id, params.id ?? "");
    const model = await modelCatalog.resolve(user.id, { keysetId: keyset.id, model: parsed.data.model || keyset.model || keyset.models[0] || "" });
    const events = model.streamAnswer({ question: "Reply with the single word OK.", history: [], passages: [], language: "English" }, request.signal)[Symbol.asyncIterator]();
    // The first event decides between a JSON error (refused key, unreachable) and a stream.
    const first = await events.next();
    const body = answerStreamBody(
      first,
      events,
      (event) => (event.type === "text" ? { text: event.text } : { end: { model: model.id, usage: event.usage } }),
      (error) => (isDomainError(error) ? { code: error.code, message: error.message } : { code: "PROVIDER_ERROR", message: "The provider could not answer." }),
    );
    return new Response(body, { headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store", "X-Accel-Buffering": "no" } });
  } catch (error) {
    return apiErrorResponse(error);
  }
}
