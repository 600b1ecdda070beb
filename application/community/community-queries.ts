import { inject, injectable } from "inversify";
import { TOKENS } from "#application/tokens";
import type { ReadModelStore } from "#application/ports/read-model-store";
import { COMMUNITY_NOT_FOUND, type CommunityRole, opensResources, roleAtLeast } from "#domain/community/community";
import { resourceIdOf } from "#domain/community/community-rules";
import {
  type CommunityReadModel,
  communitiesOfMember,
  communityRow,
  heldAmong,
  membersOf,
  membershipIn,
  membershipsOf,
  publicCommunities,
  type RemovalNoticeReadModel,
  removalNoticesFor,
  reportsOf,
  resourcesOf,
} from "#projections/community/communities.queries";
import { userById } from "#projections/identity/users.queries";
import { type DocumentListOptions, listDocuments } from "#projections/library/documents.queries";
import { DomainError } from "#domain/shared/domain-error";

/** A row of the 'Public Communities' / 'My Communities' tables (spec 001 §2, §3). */
export interface CommunityListItem {
  communityId: string;
  communityName: string;
  creatorName: string;
  createdAt: string;
  updatedAt: string;
  status: string;
  visibility: CommunityReadModel["visibility"];
  role: CommunityRole;
  requested: boolean;
}

export interface CommunityResource {
  resourceId: string;
  documentId: string;
  resourceName: string;
  type: "DOCUMENT";
  attachedAt: string;
  contributorName: string;
  /** The viewer contributed it (may withdraw it). */
  own: boolean;
}

export interface CommunityDetail extends CommunityListItem {
  description: string;
  resources: CommunityResource[];
}

/** A row of 'Add New Files': one of the member's own ready documents. */
export interface DocumentToAdd {
  id: string;
  name: string;
  /** The community holds it already (shown as such, not offered again). */
  inCommunity: boolean;
}

export interface CommunityAdministration {
  members: { userId: string; name: string; role: CommunityRole }[];
  joinRequests: { userId: string; name: string; requestedAt: string }[];
  reports: { reportId: string; resourceId: string; resourceName: string; reporterName: string; reason: string; reportedAt: string }[];
}

/**
 * Reads of the community context. A private community exists only for its
 * members (and people who asked to join or were added as viewers): for anyone
 * else it answers COMMUNITY_NOT_FOUND, as a missing id does (never 403).
 */
@injectable()
export class CommunityQueries {
  constructor(@inject(TOKENS.ReadModelStore) private readonly store: ReadModelStore) {}

  async publicList(userId: string, search = ""): Promise<CommunityListItem[]> {
    const rows = await publicCommunities(this.store, search);
    const mine = new Map((await membershipsOf(this.store, userId)).map((m) => [m.communityId, m]));
    return Promise.all(rows.map((row) => this.item(row, mine.get(row.id)?.role ?? "VIEWER", mine.get(row.id)?.requested ?? false)));
  }

  async myList(userId: string, search = ""): Promise<CommunityListItem[]> {
    const rows = await communitiesOfMember(this.store, userId, search);
    const mine = new Map((await membershipsOf(this.store, userId)).map((m) => [m.communityId, m]));
    return Promise.all(rows.map((row) => this.item(row, mine.get(row.id)?.role ?? "VIEWER", mine.get(row.id)?.requested ?? false)));
  }

  /** Communities the user may contribute to (MEMBER and above): the upload screen's share-with-community choice. */
  async contributable(userId: string): Promise<CommunityListItem[]> {
    return (await this.myList(userId)).filter((c) => roleAtLeast(c.role, "MEMBER") && c.status === "Active");
  }

  /** The user's role in a community they may see; COMMUNITY_NOT_FOUND otherwise. */
  async roleIn(userId: string, communityId: string): Promise<{ community: CommunityReadModel; role: CommunityRole; requested: boolean }> {
    const community = await communityRow(this.store, communityId);
    const membership = community ? await membershipIn(this.store, communityId, userId) : null;
    if (!community || (community.visibility === "PRIVATE" && !membership)) throw COMMUNITY_NOT_FOUND();
    return { community, role: membership?.role ?? "VIEWER", requested: membership?.requested ?? false };
  }

  /** The detail page: resources searched by part of the name. */
  async detail(userId: string, communityId: string, search = ""): Promise<CommunityDetail> {
    const { community, role, requested } = await this.roleIn(userId, communityId);
    const term = search.trim().toLowerCase();
    const rows = (await resourcesOf(this.store, communityId)).filter((r) => !term || r.name.toLowerCase().includes(term));
    const names = new Map<string, string>();
    const resources = await Promise.all(
      rows.map(async (r) => ({
        resourceId: resourceIdOf(r.documentId),
        documentId: r.documentId,
        resourceName: r.name,
        type: "DOCUMENT" as const,
        attachedAt: r.attachedAt,
        contributorName: await this.nameOf(r.contributorId, names),
        own: r.contributorId === userId,
      })),
    );
    return { ...(await this.item(community, role, requested, names)), description: community.description, resources };
  }

  /**
   * 'Add New Files' (spec 001 §5), a page at a time: the member's own ready
   * documents, newest first, searched by part of the name, each marked when
   * this community holds it already. Only MEMBER and above add files.
   */
  async documentsToAdd(userId: string, communityId: string, page: Omit<DocumentListOptions, "status">): Promise<{ documents: DocumentToAdd[]; total: number }> {
    const { role } = await this.roleIn(userId, communityId);
    if (!roleAtLeast(role, "MEMBER")) throw new DomainError("COMMUNITY_FORBIDDEN", "Join the community to add files.");
    const { documents, total } = await listDocuments(this.store, userId, { ...page, status: "ACTIVE" });
    const held = await heldAmong(this.store, communityId, documents.map((d) => d.id));
    return { documents: documents.map((d) => ({ id: d.id, name: d.name, inCommunity: held.has(d.id) })), total };
  }

  /** Whether the user may open this community's document (the preview): MEMBER and above, and the community holds it. */
  async mayOpen(userId: string, communityId: string, documentId: string): Promise<boolean> {
    const { role } = await this.roleIn(userId, communityId);
    return opensResources(role) && (await resourcesOf(this.store, communityId)).some((r) => r.documentId === documentId);
  }

  /** The Settings dialog's lists: for moderators and the owner only. */
  async administration(userId: string, communityId: string): Promise<CommunityAdministration> {
    const { role } = await this.roleIn(userId, communityId);
    if (!roleAtLeast(role, "MODERATOR")) throw COMMUNITY_NOT_FOUND();
    const names = new Map<string, string>();
    const memberships = await membersOf(this.store, communityId);
    const resourceNames = new Map((await resourcesOf(this.store, communityId)).map((r) => [r.documentId, r.name]));
    return {
      members: await Promise.all(
        memberships.filter((m) => m.role !== null).map(async (m) => ({ userId: m.userId, name: await this.handleOf(m.userId), role: m.role as CommunityRole })),
      ),
      joinRequests: await Promise.all(
        memberships.filter((m) => m.requested).map(async (m) => ({ userId: m.userId, name: await this.handleOf(m.userId), requestedAt: m.since })),
      ),
      reports: await Promise.all(
        (await reportsOf(this.store, communityId)).map(async (r) => ({
          reportId: r.id,
          resourceId: resourceIdOf(r.documentId),
          resourceName: resourceNames.get(r.documentId) ?? "",
          reporterName: await this.nameOf(r.reporterId, names),
          reason: r.reason,
          reportedAt: r.reportedAt,
        })),
      ),
    };
  }

  /** What moderators removed of the user's contributions. */
  removalNotices(userId: string): Promise<RemovalNoticeReadModel[]> {
    return removalNoticesFor(this.store, userId);
  }

  private async item(row: CommunityReadModel, role: CommunityRole | null, requested: boolean, names = new Map<string, string>()): Promise<CommunityListItem> {
    return {
      communityId: row.id,
      communityName: row.name,
      creatorName: await this.nameOf(row.creatorId, names),
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
      status: row.status,
      visibility: row.visibility,
      role: role ?? "VIEWER",
      requested,
    };
  }

  /** Name and username, so a moderator tells two people of the same name apart. */
  private async handleOf(userId: string): Promise<string> {
    const user = await userById(this.store, userId);
    if (!user) return "Deleted user";
    const name = `${user.firstName} ${user.lastName}`.trim();
    return name ? `${name} (@${user.username})` : user.username;
  }

  /** A person's display name: first and last name, else username; a purged account reads "Deleted user". */
  private async nameOf(userId: string, cache: Map<string, string>): Promise<string> {
    const known = cache.get(userId);
    if (known !== undefined) return known;
    const user = await userById(this.store, userId);
    const name = user ? `${user.firstName} ${user.lastName}`.trim() || user.username : "Deleted user";
    cache.set(userId, name);
    return name;
  }
}
