import { data } from "@remix-run/node";
import type { CommunityListItem } from "#application/community/community-queries";
import { validateCsrf } from "#app/utils/csrf.server";
import { getRequestContext } from "#app/utils/request-context.server";
import { requireUser, requireWritableUser } from "#app/utils/session.server";
import { isDomainError } from "#domain/shared/domain-error";
import { communityServices } from "./community.server";

export type CommunityListKind = "public" | "mine";
export type CommunityListAction = { ok: boolean; message: string; intent: "create" | "delete"; communityId?: string; field?: string };

/** 'Public Communities' / 'My Communities' (spec 001 §2): the rows, or the server's message when the load failed (GET_COMMUNITY_FAILURE). */
export async function loadCommunityList(request: Request, kind: CommunityListKind) {
  const user = await requireUser(request);
  const q = (new URL(request.url).searchParams.get("q") ?? "").trim().slice(0, 200);
  const { communityQueries } = await communityServices();
  try {
    const communities = kind === "public" ? await communityQueries.publicList(user.id, q) : await communityQueries.myList(user.id, q);
    const notices = kind === "mine" ? await communityQueries.removalNotices(user.id) : [];
    return { q, communities, notices, loadError: null as string | null };
  } catch (error) {
    if (isDomainError(error)) return { q, communities: [] as CommunityListItem[], notices: [], loadError: error.message };
    throw error;
  }
}

/** Create New (intent=create) and delete selected (intent=delete): only an owner's communities are deleted. */
export async function communityListAction(request: Request) {
  const user = await requireWritableUser(request);
  const form = await request.formData();
  await validateCsrf(form, request);
  const ctx = getRequestContext(request, { actorId: user.id });
  const { communities } = await communityServices();
  const intent = form.get("intent") === "delete" ? "delete" : "create";
  try {
    if (intent === "delete") {
      const ids = form.getAll("id").filter((v): v is string => typeof v === "string" && v.length > 0);
      if (ids.length === 0) return data<CommunityListAction>({ ok: false, intent, message: "Select at least one community." }, { status: 400 });
      await communities.delete(user.id, ids, ctx);
      return data<CommunityListAction>({ ok: true, intent, message: ids.length === 1 ? "Community deleted" : `${ids.length} communities deleted` });
    }
    const { communityId } = await communities.create(
      user.id,
      { communityName: form.get("communityName"), communityDescription: form.get("communityDescription"), visibility: form.get("visibility") ?? "PUBLIC" },
      ctx,
    );
    return data<CommunityListAction>({ ok: true, intent, message: "Community created", communityId });
  } catch (error) {
    if (!isDomainError(error)) throw error;
    const message = error.code === "COMMUNITY_NOT_FOUND" && intent === "delete" ? "Only a community's owner can delete it." : error.message;
    return data<CommunityListAction>({ ok: false, intent, message, field: error.field }, { status: error.code === "COMMUNITY_NOT_FOUND" ? 404 : 400 });
  }
}
