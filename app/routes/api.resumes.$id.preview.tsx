import type { LoaderFunctionArgs } from "@remix-run/node";
import { recordViewWhileImpersonating } from "#app/components/administration/record-view.server";
import { compiledResponse } from "#app/components/resume/compiled-response.server";
import { apiErrorResponse } from "#app/utils/api-errors.server";
import { getServices } from "#app/utils/services.server";
import { requireUser } from "#app/utils/session.server";

/**
 * GET /api/resumes/{id}/preview[?version=n] — a saved version compiled for
 * viewing (the newest by default), answered like /api/convert. The server
 * compiles what it stores, so reading it is a read: an impersonating admin
 * sees the preview, and the view is recorded on the impersonation.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  try {
    const { resumeQueries, workspaceQueries, latexCompilation } = await getServices();
    const asked = new URL(request.url).searchParams.get("version");
    const resume = await resumeQueries.get(user.id, params.id ?? "");
    const version = await resumeQueries.version(user.id, resume.id, asked ? Number(asked) : undefined);
    // Titled by its workspace, as the Resume Builder shows it; looked up only while impersonating.
    if (user.impersonation) await recordViewWhileImpersonating(request, user, "resume", resume.id, (await workspaceQueries.get(user.id, resume.workspaceId)).name);
    return compiledResponse(await latexCompilation.compile(user.id, version.latex));
  } catch (error) {
    return apiErrorResponse(error);
  }
}
