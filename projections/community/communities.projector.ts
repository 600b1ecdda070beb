import type { RecordedEvent } from "#application/ports/event-store";
import type { Projector } from "#application/ports/projection";
import type { ReadModelStore } from "#application/ports/read-model-store";
import { readEvent } from "#domain/shared/event-schemas";
import { communityAggregate } from "#domain/community/community-events";
import type { CommunityRole, CommunityStatus, RemovalReason, Visibility } from "#domain/community/community";

/** A community as the lists and the detail page show it. */
export interface CommunityReadModel {
  id: string;
  name: string;
  nameLower: string;
  description: string;
  visibility: Visibility;
  status: CommunityStatus;
  creatorId: string;
  ownerId: string;
  resourceCount: number;
  createdAt: string;
  updatedAt: string;
}

/** A membership (`<communityId>:<userId>`): a role, or a join request waiting for a moderator. */
export interface MembershipReadModel {
  id: string;
  communityId: string;
  userId: string;
  role: CommunityRole | null;
  requested: boolean;
  since: string;
}

/** A document a community holds (`<communityId>:<documentId>`). */
export interface ResourceReadModel {
  id: string;
  communityId: string;
  documentId: string;
  name: string;
  contributorId: string;
  attachedAt: string;
}

export interface ReportReadModel {
  id: string;
  communityId: string;
  documentId: string;
  reporterId: string;
  reason: string;
  reportedAt: string;
}

/** What a contributor is told when a document of theirs left a community. */
export interface RemovalNoticeReadModel {
  id: string;
  contributorId: string;
  communityId: string;
  communityName: string;
  documentName: string;
  reason: RemovalReason;
  removedAt: string;
}

/** A contribution from the upload screen waiting for its document to become ACTIVE. */
export interface PlannedContributionReadModel {
  id: string;
  communityId: string;
  documentId: string;
  contributorId: string;
}

export const COMMUNITIES = "community_communities";
export const PLANNED = "community_planned_contributions";
export const MEMBERSHIPS = "community_memberships";
export const RESOURCES = "community_resources";
export const REPORTS = "community_reports";
export const REMOVALS = "community_removals";

const membershipId = (communityId: string, userId: string) => `${communityId}:${userId}`;
const resourceId = (communityId: string, documentId: string) => `${communityId}:${documentId}`;

export const communitiesProjector: Projector = {
  name: "community.communities",
  collections: [COMMUNITIES, MEMBERSHIPS, RESOURCES, REPORTS, REMOVALS, PLANNED],
  async setup(store: ReadModelStore) {
    await store.collection<CommunityReadModel>(COMMUNITIES).ensureIndex(["visibility", "status"]);
    await store.collection<MembershipReadModel>(MEMBERSHIPS).ensureIndex(["userId"]);
    await store.collection<MembershipReadModel>(MEMBERSHIPS).ensureIndex(["communityId"]);
    await store.collection<ResourceReadModel>(RESOURCES).ensureIndex(["communityId"]);
    await store.collection<ResourceReadModel>(RESOURCES).ensureIndex(["documentId"]);
    await store.collection<ReportReadModel>(REPORTS).ensureIndex(["communityId"]);
    await store.collection<RemovalNoticeReadModel>(REMOVALS).ensureIndex(["contributorId"]);
    await store.collection<PlannedContributionReadModel>(PLANNED).ensureIndex(["documentId"]);
  },
  async handle(recorded: RecordedEvent, store: ReadModelStore) {
    if (recorded.type === "AccountPurged" && recorded.streamId.startsWith("user-")) {
      // Memberships and contributions leave through community events (CommunityAccountPurge); the notices and reports were the person's own.
      const userId = recorded.streamId.slice("user-".length);
      await store.collection<RemovalNoticeReadModel>(REMOVALS).deleteMany({ contributorId: userId });
      await store.collection<ReportReadModel>(REPORTS).deleteMany({ reporterId: userId });
      return;
    }
    if (!recorded.streamId.startsWith("community-") || recorded.streamId.startsWith("community-name-")) return;
    const communityId = recorded.streamId.slice("community-".length);
    const communities = store.collection<CommunityReadModel>(COMMUNITIES);
    const memberships = store.collection<MembershipReadModel>(MEMBERSHIPS);
    const resources = store.collection<ResourceReadModel>(RESOURCES);
    const reports = store.collection<ReportReadModel>(REPORTS);
    const event = readEvent(communityAggregate.events, recorded);
    const at = recorded.recordedAt;
    const setRole = (userId: string, role: CommunityRole, since: string) =>
      memberships.upsert({ id: membershipId(communityId, userId), communityId, userId, role, requested: false, since });
    switch (event.type) {
      case "CommunityCreated": {
        const { name, description, visibility, creatorId, createdAt } = event.data;
        await communities.upsert({
          id: communityId,
          name,
          nameLower: name.toLowerCase(),
          description,
          visibility,
          status: "Active",
          creatorId,
          ownerId: creatorId,
          resourceCount: 0,
          createdAt,
          updatedAt: createdAt,
        });
        await setRole(creatorId, "OWNER", createdAt);
        return;
      }
      case "CommunitySettingsChanged":
        await communities.patch(communityId, { description: event.data.description, visibility: event.data.visibility, updatedAt: at });
        return;
      case "MemberJoined":
        await setRole(event.data.userId, "MEMBER", event.data.joinedAt);
        return;
      case "JoinRequested": {
        // A viewer someone added keeps their role while they wait.
        const row = await memberships.get(membershipId(communityId, event.data.userId));
        await memberships.upsert({
          id: membershipId(communityId, event.data.userId),
          communityId,
          userId: event.data.userId,
          role: row?.role ?? null,
          requested: true,
          since: row?.since ?? event.data.requestedAt,
        });
        return;
      }
      case "JoinApproved":
        await setRole(event.data.userId, "MEMBER", event.data.approvedAt);
        return;
      case "JoinDeclined": {
        const row = await memberships.get(membershipId(communityId, event.data.userId));
        if (row && row.role === null) await memberships.delete(row.id);
        else if (row) await memberships.patch(row.id, { requested: false });
        return;
      }
      case "MemberAdded":
        await setRole(event.data.userId, event.data.role, event.data.addedAt);
        return;
      case "MemberRoleChanged":
        await memberships.patch(membershipId(communityId, event.data.userId), { role: event.data.role });
        return;
      case "MemberRemoved":
      case "MemberLeft":
        await memberships.delete(membershipId(communityId, event.data.userId));
        return;
      case "OwnershipHandedOver": {
        await memberships.patch(membershipId(communityId, event.data.from), { role: "MODERATOR" });
        const heir = await memberships.get(membershipId(communityId, event.data.to));
        await setRole(event.data.to, "OWNER", heir?.since ?? event.data.handedOverAt);
        await communities.patch(communityId, { ownerId: event.data.to, updatedAt: at });
        return;
      }
      case "ContributionPlanned":
        await store.collection<PlannedContributionReadModel>(PLANNED).upsert({
          id: resourceId(communityId, event.data.documentId),
          communityId,
          documentId: event.data.documentId,
          contributorId: event.data.contributorId,
        });
        return;
      case "ResourceAttached": {
        const id = resourceId(communityId, event.data.documentId);
        await store.collection<PlannedContributionReadModel>(PLANNED).delete(id);
        const existed = await resources.get(id);
        await resources.upsert({
          id,
          communityId,
          documentId: event.data.documentId,
          name: event.data.personal?.name ?? "",
          contributorId: event.data.contributorId,
          attachedAt: event.data.attachedAt,
        });
        if (!existed) await recount(store, communityId, at);
        return;
      }
      case "ResourceReported":
        await reports.upsert({ id: event.data.reportId, communityId, ...pick(event.data) });
        return;
      case "ResourceRemoved": {
        const id = resourceId(communityId, event.data.documentId);
        const resource = await resources.get(id);
        await resources.delete(id);
        await reports.deleteMany({ communityId, documentId: event.data.documentId });
        await recount(store, communityId, at);
        // The contributor sees what a moderator removed (issue 17 item 5); their own withdrawals need no notice.
        if (resource && event.data.reason === "REMOVED_BY_MODERATOR") {
          const community = await communities.get(communityId);
          await store.collection<RemovalNoticeReadModel>(REMOVALS).upsert({
            id: `${communityId}:${event.data.documentId}:${event.data.removedAt}`,
            contributorId: event.data.contributorId,
            communityId,
            communityName: community?.name ?? "",
            documentName: resource.name,
            reason: event.data.reason,
            removedAt: event.data.removedAt,
          });
        }
        return;
      }
      case "CommunityArchived":
        await communities.patch(communityId, { status: "Archived", updatedAt: at });
        return;
      case "CommunityDeleted":
        // Nothing of a deleted community stays readable: no rows, so no grants.
        await communities.delete(communityId);
        await memberships.deleteMany({ communityId });
        await resources.deleteMany({ communityId });
        await reports.deleteMany({ communityId });
        await store.collection<PlannedContributionReadModel>(PLANNED).deleteMany({ communityId });
        return;
    }
  },
};

function pick(data: { documentId: string; reporterId: string; personal: { reason: string } | null; reportedAt: string }) {
  return { documentId: data.documentId, reporterId: data.reporterId, reason: data.personal?.reason ?? "", reportedAt: data.reportedAt };
}

async function recount(store: ReadModelStore, communityId: string, at: string) {
  const count = await store.collection<ResourceReadModel>(RESOURCES).count({ communityId });
  await store.collection<CommunityReadModel>(COMMUNITIES).patch(communityId, { resourceCount: count, updatedAt: at });
}
