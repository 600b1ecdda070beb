import { z } from "zod";
import { type AggregateDefinition, eventData, isoTime, personal } from "#domain/shared/event-schemas";
import { type ConversationCommand, type ConversationEvent, type ConversationState, conversationDecider, conversationStreamId } from "./conversation";

export const conversationAggregate: AggregateDefinition<ConversationCommand, ConversationEvent, ConversationState> = {
  decider: conversationDecider,
  streamId: conversationStreamId,
  events: {
    ConversationStarted: {
      version: 1,
      data: eventData({
        conversationId: z.string(),
        workspaceId: z.string(),
        ownerId: z.string(),
        startedAt: isoTime,
        personal: personal({ title: z.string() }),
      }),
    },
    ConversationRenamed: { version: 1, data: eventData({ personal: personal({ title: z.string() }), renamedAt: isoTime }) },
    ImageAttached: {
      version: 1,
      data: eventData({
        mediaId: z.string(),
        contentType: z.string(),
        size: z.number(),
        source: z.enum(["upload", "link"]),
        personal: personal({ link: z.string().nullable() }),
        attachedAt: isoTime,
      }),
    },
    QuestionAsked: {
      version: 1,
      data: eventData({
        messageId: z.string(),
        personal: personal({ text: z.string(), selectedText: z.string().nullable().default(null) }),
        // Questions asked before images and answer languages existed.
        mediaIds: z.array(z.string()).default([]),
        language: z.string().default("English"),
        askedAt: isoTime,
      }),
    },
    AnswerStarted: {
      version: 1,
      data: eventData({ messageId: z.string(), questionId: z.string(), model: z.string(), processId: z.string().optional(), startedAt: isoTime }),
    },
    AnswerCompleted: {
      version: 1,
      data: eventData({
        messageId: z.string(),
        // Each citation's quoted span is document text, so it is sealed with the answer (decision 075).
        personal: personal({ text: z.string(), quotes: z.array(z.string().nullable()).optional() }),
        citations: z.array(z.object({ documentId: z.string(), pageNumber: z.number() }).passthrough()).default([]),
        usage: z.object({ inputTokens: z.number(), outputTokens: z.number() }).default({ inputTokens: 0, outputTokens: 0 }),
        firstTokenMs: z.number().nullable().default(null),
        answeredBy: z.string().optional(),
        completedAt: isoTime,
      }),
    },
    AnswerInterrupted: {
      version: 1,
      data: eventData({ messageId: z.string(), personal: personal({ partialText: z.string() }), reason: z.string(), interruptedAt: isoTime }),
    },
    AnswerRated: { version: 1, data: eventData({ messageId: z.string(), rating: z.literal("false").nullable(), ratedAt: isoTime }) },
    ConversationDeleted: { version: 1, data: eventData({ deletedAt: isoTime }) },
  },
};
