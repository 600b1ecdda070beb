import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { compiledResponse } from "#app/components/resume/compiled-response.server";
import { apiErrorResponse } from "#app/utils/api-errors.server";
import { validateCsrfHeader } from "#app/utils/csrf-header.server";
import { getServices } from "#app/utils/services.server";
import { requireUser } from "#app/utils/session.server";

/** A resume of MAX_RESUME_BYTES, escaped as JSON (the compile itself refuses more than 512 KB). */
export const bodyLimit = 2 * 1024 * 1024;
const ConvertBody = z.object({ content: z.string().min(1, "content is required") });

/**
 * POST /api/convert {content} (spec 001 §7): compiles LaTeX in the sandbox as a
 * background job (the answer: `compiledResponse`). Compiling changes nothing
 * and keeps nothing, so an impersonating admin may preview the chat's LaTeX too
 * (session.server.ts lets this post through).
 */
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  if (request.method !== "POST") return Response.json({ code: "METHOD", message: "Method not allowed" }, { status: 405 });
  try {
    await validateCsrfHeader(request);
    const parsed = ConvertBody.safeParse(await request.json().catch(() => null));
    if (!parsed.success) return Response.json({ code: "VALIDATION", message: "content is required" }, { status: 400 });
    const { latexCompilation } = await getServices();
    return compiledResponse(await latexCompilation.compile(user.id, parsed.data.content));
  } catch (error) {
    return apiErrorResponse(error);
  }
}
