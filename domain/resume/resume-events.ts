import { z } from "zod";
import { type AggregateDefinition, eventData, isoTime, personal } from "#domain/shared/event-schemas";
import { RESUME_ORIGINS, type ResumeCommand, type ResumeEvent, type ResumeState, resumeDecider, resumeStreamId } from "./resume";

const sourceLink = z.object({ line: z.number().int(), documentId: z.string(), pageNumber: z.number().int(), quote: z.string() });

export const resumeAggregate: AggregateDefinition<ResumeCommand, ResumeEvent, ResumeState> = {
  decider: resumeDecider,
  streamId: resumeStreamId,
  events: {
    ResumeStarted: { version: 1, data: eventData({ resumeId: z.string(), workspaceId: z.string(), ownerId: z.string(), startedAt: isoTime }) },
    ResumeVersionSaved: {
      version: 1,
      data: eventData({
        version: z.number().int().positive(),
        origin: z.enum(RESUME_ORIGINS),
        restoredFrom: z.number().int().nullable(),
        author: z.string(),
        personal: personal({ latex: z.string(), sources: z.array(sourceLink) }),
        savedAt: isoTime,
      }),
    },
    ResumeRepairAttempted: {
      // Version 1 kept the compiler's message in the clear; lifted under `personal` as read.
      version: 2,
      data: eventData({ attempt: z.number().int(), personal: personal({ error: z.string() }), fixed: z.boolean(), author: z.string(), attemptedAt: isoTime }),
      upcasters: { 1: ({ error, ...rest }) => ({ ...rest, personal: { error } }) },
    },
  },
};
