import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { apiErrorResponse } from "#app/utils/api-errors.server";
import { validateCsrfHeader } from "#app/utils/csrf-header.server";
import { getRequestContext } from "#app/utils/request-context.server";
import { getServices } from "#app/utils/services.server";
import { requireUser, requireWritableUser } from "#app/utils/session.server";

/**
 * GET /api/resumes/{id}[?version=n] — the editable resume (status DRAFTING or
 * ACTIVE, polled until ACTIVE), the version asked for (newest by default) with
 * its LaTeX and source links, and the version list.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  try {
    const { resumeQueries } = await getServices();
    const resume = await resumeQueries.get(user.id, params.id ?? "");
    const versions = await resumeQueries.versions(user.id, resume.id);
    const asked = new URL(request.url).searchParams.get("version");
    const current = resume.status === "ACTIVE" ? await resumeQueries.version(user.id, resume.id, asked ? Number(asked) : undefined) : null;
    return Response.json(
      {
        resume: { id: resume.id, workspaceId: resume.workspaceId, status: resume.status, latestVersion: resume.latestVersion },
        current,
        versions: versions.map(({ version, origin, restoredFrom, author, savedAt }) => ({ version, origin, restoredFrom, author, savedAt })),
      },
      { headers: { "Cache-Control": "private, no-store" } },
    );
  } catch (error) {
    return apiErrorResponse(error);
  }
}

const RestoreBody = z.object({ intent: z.literal("restore"), version: z.number().int().positive() });

/** POST /api/resumes/{id} {intent: "restore", version} — the older version becomes the newest. */
export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireWritableUser(request);
  if (request.method !== "POST") return Response.json({ code: "METHOD", message: "Method not allowed" }, { status: 405 });
  try {
    await validateCsrfHeader(request);
    const parsed = RestoreBody.safeParse(await request.json().catch(() => null));
    if (!parsed.success) return Response.json({ code: "VALIDATION", message: "version is required" }, { status: 400 });
    const { resumes } = await getServices();
    return Response.json(await resumes.restore(user.id, params.id ?? "", parsed.data.version, getRequestContext(request, { actorId: user.id })));
  } catch (error) {
    return apiErrorResponse(error);
  }
}
