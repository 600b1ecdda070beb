import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiErrorResponse } from "#app/utils/api-errors.server";
import { getServices } from "#app/utils/services.server";
import { requireUser } from "#app/utils/session.server";

/** GET /api/resumes/{id}/pdf[?version=n] — Download PDF: the version compiled in the sandbox, as an attachment. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  try {
    const { resumeQueries, latexCompilation } = await getServices();
    const asked = new URL(request.url).searchParams.get("version");
    const version = await resumeQueries.version(user.id, params.id ?? "", asked ? Number(asked) : undefined);
    // The user asked for this file: it waits for a slot behind the preview's compiles rather than answering 429.
    const compiled = await latexCompilation.compile(user.id, version.latex, { waitForSlot: true });
    if (!compiled.ok) return Response.json({ code: compiled.error.code, message: compiled.error.message }, { status: 422 });
    return new Response(new Uint8Array(compiled.pdf), {
      headers: {
        "Content-Type": "application/pdf",
        "Content-Disposition": `attachment; filename="resume-v${version.version}.pdf"`,
        "Cache-Control": "private, no-store",
        "X-Content-Type-Options": "nosniff",
      },
    });
  } catch (error) {
    return apiErrorResponse(error);
  }
}
