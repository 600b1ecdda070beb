import type { ActionFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { apiErrorResponse } from "#app/utils/api-errors.server";
import { validateCsrfHeader } from "#app/utils/csrf-header.server";
import { getServices } from "#app/utils/services.server";
import { requireUser } from "#app/utils/session.server";

/** A resume of MAX_RESUME_BYTES, escaped as JSON (the compile itself refuses more than 512 KB). */
export const bodyLimit = 2 * 1024 * 1024;
const ConvertBody = z.object({ content: z.string().min(1, "content is required") });

/**
 * POST /api/convert {content} (spec 001 §7): compiles LaTeX in the sandbox as a
 * background job. 200 {content: first page's SVG, pages: every page's SVG,
 * page_count}; 422 {error: {code, message, line}} when it does not compile.
 * Compiling changes nothing, so an impersonating admin may preview too.
 */
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  if (request.method !== "POST") return Response.json({ code: "METHOD", message: "Method not allowed" }, { status: 405 });
  try {
    await validateCsrfHeader(request);
    const parsed = ConvertBody.safeParse(await request.json().catch(() => null));
    if (!parsed.success) return Response.json({ code: "VALIDATION", message: "content is required" }, { status: 400 });
    const { latexCompilation } = await getServices();
    const compiled = await latexCompilation.compile(user.id, parsed.data.content);
    const headers = { "Cache-Control": "private, no-store" };
    if (!compiled.ok) {
      const { code, message, line } = compiled.error;
      return Response.json({ error: { code, message, line } }, { status: 422, headers });
    }
    return Response.json({ content: compiled.svgPages[0], pages: compiled.svgPages, page_count: compiled.pageCount }, { headers });
  } catch (error) {
    return apiErrorResponse(error);
  }
}
