import type { LoaderFunctionArgs } from "@remix-run/node";
import { errorResponse } from "#app/components/library/api.server";
import { MAX_SPOKEN_CHARS, VOICE_REQUESTS_PER_MINUTE } from "#app/components/speech/limits";
import { getServices } from "#app/utils/services.server";
import { requireUser } from "#app/utils/session.server";

/**
 * GET /api/speech/voice?text=…: the text spoken by the server's voice, as WAV
 * (decision 144), for read-aloud where the browser has no voice. Signed-in
 * users only; at most MAX_SPOKEN_CHARS characters (the browser sends a long
 * answer part by part). It changes nothing, so it is a GET the player can load.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const text = (new URL(request.url).searchParams.get("text") ?? "").replace(/\s+/g, " ").trim();
  if (!text) return Response.json({ code: "VALIDATION", message: "There is no text to read." }, { status: 400 });
  if (text.length > MAX_SPOKEN_CHARS) {
    return Response.json({ code: "TOO_LARGE", message: `The server's voice reads at most ${MAX_SPOKEN_CHARS} characters at a time.` }, { status: 413 });
  }
  try {
    const { voice, speechLimiter } = await getServices();
    const decision = await speechLimiter.hit(`speech-voice:${user.id}`, VOICE_REQUESTS_PER_MINUTE, 60_000);
    if (!decision.allowed) {
      const seconds = Math.ceil(decision.retryAfterMs / 1000);
      return Response.json({ code: "RATE_LIMITED", message: `Too much read aloud at once; try again in ${seconds} s.` }, { status: 429, headers: { "Retry-After": String(seconds) } });
    }
    const wav = await voice.synthesize(text);
    return new Response(new Uint8Array(wav), {
      status: 200,
      headers: {
        "Content-Type": "audio/wav",
        "Content-Length": String(wav.length),
        "Cache-Control": "private, no-store",
        "X-Content-Type-Options": "nosniff",
        "Content-Security-Policy": "default-src 'none'; sandbox",
      },
    });
  } catch (error) {
    if (error instanceof Error && (error as { userFacing?: boolean }).userFacing) {
      return Response.json({ code: "SYNTHESIS_FAILED", message: error.message }, { status: 503 });
    }
    return errorResponse(error);
  }
}
