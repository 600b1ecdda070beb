import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { apiErrorResponse, readJsonBody } from "#app/utils/api-errors.server";
import { validateCsrfHeader } from "#app/utils/csrf-header.server";
import { getRequestContext } from "#app/utils/request-context.server";
import { getServices } from "#app/utils/services.server";
import { requireUser, requireWritableUser } from "#app/utils/session.server";

const createSchema = z.object({ workspace_id: z.string().min(1).max(64) });

/** GET /api/conversations?workspace_id= — the workspace's chats, newest first (POST /conversations/search in the spec). */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  try {
    const workspaceId = new URL(request.url).searchParams.get("workspace_id") ?? "";
    const { workspaceQueries, conversations } = await getServices();
    await workspaceQueries.get(user.id, workspaceId);
    return Response.json({ conversations: await conversations.listForWorkspace(user.id, workspaceId) }, { headers: { "Cache-Control": "private, no-store" } });
  } catch (error) {
    return apiErrorResponse(error);
  }
}

/** POST /api/conversations {workspace_id} — 'New Chat'. */
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireWritableUser(request);
  try {
    await validateCsrfHeader(request);
    const parsed = createSchema.safeParse(await readJsonBody(request));
    if (!parsed.success) return Response.json({ code: "CONVERSATION_CREATION_FAILURE", message: "Choose a workspace first." }, { status: 400 });
    const { conversations } = await getServices();
    const created = await conversations.create(user.id, parsed.data.workspace_id, getRequestContext(request, { actorId: user.id, impersonatorId: user.impersonatorId }));
    return Response.json({ conversation_id: created.conversationId }, { status: 201 });
  } catch (error) {
    return apiErrorResponse(error);
  }
}
