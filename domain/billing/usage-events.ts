import { z } from "zod";
import { type AggregateDefinition, eventData, isoTime } from "#domain/shared/event-schemas";
import { USAGE_COUNTERS } from "./plans";
import { type UsageCommand, type UsageEvent, type UsageState, usageDecider, usageStreamId } from "./usage";

const counter = z.enum(USAGE_COUNTERS);
const limit = z.number().int().min(0).nullable();

export const usageAggregate: AggregateDefinition<UsageCommand, UsageEvent, UsageState> = {
  decider: usageDecider,
  streamId: usageStreamId,
  events: {
    UsageReserved: {
      version: 1,
      data: eventData({
        counter,
        key: z.string().min(1),
        amount: z.number().int().min(0),
        day: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
        limits: z.object({ daily: limit, monthly: limit }),
        reservedAt: isoTime,
      }),
    },
    UsageReleased: { version: 1, data: eventData({ counter, key: z.string().min(1), releasedAt: isoTime }) },
  },
};
