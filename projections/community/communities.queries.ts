import type { ReadModelStore } from "#application/ports/read-model-store";
import { opensResources } from "#domain/community/community";
import {
  COMMUNITIES,
  type CommunityReadModel,
  MEMBERSHIPS,
  type MembershipReadModel,
  PLANNED,
  type PlannedContributionReadModel,
  REMOVALS,
  type RemovalNoticeReadModel,
  REPORTS,
  type ReportReadModel,
  RESOURCES,
  type ResourceReadModel,
} from "./communities.projector";

/** The community context's read side: what other modules may read of the communities projection. */
export type { CommunityReadModel, MembershipReadModel, RemovalNoticeReadModel, ReportReadModel, ResourceReadModel } from "./communities.projector";

const communities = (store: ReadModelStore) => store.collection<CommunityReadModel>(COMMUNITIES);
const memberships = (store: ReadModelStore) => store.collection<MembershipReadModel>(MEMBERSHIPS);
const resources = (store: ReadModelStore) => store.collection<ResourceReadModel>(RESOURCES);

const newestFirst = [{ field: "createdAt" as const, direction: "desc" as const }];

/** Public communities, newest first, searched by part of the name. Private ones never appear here, whoever asks. */
export function publicCommunities(store: ReadModelStore, search = ""): Promise<CommunityReadModel[]> {
  const term = search.trim();
  return communities(store).find(
    term ? { visibility: "PUBLIC", nameLower: { $icontains: term.toLowerCase() } } : { visibility: "PUBLIC" },
    { sort: newestFirst },
  );
}

/** A user's memberships (with a role or a pending request). */
export function membershipsOf(store: ReadModelStore, userId: string): Promise<MembershipReadModel[]> {
  return memberships(store).find({ userId });
}

export async function membershipIn(store: ReadModelStore, communityId: string, userId: string): Promise<MembershipReadModel | null> {
  return memberships(store).get(`${communityId}:${userId}`);
}

export function membersOf(store: ReadModelStore, communityId: string): Promise<MembershipReadModel[]> {
  return memberships(store).find({ communityId }, { sort: [{ field: "since", direction: "asc" }] });
}

/** Communities the user belongs to (or asked to join), newest first, searched by part of the name. */
export async function communitiesOfMember(store: ReadModelStore, userId: string, search = ""): Promise<CommunityReadModel[]> {
  const ids = (await membershipsOf(store, userId)).map((m) => m.communityId);
  if (ids.length === 0) return [];
  const term = search.trim();
  return communities(store).find(term ? { id: { $in: ids }, nameLower: { $icontains: term.toLowerCase() } } : { id: { $in: ids } }, {
    sort: newestFirst,
  });
}

/** The row, whoever asks: callers decide visibility (see the community service). */
export function communityRow(store: ReadModelStore, communityId: string): Promise<CommunityReadModel | null> {
  return communities(store).get(communityId);
}

export function resourcesOf(store: ReadModelStore, communityId: string): Promise<ResourceReadModel[]> {
  return resources(store).find({ communityId }, { sort: [{ field: "attachedAt", direction: "desc" }] });
}

/** Of these documents, the ones the community holds. */
export async function heldAmong(store: ReadModelStore, communityId: string, documentIds: readonly string[]): Promise<Set<string>> {
  if (documentIds.length === 0) return new Set();
  const rows = await resources(store).find({ communityId, documentId: { $in: [...documentIds] } });
  return new Set(rows.map((r) => r.documentId));
}

/** Communities holding a document (a deleted document or a purged contributor withdraws it from each). */
export function holdersOf(store: ReadModelStore, documentId: string): Promise<ResourceReadModel[]> {
  return resources(store).find({ documentId });
}

export function reportsOf(store: ReadModelStore, communityId: string): Promise<ReportReadModel[]> {
  return store.collection<ReportReadModel>(REPORTS).find({ communityId }, { sort: [{ field: "reportedAt", direction: "desc" }] });
}

export function removalNoticesFor(store: ReadModelStore, contributorId: string): Promise<RemovalNoticeReadModel[]> {
  return store.collection<RemovalNoticeReadModel>(REMOVALS).find({ contributorId }, { sort: [{ field: "removedAt", direction: "desc" }] });
}

/**
 * Of these documents, those a community shares with the user: held right now
 * by a community in which the user's role opens resources (MEMBER and above;
 * a VIEWER never). The access policy asks this at the moment of each read, so
 * a removed resource or a member who left stops being reachable at once.
 */
export async function documentsSharedWith(store: ReadModelStore, userId: string, documentIds: readonly string[]): Promise<Set<string>> {
  if (documentIds.length === 0) return new Set();
  const opening = (await membershipsOf(store, userId)).filter((m) => opensResources(m.role)).map((m) => m.communityId);
  if (opening.length === 0) return new Set();
  const held = await resources(store).find({ communityId: { $in: opening }, documentId: { $in: [...new Set(documentIds)] } });
  return new Set(held.map((r) => r.documentId));
}

/** Communities waiting for this document to become ACTIVE (upload's share-with-community). */
export function plannedContributionsOf(store: ReadModelStore, documentId: string): Promise<PlannedContributionReadModel[]> {
  return store.collection<PlannedContributionReadModel>(PLANNED).find({ documentId });
}

/** Everything a person contributed, in any community (their account's purge withdraws it). */
export function contributionsOf(store: ReadModelStore, contributorId: string): Promise<ResourceReadModel[]> {
  return resources(store).find({ contributorId });
}
