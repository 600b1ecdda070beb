import { recordViewWhileImpersonating } from "#app/components/administration/record-view.server";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { launchProgress, toSummary, workspaceErrorResponse } from "#app/components/workspace/api.server";
import { validateCsrfHeader } from "#app/utils/csrf-header.server";
import { getRequestContext } from "#app/utils/request-context.server";
import { getServices } from "#app/utils/services.server";
import { requireUser, requireWritableUser } from "#app/utils/session.server";

/**
 * GET /api/workspaces/{id} — the owner's workspace (status, documents) and the
 * launch workflow's progress (the launch screen polls it).
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  try {
    const { workspaceQueries } = await getServices();
    const ws = await workspaceQueries.get(user.id, params.id ?? "");
    await recordViewWhileImpersonating(request, user, "workspace", ws.id, ws.name);
    return Response.json(
      {
        workspace: { ...toSummary(ws), document_ids: ws.documentIds, documents: ws.documents, session: ws.session },
        progress: await launchProgress(ws),
      },
      { headers: { "Cache-Control": "private, no-store" } },
    );
  } catch (error) {
    return workspaceErrorResponse(error);
  }
}

/** DELETE /api/workspaces/{id} with the X-CSRF-Token header. */
export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireWritableUser(request);
  if (request.method !== "DELETE") return Response.json({ code: "METHOD", message: "Method not allowed" }, { status: 405 });
  try {
    await validateCsrfHeader(request);
    const { workspaces } = await getServices();
    await workspaces.delete(user.id, [params.id ?? ""], getRequestContext(request, { actorId: user.id }));
    return Response.json({ ok: true, message: "Workspace deleted" });
  } catch (error) {
    return workspaceErrorResponse(error);
  }
}
