import type { ActionFunctionArgs } from "@remix-run/node";
import { errorResponse } from "#app/components/library/api.server";
import { FORM_TYPES } from "#app/utils/body-type.server";
import { validateCsrfHeader } from "#app/utils/csrf-header.server";
import { getServices } from "#app/utils/services.server";
import { requireUser } from "#app/utils/session.server";

export const SPEECH_NOT_CONFIGURED =
  "No cloud speech service is configured on this server. Read-aloud and dictation use your browser's speech where it has it, and the server's own voice and transcriber otherwise.";

/**
 * POST /profiles/auth {} → { access_token, region, expires_in } (spec 000 §6,
 * 001 §9: the speech token, 8 minutes): issued only when a cloud speech
 * service is configured (AZURE_SPEECH_KEY); otherwise 501 with a sentence
 * saying so — never a made-up token.
 */
/** The spec's client posts `{}` as JSON; a form is taken as well. */
export const bodyTypes = ["application/json", ...FORM_TYPES];

export async function action({ request }: ActionFunctionArgs) {
  await requireUser(request);
  if (request.method !== "POST") return Response.json({ code: "METHOD", message: "Method not allowed" }, { status: 405 });
  try {
    await validateCsrfHeader(request);
    const { speechTokens } = await getServices();
    if (!speechTokens) return Response.json({ code: "SPEECH_NOT_CONFIGURED", message: SPEECH_NOT_CONFIGURED }, { status: 501 });
    const token = await speechTokens.issue();
    return Response.json(
      { access_token: token.accessToken, region: token.region, expires_in: token.expiresInSeconds },
      { headers: { "Cache-Control": "no-store" } },
    );
  } catch (error) {
    if (error instanceof Error && (error as { userFacing?: boolean }).userFacing) return Response.json({ code: "SPEECH_UNAVAILABLE", message: error.message }, { status: 502 });
    return errorResponse(error);
  }
}

export async function loader() {
  return Response.json({ code: "METHOD", message: "Method not allowed" }, { status: 405 });
}
