import { data } from "@remix-run/node";
import { roleAtLeast } from "#domain/community/community";
import { isDomainError } from "#domain/shared/domain-error";
import { validateCsrf } from "#app/utils/csrf.server";
import { getRequestContext } from "#app/utils/request-context.server";
import { getServices } from "#app/utils/services.server";
import { requireUser, requireWritableUser } from "#app/utils/session.server";
import { communityServices, throwCommunityPageError } from "./community.server";

export type CommunityDetailAction = { ok: boolean; intent: string; message: string };

/**
 * The detail page: the community as the user may see it (a private one they do
 * not belong to is the 404 page), whether they have workspaces for 'Add to workspace' (its dialog pages through them), and
 * the Settings lists for moderators. 'Add New Files' fetches the user's documents
 * a page at a time once opened (GET /api/communities/{id}/documents_to_add).
 */
export async function loadCommunityDetail(request: Request, communityId: string) {
  const user = await requireUser(request);
  const q = (new URL(request.url).searchParams.get("q") ?? "").trim().slice(0, 200);
  const { communityQueries } = await communityServices();
  let community;
  try {
    community = await communityQueries.detail(user.id, communityId, q);
  } catch (error) {
    throwCommunityPageError(error);
  }
  const member = roleAtLeast(community.role, "MEMBER");
  const { workspaceQueries } = await getServices();
  // The dialog pages through the workspaces itself; the page only says whether there are any.
  const hasWorkspaces = member && (await workspaceQueries.list(user.id, { limit: 1 })).total > 0;
  const administration = roleAtLeast(community.role, "MODERATOR") ? await communityQueries.administration(user.id, communityId) : null;
  return { q, userId: user.id, community, hasWorkspaces, administration };
}

const text = (form: FormData, name: string) => {
  const value = form.get(name);
  return typeof value === "string" ? value : "";
};

/** Every change the detail page makes, by intent; refusals come back as messages (a foreign id stays "not found"). */
export async function communityDetailAction(request: Request, communityId: string) {
  const user = await requireWritableUser(request);
  const form = await request.formData();
  await validateCsrf(form, request);
  const intent = text(form, "intent");
  const ctx = getRequestContext(request, { actorId: user.id });
  const { communities } = await communityServices();
  const reply = (message: string) => data<CommunityDetailAction>({ ok: true, intent, message });
  try {
    switch (intent) {
      case "join": {
        const { role } = await communities.join(user.id, communityId, ctx);
        return reply(role === "VIEWER" ? "Your request to join was sent to the moderators." : "You joined the community.");
      }
      case "leave":
        await communities.leave(user.id, communityId, ctx);
        return reply("You left the community.");
      case "attach": {
        const ids = form.getAll("documentId").filter((v): v is string => typeof v === "string" && v.length > 0);
        await communities.attachResources(user.id, communityId, { resources: ids.map((id) => ({ id, type: "DOCUMENT" })) }, ctx);
        return reply(ids.length === 1 ? "File added to the community." : `${ids.length} files added to the community.`);
      }
      case "remove":
        await communities.removeResource(user.id, communityId, text(form, "resourceId"), ctx);
        return reply("Document removed from the community.");
      case "report":
        await communities.report(user.id, communityId, { documentId: text(form, "resourceId"), reason: text(form, "reason") }, ctx);
        return reply("Thank you. The moderators will look at it.");
      case "settings":
        await communities.changeSettings(user.id, communityId, { description: text(form, "description"), visibility: text(form, "visibility") }, ctx);
        return reply("Settings saved.");
      case "add-member":
        await communities.addMember(user.id, communityId, { username: text(form, "username"), role: text(form, "role") }, ctx);
        return reply("Member added.");
      case "change-role":
        await communities.changeRole(user.id, communityId, { userId: text(form, "userId"), role: text(form, "role") }, ctx);
        return reply("Role changed.");
      case "remove-member":
        await communities.removeMember(user.id, communityId, text(form, "userId"), ctx);
        return reply("Member removed.");
      case "approve":
      case "decline":
        await communities.decideJoin(user.id, communityId, text(form, "userId"), intent === "approve", ctx);
        return reply(intent === "approve" ? "Join request approved." : "Join request declined.");
      case "add-to-workspace": {
        const { workspaces } = await getServices();
        const [result] = await workspaces.attachDocuments(user.id, text(form, "workspaceId"), { documentIds: [text(form, "documentId")] }, ctx);
        if (result?.status !== "ATTACH_SUCCESS") {
          return data<CommunityDetailAction>({ ok: false, intent, message: `Failed to attach document: ${result?.reason ?? "Unknown reason"}` }, { status: 400 });
        }
        return reply("Added to your workspace.");
      }
      default:
        return data<CommunityDetailAction>({ ok: false, intent, message: "Unknown action" }, { status: 400 });
    }
  } catch (error) {
    if (!isDomainError(error)) throw error;
    return data<CommunityDetailAction>({ ok: false, intent, message: error.message }, { status: error.code.endsWith("NOT_FOUND") || error.code === "WORKSPACE_NOT_EXIST" ? 404 : 400 });
  }
}
