import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiErrorResponse } from "#app/utils/api-errors.server";
import { validateCsrfHeader } from "#app/utils/csrf-header.server";
import { getRequestContext } from "#app/utils/request-context.server";
import { recordViewWhileImpersonating } from "#app/components/administration/record-view.server";
import { getServices } from "#app/utils/services.server";
import { requireUser, requireWritableUser } from "#app/utils/session.server";

/** GET /api/conversations/{id} — the conversation with its messages (versions of an answer share question_id). */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  try {
    const { conversations } = await getServices();
    const opened = await conversations.get(user.id, params.id ?? "");
    await recordViewWhileImpersonating(request, user, "conversation", opened.conversation.id, opened.conversation.title || "New Chat");
    return Response.json(opened, { headers: { "Cache-Control": "private, no-store" } });
  } catch (error) {
    return apiErrorResponse(error);
  }
}

/** DELETE /api/conversations/{id}. */
export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireWritableUser(request);
  if (request.method !== "DELETE") return Response.json({ code: "METHOD", message: "Method not allowed" }, { status: 405 });
  try {
    await validateCsrfHeader(request);
    const { conversations } = await getServices();
    await conversations.delete(user.id, params.id ?? "", getRequestContext(request, { actorId: user.id, impersonatorId: user.impersonatorId }));
    return Response.json({ message: "Conversation deleted" });
  } catch (error) {
    return apiErrorResponse(error);
  }
}
