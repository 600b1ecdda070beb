import type { LoaderFunctionArgs } from "@remix-run/node";
import { errorResponse } from "#app/components/library/api.server";
import { MAX_SPOKEN_CHARS } from "#app/components/speech/limits";
import { getServices } from "#app/utils/services.server";
import { requireUser } from "#app/utils/session.server";

/**
 * GET /api/speech/voice?text=…: the text spoken by the server's voice, as WAV
 * (decision 144), for read-aloud where the browser has no voice. Signed-in
 * users only; at most MAX_SPOKEN_CHARS characters (the browser sends a long
 * answer part by part). It changes nothing, so it is a GET the player can load.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  const text = (new URL(request.url).searchParams.get("text") ?? "").replace(/\s+/g, " ").trim();
  if (!text) return Response.json({ code: "VALIDATION", message: "There is no text to read." }, { status: 400 });
  if (text.length > MAX_SPOKEN_CHARS) {
    return Response.json({ code: "TOO_LARGE", message: `The server's voice reads at most ${MAX_SPOKEN_CHARS} characters at a time.` }, { status: 413 });
  }
  try {
    const { voice } = await getServices();
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
