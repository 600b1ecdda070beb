import { z } from "zod";
import { type AggregateDefinition, eventData, isoTime, personal } from "#domain/shared/event-schemas";
import { type AdminRoleCommand, type AdminRoleEvent, type AdminRoleState, adminRoleDecider, administratorStreamId } from "./admin-role";
import {
  END_CAUSES,
  type ImpersonationCommand,
  type ImpersonationEvent,
  type ImpersonationState,
  impersonationDecider,
  impersonationStreamId,
  VIEWED_KINDS,
} from "./impersonation";

export const impersonationAggregate: AggregateDefinition<ImpersonationCommand, ImpersonationEvent, ImpersonationState> = {
  decider: impersonationDecider,
  streamId: impersonationStreamId,
  events: {
    ImpersonationStarted: {
      version: 1,
      data: eventData({
        impersonationId: z.string(),
        adminId: z.string(),
        userId: z.string(),
        startedAt: isoTime,
        deadline: isoTime,
        personal: personal({ reason: z.string(), userName: z.string() }),
      }),
    },
    ImpersonationViewed: {
      version: 1,
      data: eventData({ kind: z.enum(VIEWED_KINDS), resourceId: z.string(), viewedAt: isoTime, personal: personal({ title: z.string() }) }),
    },
    ImpersonationEnded: { version: 1, data: eventData({ cause: z.enum(END_CAUSES), endedById: z.string(), endedAt: isoTime }) },
  },
};

export const adminRoleAggregate: AggregateDefinition<AdminRoleCommand, AdminRoleEvent, AdminRoleState> = {
  decider: adminRoleDecider,
  streamId: administratorStreamId,
  events: {
    AdminRoleGranted: { version: 1, data: eventData({ userId: z.string(), grantedBy: z.string(), grantedAt: isoTime }) },
    AdminRoleRevoked: { version: 1, data: eventData({ userId: z.string(), revokedBy: z.string(), revokedAt: isoTime }) },
  },
};
