import type { ActionFunctionArgs } from "@remix-run/node";
import { workspaceErrorResponse } from "#app/components/workspace/api.server";
import { validateCsrfHeader } from "#app/utils/csrf-header.server";
import { getRequestContext } from "#app/utils/request-context.server";
import { getServices } from "#app/utils/services.server";
import { requireWritableUser } from "#app/utils/session.server";

/** POST /api/workspaces/{id}/attach {documentIds} → [{documentId, status, reason}] (spec 001 §7 attach_documents). */
export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireWritableUser(request);
  if (request.method !== "POST") return Response.json({ code: "METHOD", message: "Method not allowed" }, { status: 405 });
  try {
    await validateCsrfHeader(request);
    let body: unknown;
    try {
      body = await request.json();
    } catch {
      return Response.json({ code: "VALIDATION", message: "The request body is not valid JSON." }, { status: 400 });
    }
    const { workspaces } = await getServices();
    const results = await workspaces.attachDocuments(user.id, params.id ?? "", body, getRequestContext(request, { actorId: user.id }));
    return Response.json({ results });
  } catch (error) {
    return workspaceErrorResponse(error);
  }
}
