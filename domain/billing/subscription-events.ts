import { z } from "zod";
import { type AggregateDefinition, eventData, isoTime } from "#domain/shared/event-schemas";
import { PLAN_IDS } from "./plans";
import { type SubscriptionCommand, type SubscriptionEvent, type SubscriptionState, subscriptionDecider, subscriptionStreamId } from "./subscription";

export const subscriptionAggregate: AggregateDefinition<SubscriptionCommand, SubscriptionEvent, SubscriptionState> = {
  decider: subscriptionDecider,
  streamId: subscriptionStreamId,
  events: {
    PeriodPrepaid: {
      version: 1,
      data: eventData({ orderId: z.string().min(1), planId: z.enum(PLAN_IDS), startsAt: isoTime, endsAt: isoTime, prepaidAt: isoTime }),
    },
  },
};
