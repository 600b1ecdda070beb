import { z } from "zod";
import { type AggregateDefinition, eventData, isoTime } from "#domain/shared/event-schemas";
import { type PageAllowanceCommand, type PageAllowanceEvent, type PageAllowanceState, pageAllowanceDecider, pageAllowanceStreamId } from "./page-allowance";

export const pageAllowanceAggregate: AggregateDefinition<PageAllowanceCommand, PageAllowanceEvent, PageAllowanceState> = {
  decider: pageAllowanceDecider,
  streamId: pageAllowanceStreamId,
  events: {
    PagesReserved: {
      version: 1,
      data: eventData({ documentId: z.string(), pages: z.number().int().min(0), limit: z.number().int().min(0).nullable(), reservedAt: isoTime }),
    },
    PagesReleased: { version: 1, data: eventData({ documentId: z.string(), releasedAt: isoTime }) },
  },
};
