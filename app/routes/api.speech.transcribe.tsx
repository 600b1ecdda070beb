import type { ActionFunctionArgs } from "@remix-run/node";
import { errorResponse } from "#app/components/library/api.server";
import { DICTATIONS_PER_MINUTE, MAX_DICTATION_BYTES, MAX_DICTATION_SECONDS } from "#app/components/speech/limits";
import { readBodyBytes } from "#app/utils/api-errors.server";
import { validateCsrfHeader } from "#app/utils/csrf-header.server";
import { getServices } from "#app/utils/services.server";
import { requireUser } from "#app/utils/session.server";

/**
 * POST /api/speech/transcribe (body: the recorded clip, X-CSRF-Token): the
 * dictated words, through the transcriber port (decision 144), for browsers
 * whose speech recognition is missing or has no service. At most a minute and
 * 2 MB. It stores nothing and changes nothing (so it is allowed while an
 * admin impersonates, like any read).
 */
export const bodyLimit = MAX_DICTATION_BYTES;

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  if (request.method !== "POST") return Response.json({ code: "METHOD", message: "Method not allowed" }, { status: 405 });
  try {
    await validateCsrfHeader(request);
    const clip = await readBodyBytes(request, MAX_DICTATION_BYTES, "A dictated question can be at most 2 MB of recording.");
    if (clip.length === 0) return Response.json({ code: "VALIDATION", message: "Nothing was recorded." }, { status: 400 });
    const { speechToText, speechLimiter } = await getServices();
    const decision = await speechLimiter.hit(`speech-dictation:${user.id}`, DICTATIONS_PER_MINUTE, 60_000);
    if (!decision.allowed) {
      const seconds = Math.ceil(decision.retryAfterMs / 1000);
      return Response.json({ code: "RATE_LIMITED", message: `Too many dictated questions at once; try again in ${seconds} s.` }, { status: 429, headers: { "Retry-After": String(seconds) } });
    }
    const type = (request.headers.get("Content-Type") ?? "audio/webm").split(";")[0]!;
    const { text } = await speechToText.transcribe(clip, type, { maxSeconds: MAX_DICTATION_SECONDS });
    return Response.json({ text });
  } catch (error) {
    if (error instanceof Error && (error as { userFacing?: boolean }).userFacing) {
      return Response.json({ code: "SPEECH_NOT_RECOGNISED", message: error.message }, { status: 422 });
    }
    return errorResponse(error);
  }
}
