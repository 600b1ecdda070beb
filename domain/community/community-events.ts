import { z } from "zod";
import { type AggregateDefinition, eventData, isoTime, personal } from "#domain/shared/event-schemas";
import {
  COMMUNITY_ROLES,
  type CommunityCommand,
  type CommunityEvent,
  type CommunityState,
  communityDecider,
  communityStreamId,
  REMOVAL_REASONS,
  VISIBILITIES,
} from "./community";
import {
  type CommunityNameCommand,
  type CommunityNameEvent,
  type CommunityNameState,
  communityNameDecider,
  communityNameStreamId,
} from "./community-name";

const role = z.enum(COMMUNITY_ROLES);
const visibility = z.enum(VISIBILITIES);

export const communityAggregate: AggregateDefinition<CommunityCommand, CommunityEvent, CommunityState> = {
  decider: communityDecider,
  streamId: communityStreamId,
  events: {
    CommunityCreated: {
      version: 1,
      data: eventData({
        communityId: z.string(),
        name: z.string(),
        description: z.string(),
        visibility,
        creatorId: z.string(),
        createdAt: isoTime,
      }),
    },
    CommunitySettingsChanged: { version: 1, data: eventData({ description: z.string(), visibility, changedBy: z.string(), changedAt: isoTime }) },
    MemberJoined: { version: 1, data: eventData({ userId: z.string(), joinedAt: isoTime }) },
    JoinRequested: { version: 1, data: eventData({ userId: z.string(), requestedAt: isoTime }) },
    JoinApproved: { version: 1, data: eventData({ userId: z.string(), approvedBy: z.string(), approvedAt: isoTime }) },
    JoinDeclined: { version: 1, data: eventData({ userId: z.string(), declinedBy: z.string(), declinedAt: isoTime }) },
    MemberAdded: { version: 1, data: eventData({ userId: z.string(), role, addedBy: z.string(), addedAt: isoTime }) },
    MemberRoleChanged: { version: 1, data: eventData({ userId: z.string(), role, changedBy: z.string(), changedAt: isoTime }) },
    MemberRemoved: { version: 1, data: eventData({ userId: z.string(), removedBy: z.string(), removedAt: isoTime }) },
    MemberLeft: { version: 1, data: eventData({ userId: z.string(), leftAt: isoTime }) },
    OwnershipHandedOver: { version: 1, data: eventData({ from: z.string(), to: z.string(), handedOverAt: isoTime }) },
    ResourceAttached: {
      version: 1,
      data: eventData({ documentId: z.string(), contributorId: z.string(), personal: personal({ name: z.string() }), attachedAt: isoTime }),
    },
    ContributionPlanned: { version: 1, data: eventData({ documentId: z.string(), contributorId: z.string(), plannedAt: isoTime }) },
    ResourceReported: {
      // Version 1 kept the reason in the clear; events are never rewritten, so it is lifted under `personal` as read.
      version: 2,
      data: eventData({ reportId: z.string(), documentId: z.string(), reporterId: z.string(), personal: personal({ reason: z.string() }), reportedAt: isoTime }),
      upcasters: { 1: ({ reason, ...rest }) => ({ ...rest, personal: { reason } }) },
    },
    ResourceRemoved: {
      version: 1,
      data: eventData({
        documentId: z.string(),
        contributorId: z.string(),
        removedBy: z.string(),
        reason: z.enum(REMOVAL_REASONS),
        removedAt: isoTime,
      }),
    },
    CommunityArchived: { version: 1, data: eventData({ reason: z.string(), archivedAt: isoTime }) },
    CommunityDeleted: { version: 1, data: eventData({ deletedBy: z.string(), deletedAt: isoTime }) },
  },
};

export const communityNameAggregate: AggregateDefinition<CommunityNameCommand, CommunityNameEvent, CommunityNameState> = {
  decider: communityNameDecider,
  streamId: communityNameStreamId,
  events: {
    CommunityNameReserved: { version: 1, data: eventData({ communityId: z.string(), reservedAt: isoTime }) },
    CommunityNameReleased: { version: 1, data: eventData({ communityId: z.string(), releasedAt: isoTime }) },
  },
};
