import type { Decider, DomainEvent } from "#domain/shared/decider";
import { DomainError } from "#domain/shared/domain-error";

/**
 * A community (stream `community-<id>`): a shared library of documents with
 * roles (spec 001 §2, §3, §6; issue 17). Its name is reserved on its own
 * stream (community-name.ts) so two communities never share one, in any case.
 *
 * Roles: VIEWER may see and ask to join but never opens a resource; MEMBER
 * opens resources and contributes own documents; MODERATOR also removes
 * resources and members and approves joins; OWNER also changes settings,
 * deletes and hands the community over. Someone with no membership of a
 * PUBLIC community is a VIEWER; of a PRIVATE one, a stranger (it does not
 * exist for them). Name and description belong to the community, not to a
 * person, so they are not crypto-shredded; a resource's display name is its
 * contributor's personal data.
 */

export const COMMUNITY_ROLES = ["VIEWER", "MEMBER", "MODERATOR", "OWNER"] as const;
export type CommunityRole = (typeof COMMUNITY_ROLES)[number];
export const VISIBILITIES = ["PUBLIC", "PRIVATE"] as const;
export type Visibility = (typeof VISIBILITIES)[number];
export type CommunityStatus = "Active" | "Archived" | "Deleted";

export const COMMUNITY_NAME_MAX = 80;
export const COMMUNITY_DESCRIPTION_MAX = 1000;

/** Why a resource left: its contributor withdrew it, a moderator removed it, or its contributor's account was purged. */
export const REMOVAL_REASONS = ["WITHDRAWN", "REMOVED_BY_MODERATOR", "CONTRIBUTOR_DELETED", "DOCUMENT_DELETED"] as const;
export type RemovalReason = (typeof REMOVAL_REASONS)[number];

const RANK: Record<CommunityRole, number> = { VIEWER: 0, MEMBER: 1, MODERATOR: 2, OWNER: 3 };
export const roleAtLeast = (role: CommunityRole | null, least: CommunityRole) => role !== null && RANK[role] >= RANK[least];
/** VIEWER may only join; every other role opens resources (spec 001 §6). */
export const opensResources = (role: CommunityRole | null) => roleAtLeast(role, "MEMBER");

export interface Resource {
  documentId: string;
  contributorId: string;
  attachedAt: string;
}

export interface Report {
  reportId: string;
  documentId: string;
  reporterId: string;
  reportedAt: string;
}

export type CommunityState =
  | { status: "None" }
  | {
      status: CommunityStatus;
      communityId: string;
      name: string;
      description: string;
      visibility: Visibility;
      creatorId: string;
      members: Record<string, CommunityRole>;
      joinRequests: string[];
      resources: Record<string, Resource>;
      reports: Record<string, Report>;
      /** Documents their contributors shared from the upload screen, attached once they are ACTIVE. */
      pending: Record<string, string>;
    };
type Existing = Exclude<CommunityState, { status: "None" }>;

export type CommunityEvent =
  | DomainEvent<
      "CommunityCreated",
      { communityId: string; name: string; description: string; visibility: Visibility; creatorId: string; createdAt: string }
    >
  | DomainEvent<"CommunitySettingsChanged", { description: string; visibility: Visibility; changedBy: string; changedAt: string }>
  | DomainEvent<"MemberJoined", { userId: string; joinedAt: string }>
  | DomainEvent<"JoinRequested", { userId: string; requestedAt: string }>
  | DomainEvent<"JoinApproved", { userId: string; approvedBy: string; approvedAt: string }>
  | DomainEvent<"JoinDeclined", { userId: string; declinedBy: string; declinedAt: string }>
  | DomainEvent<"MemberAdded", { userId: string; role: CommunityRole; addedBy: string; addedAt: string }>
  | DomainEvent<"MemberRoleChanged", { userId: string; role: CommunityRole; changedBy: string; changedAt: string }>
  | DomainEvent<"MemberRemoved", { userId: string; removedBy: string; removedAt: string }>
  | DomainEvent<"MemberLeft", { userId: string; leftAt: string }>
  | DomainEvent<"OwnershipHandedOver", { from: string; to: string; handedOverAt: string }>
  | DomainEvent<
      "ResourceAttached",
      { documentId: string; contributorId: string; personal: { name: string } | null; attachedAt: string }
    >
  | DomainEvent<"ContributionPlanned", { documentId: string; contributorId: string; plannedAt: string }>
  | DomainEvent<"ResourceReported", { reportId: string; documentId: string; reporterId: string; personal: { reason: string } | null; reportedAt: string }>
  | DomainEvent<"ResourceRemoved", { documentId: string; contributorId: string; removedBy: string; reason: RemovalReason; removedAt: string }>
  | DomainEvent<"CommunityArchived", { reason: string; archivedAt: string }>
  | DomainEvent<"CommunityDeleted", { deletedBy: string; deletedAt: string }>;

export type CommunityCommand =
  | { type: "CreateCommunity"; communityId: string; name: string; description: string; visibility: Visibility; creatorId: string; now: Date }
  | { type: "ChangeSettings"; actorId: string; description: string; visibility: Visibility; now: Date }
  | { type: "Join"; userId: string; now: Date }
  | { type: "DecideJoin"; actorId: string; userId: string; approve: boolean; now: Date }
  | { type: "AddMember"; actorId: string; userId: string; role: CommunityRole; now: Date }
  | { type: "ChangeRole"; actorId: string; userId: string; role: CommunityRole; now: Date }
  | { type: "RemoveMember"; actorId: string; userId: string; now: Date }
  | { type: "Leave"; userId: string; now: Date }
  | { type: "HandOver"; actorId: string; to: string; now: Date }
  | { type: "AttachResources"; actorId: string; documents: { documentId: string; ownerId: string; name: string }[]; now: Date }
  /** Upload's share-with-community: the document is attached once ingestion made it ACTIVE (a reactor). */
  | { type: "PlanContribution"; actorId: string; documentId: string; ownerId: string; now: Date }
  | { type: "ReportResource"; actorId: string; reportId: string; documentId: string; reason: string; now: Date }
  | { type: "RemoveResource"; actorId: string; documentId: string; now: Date }
  /** The contributor's account was purged (or the document deleted): their resources leave. */
  | { type: "WithdrawContributions"; contributorId: string; documentIds?: string[]; reason: "CONTRIBUTOR_DELETED" | "DOCUMENT_DELETED"; now: Date }
  /** The owner's account was purged: the most senior moderator takes over, or the community is archived (decision 121). */
  | { type: "ReplaceDeletedOwner"; ownerId: string; now: Date }
  | { type: "DeleteCommunity"; actorId: string; now: Date };

export const communityStreamId = (communityId: string) => `community-${communityId}`;

export const COMMUNITY_NOT_FOUND = () => new DomainError("COMMUNITY_NOT_FOUND", "Community not found");
const forbidden = (message: string) => new DomainError("COMMUNITY_FORBIDDEN", message);

/** A user's role: their membership, else VIEWER of a public community, else none (a private community does not exist for them). */
export function roleOf(state: CommunityState, userId: string): CommunityRole | null {
  if (state.status === "None" || state.status === "Deleted") return null;
  return state.members[userId] ?? (state.visibility === "PUBLIC" || state.joinRequests.includes(userId) ? "VIEWER" : null);
}

function live(state: CommunityState, userId: string): Existing {
  if (state.status === "None" || state.status === "Deleted" || roleOf(state, userId) === null) throw COMMUNITY_NOT_FOUND();
  return state;
}

function active(state: CommunityState, userId: string): Existing {
  const community = live(state, userId);
  if (community.status === "Archived") throw new DomainError("COMMUNITY_ARCHIVED", "This community is archived.");
  return community;
}

function requireRole(state: Existing, userId: string, least: CommunityRole, message: string) {
  if (!roleAtLeast(roleOf(state, userId), least)) throw forbidden(message);
}

const iso = (now: Date) => now.toISOString();

function create(command: Extract<CommunityCommand, { type: "CreateCommunity" }>, state: CommunityState): CommunityEvent[] {
  if (state.status !== "None") return [];
  const { communityId, name, description, visibility, creatorId } = command;
  return [{ type: "CommunityCreated", data: { communityId, name, description, visibility, creatorId, createdAt: iso(command.now) } }];
}

function join(command: Extract<CommunityCommand, { type: "Join" }>, state: CommunityState): CommunityEvent[] {
  const community = active(state, command.userId);
  if (roleAtLeast(community.members[command.userId] ?? null, "MEMBER")) return [];
  if (community.visibility === "PUBLIC") return [{ type: "MemberJoined", data: { userId: command.userId, joinedAt: iso(command.now) } }];
  if (community.joinRequests.includes(command.userId)) return [];
  return [{ type: "JoinRequested", data: { userId: command.userId, requestedAt: iso(command.now) } }];
}

function decideJoin(command: Extract<CommunityCommand, { type: "DecideJoin" }>, state: CommunityState): CommunityEvent[] {
  const community = active(state, command.actorId);
  requireRole(community, command.actorId, "MODERATOR", "Only moderators approve joins.");
  if (!community.joinRequests.includes(command.userId)) return [];
  const at = iso(command.now);
  return command.approve
    ? [{ type: "JoinApproved", data: { userId: command.userId, approvedBy: command.actorId, approvedAt: at } }]
    : [{ type: "JoinDeclined", data: { userId: command.userId, declinedBy: command.actorId, declinedAt: at } }];
}

/** Only the owner names moderators or owners; moderators add viewers and members. */
function assignable(community: Existing, actorId: string, role: CommunityRole) {
  if (role === "OWNER") throw new DomainError("COMMUNITY_OWNER_ROLE", "Hand the community over to make someone its owner.");
  requireRole(community, actorId, role === "MODERATOR" ? "OWNER" : "MODERATOR", "You may not give this role.");
}

function addMember(command: Extract<CommunityCommand, { type: "AddMember" }>, state: CommunityState): CommunityEvent[] {
  const community = active(state, command.actorId);
  assignable(community, command.actorId, command.role);
  if (community.members[command.userId]) throw new DomainError("ALREADY_MEMBER", "This user is already a member.");
  return [{ type: "MemberAdded", data: { userId: command.userId, role: command.role, addedBy: command.actorId, addedAt: iso(command.now) } }];
}

function changeRole(command: Extract<CommunityCommand, { type: "ChangeRole" }>, state: CommunityState): CommunityEvent[] {
  const community = active(state, command.actorId);
  const current = community.members[command.userId];
  if (!current) throw new DomainError("MEMBER_NOT_FOUND", "This user is not a member.");
  if (current === command.role) return [];
  if (current === "OWNER") throw new DomainError("COMMUNITY_OWNER_ROLE", "Hand the community over to make someone its owner.");
  assignable(community, command.actorId, command.role);
  if (current === "MODERATOR") requireRole(community, command.actorId, "OWNER", "Only the owner changes a moderator's role.");
  return [{ type: "MemberRoleChanged", data: { userId: command.userId, role: command.role, changedBy: command.actorId, changedAt: iso(command.now) } }];
}

function removeMember(command: Extract<CommunityCommand, { type: "RemoveMember" }>, state: CommunityState): CommunityEvent[] {
  const community = active(state, command.actorId);
  requireRole(community, command.actorId, "MODERATOR", "Only moderators remove members.");
  const role = community.members[command.userId];
  if (!role) return [];
  if (role === "OWNER") throw new DomainError("COMMUNITY_OWNER_ROLE", "The owner cannot be removed.");
  if (role === "MODERATOR") requireRole(community, command.actorId, "OWNER", "Only the owner removes a moderator.");
  return [{ type: "MemberRemoved", data: { userId: command.userId, removedBy: command.actorId, removedAt: iso(command.now) } }];
}

function leave(command: Extract<CommunityCommand, { type: "Leave" }>, state: CommunityState): CommunityEvent[] {
  const community = live(state, command.userId);
  const role = community.members[command.userId];
  if (!role) return [];
  if (role === "OWNER") throw new DomainError("COMMUNITY_OWNER_LEAVING", "Hand the community over before you leave it.");
  return [{ type: "MemberLeft", data: { userId: command.userId, leftAt: iso(command.now) } }];
}

function handOver(command: Extract<CommunityCommand, { type: "HandOver" }>, state: CommunityState): CommunityEvent[] {
  const community = active(state, command.actorId);
  requireRole(community, command.actorId, "OWNER", "Only the owner hands the community over.");
  if (command.to === command.actorId) return [];
  if (!roleAtLeast(community.members[command.to] ?? null, "MEMBER")) throw new DomainError("MEMBER_NOT_FOUND", "Hand the community over to one of its members.");
  return [{ type: "OwnershipHandedOver", data: { from: command.actorId, to: command.to, handedOverAt: iso(command.now) } }];
}

function changeSettings(command: Extract<CommunityCommand, { type: "ChangeSettings" }>, state: CommunityState): CommunityEvent[] {
  const community = active(state, command.actorId);
  requireRole(community, command.actorId, "MODERATOR", "Only moderators and the owner change settings.");
  if (command.visibility !== community.visibility) requireRole(community, command.actorId, "OWNER", "Only the owner changes the visibility.");
  if (command.description === community.description && command.visibility === community.visibility) return [];
  return [
    {
      type: "CommunitySettingsChanged",
      data: { description: command.description, visibility: command.visibility, changedBy: command.actorId, changedAt: iso(command.now) },
    },
  ];
}

function attach(command: Extract<CommunityCommand, { type: "AttachResources" }>, state: CommunityState): CommunityEvent[] {
  const community = active(state, command.actorId);
  requireRole(community, command.actorId, "MEMBER", "Join the community to add files.");
  const events: CommunityEvent[] = [];
  for (const document of command.documents) {
    // Only one's own documents are contributed (the service looked them up as the actor's; this holds it here too).
    if (document.ownerId !== command.actorId) throw new DomainError("DOCUMENT_NOT_FOUND", "Document Not Found");
    if (community.resources[document.documentId]) continue;
    events.push({
      type: "ResourceAttached",
      data: { documentId: document.documentId, contributorId: command.actorId, personal: { name: document.name }, attachedAt: iso(command.now) },
    });
  }
  return events;
}

function planContribution(command: Extract<CommunityCommand, { type: "PlanContribution" }>, state: CommunityState): CommunityEvent[] {
  const community = active(state, command.actorId);
  requireRole(community, command.actorId, "MEMBER", "Join the community to add files.");
  if (command.ownerId !== command.actorId) throw new DomainError("DOCUMENT_NOT_FOUND", "Document Not Found");
  if (community.resources[command.documentId] || community.pending[command.documentId]) return [];
  return [{ type: "ContributionPlanned", data: { documentId: command.documentId, contributorId: command.actorId, plannedAt: iso(command.now) } }];
}

function report(command: Extract<CommunityCommand, { type: "ReportResource" }>, state: CommunityState): CommunityEvent[] {
  const community = active(state, command.actorId);
  requireRole(community, command.actorId, "MEMBER", "Join the community to report a document.");
  if (!community.resources[command.documentId]) throw new DomainError("RESOURCE_NOT_FOUND", "Document not found in this community.");
  if (Object.values(community.reports).some((r) => r.documentId === command.documentId && r.reporterId === command.actorId)) return [];
  const reason = command.reason.trim();
  if (!reason) throw new DomainError("VALIDATION", "Say why you report this document.", "reason");
  return [
    {
      type: "ResourceReported",
      // The reporter's words are theirs: sealed with their key, gone at their purge (decision 006).
      data: { reportId: command.reportId, documentId: command.documentId, reporterId: command.actorId, personal: { reason }, reportedAt: iso(command.now) },
    },
  ];
}

function removeResource(command: Extract<CommunityCommand, { type: "RemoveResource" }>, state: CommunityState): CommunityEvent[] {
  const community = live(state, command.actorId);
  const resource = community.resources[command.documentId];
  if (!resource || !roleAtLeast(roleOf(community, command.actorId), "MEMBER")) throw new DomainError("RESOURCE_NOT_FOUND", "Document not found in this community.");
  const own = resource.contributorId === command.actorId;
  if (!own) requireRole(community, command.actorId, "MODERATOR", "Only moderators remove other people's documents.");
  return [
    {
      type: "ResourceRemoved",
      data: {
        documentId: command.documentId,
        contributorId: resource.contributorId,
        removedBy: command.actorId,
        reason: own ? "WITHDRAWN" : "REMOVED_BY_MODERATOR",
        removedAt: iso(command.now),
      },
    },
  ];
}

function withdraw(command: Extract<CommunityCommand, { type: "WithdrawContributions" }>, state: CommunityState): CommunityEvent[] {
  if (state.status === "None") return [];
  return Object.values(state.resources)
    .filter((r) => r.contributorId === command.contributorId && (!command.documentIds || command.documentIds.includes(r.documentId)))
    .map((r) => ({
      type: "ResourceRemoved" as const,
      data: { documentId: r.documentId, contributorId: r.contributorId, removedBy: command.contributorId, reason: command.reason, removedAt: iso(command.now) },
    }));
}

function replaceDeletedOwner(command: Extract<CommunityCommand, { type: "ReplaceDeletedOwner" }>, state: CommunityState): CommunityEvent[] {
  if (state.status !== "Active" || state.members[command.ownerId] !== "OWNER") return [];
  // Members are kept in the order they became members: the longest-serving moderator takes over.
  const heir = Object.entries(state.members).find(([id, role]) => id !== command.ownerId && role === "MODERATOR")?.[0];
  const at = iso(command.now);
  if (heir) return [{ type: "OwnershipHandedOver", data: { from: command.ownerId, to: heir, handedOverAt: at } }];
  return [{ type: "CommunityArchived", data: { reason: "The owner's account was deleted and the community had no moderator.", archivedAt: at } }];
}

function remove(command: Extract<CommunityCommand, { type: "DeleteCommunity" }>, state: CommunityState): CommunityEvent[] {
  const community = live(state, command.actorId);
  requireRole(community, command.actorId, "OWNER", "Only the owner can delete the community.");
  return [{ type: "CommunityDeleted", data: { deletedBy: command.actorId, deletedAt: iso(command.now) } }];
}

export function decide(command: CommunityCommand, state: CommunityState): CommunityEvent[] {
  switch (command.type) {
    case "CreateCommunity":
      return create(command, state);
    case "ChangeSettings":
      return changeSettings(command, state);
    case "Join":
      return join(command, state);
    case "DecideJoin":
      return decideJoin(command, state);
    case "AddMember":
      return addMember(command, state);
    case "ChangeRole":
      return changeRole(command, state);
    case "RemoveMember":
      return removeMember(command, state);
    case "Leave":
      return leave(command, state);
    case "HandOver":
      return handOver(command, state);
    case "AttachResources":
      return attach(command, state);
    case "PlanContribution":
      return planContribution(command, state);
    case "ReportResource":
      return report(command, state);
    case "RemoveResource":
      return removeResource(command, state);
    case "WithdrawContributions":
      return withdraw(command, state);
    case "ReplaceDeletedOwner":
      return replaceDeletedOwner(command, state);
    case "DeleteCommunity":
      return remove(command, state);
  }
}

const without = <T>(record: Record<string, T>, key: string): Record<string, T> => {
  const { [key]: _gone, ...rest } = record;
  return rest;
};

export function evolve(state: CommunityState, event: CommunityEvent): CommunityState {
  if (event.type === "CommunityCreated") {
    const { communityId, name, description, visibility, creatorId } = event.data;
    return {
      status: "Active",
      communityId,
      name,
      description,
      visibility,
      creatorId,
      members: { [creatorId]: "OWNER" },
      joinRequests: [],
      resources: {},
      reports: {},
      pending: {},
    };
  }
  if (state.status === "None") return state;
  switch (event.type) {
    case "CommunitySettingsChanged":
      return { ...state, description: event.data.description, visibility: event.data.visibility };
    case "MemberJoined":
      return { ...state, members: { ...state.members, [event.data.userId]: "MEMBER" } };
    case "JoinRequested":
      return { ...state, joinRequests: [...state.joinRequests, event.data.userId] };
    case "JoinApproved":
      return {
        ...state,
        joinRequests: state.joinRequests.filter((id) => id !== event.data.userId),
        members: { ...state.members, [event.data.userId]: "MEMBER" },
      };
    case "JoinDeclined":
      return { ...state, joinRequests: state.joinRequests.filter((id) => id !== event.data.userId) };
    case "MemberAdded":
    case "MemberRoleChanged":
      return { ...state, members: { ...state.members, [event.data.userId]: event.data.role } };
    case "MemberRemoved":
    case "MemberLeft":
      return { ...state, members: without(state.members, event.data.userId) };
    case "OwnershipHandedOver": {
      const members = { ...state.members, [event.data.to]: "OWNER" as const };
      if (members[event.data.from] === "OWNER") members[event.data.from] = "MODERATOR";
      return { ...state, members };
    }
    case "ContributionPlanned":
      return { ...state, pending: { ...state.pending, [event.data.documentId]: event.data.contributorId } };
    case "ResourceAttached":
      return {
        ...state,
        pending: without(state.pending, event.data.documentId),
        resources: {
          ...state.resources,
          [event.data.documentId]: { documentId: event.data.documentId, contributorId: event.data.contributorId, attachedAt: event.data.attachedAt },
        },
      };
    case "ResourceReported":
      return {
        ...state,
        reports: {
          ...state.reports,
          [event.data.reportId]: { reportId: event.data.reportId, documentId: event.data.documentId, reporterId: event.data.reporterId, reportedAt: event.data.reportedAt },
        },
      };
    case "ResourceRemoved":
      return {
        ...state,
        resources: without(state.resources, event.data.documentId),
        reports: Object.fromEntries(Object.entries(state.reports).filter(([, r]) => r.documentId !== event.data.documentId)),
      };
    case "CommunityArchived":
      return { ...state, status: "Archived" };
    case "CommunityDeleted":
      return { ...state, status: "Deleted" };
  }
}

export const communityDecider: Decider<CommunityCommand, CommunityEvent, CommunityState> = {
  initialState: () => ({ status: "None" }),
  decide,
  evolve,
};
