import type { ActionFunctionArgs } from "@remix-run/node";
import { workspaceErrorResponse } from "#app/components/workspace/api.server";
import { FORM_TYPES } from "#app/utils/body-type.server";
import { validateCsrf } from "#app/utils/csrf.server";
import { validateCsrfHeader } from "#app/utils/csrf-header.server";
import { getRequestContext } from "#app/utils/request-context.server";
import { getServices } from "#app/utils/services.server";
import { requireWritableUser } from "#app/utils/session.server";

/**
 * POST /api/workspaces/{id}/session — what the user had open when leaving
 * (spec 001 §4). Sent with navigator.sendBeacon (a form with the `csrf` field,
 * since a beacon cannot carry headers) or fetch keepalive (JSON + X-CSRF-Token).
 */
/** A beacon's form or a fetch's JSON; anything else is refused before the action (docs/decisions/270). */
export const bodyTypes = [...FORM_TYPES, "application/json"];

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireWritableUser(request);
  if (request.method !== "POST") return Response.json({ code: "METHOD", message: "Method not allowed" }, { status: 405 });
  try {
    let input: unknown;
    const contentType = request.headers.get("Content-Type") ?? "";
    if (contentType.includes("application/json")) {
      await validateCsrfHeader(request);
      try {
        input = await request.json();
      } catch {
        return Response.json({ code: "VALIDATION", message: "The request body is not valid JSON." }, { status: 400 });
      }
    } else {
      const form = await request.formData();
      await validateCsrf(form, request);
      let activeFileIds: unknown = [];
      try {
        activeFileIds = JSON.parse(String(form.get("activeFileIds") ?? "[]"));
      } catch {
        activeFileIds = null;
      }
      const text = (name: string) => {
        const value = form.get(name);
        return typeof value === "string" && value.length > 0 ? value : null;
      };
      input = { activeFileIds, openFileId: text("openFileId"), activeConversationId: text("activeConversationId") };
    }
    const { workspaces } = await getServices();
    await workspaces.saveSession(user.id, params.id ?? "", input, getRequestContext(request, { actorId: user.id }));
    return Response.json({ ok: true });
  } catch (error) {
    if (error instanceof Response && error.status === 403 && !(error.headers.get("Content-Type") ?? "").includes("json")) {
      return Response.json({ code: "CSRF", message: "Your request could not be verified. Reload the page and try again." }, { status: 403 });
    }
    return workspaceErrorResponse(error);
  }
}
