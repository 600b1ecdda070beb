import { z } from "zod";
import { type AggregateDefinition, eventData, type EventSchemas, isoTime, personal } from "#domain/shared/event-schemas";
import { type ChatLayout, type ChatLayoutCommand, type ChatLayoutEvent, chatLayoutDecider, chatLayoutStreamId, DEFAULT_CHAT_LAYOUT, FONT_SIZES } from "./chat-layout";
import {
  type KeysetCommand,
  type KeysetEvent,
  type KeysetState,
  keysetDecider,
  keysetStreamId,
  MODEL_SCOPES,
  type ModelDefaultsCommand,
  type ModelDefaultsEvent,
  type ModelDefaultsState,
  modelDefaultsDecider,
  modelDefaultsStreamId,
  PROVIDER_NAMES,
  type Provider,
} from "./keyset";
import { type ReservationCommand, type ReservationEvent, type ReservationState, reservationDecider } from "./reservation";

const keysetPersonal = personal({ name: z.string(), sealedKey: z.string() });

export const keysetAggregate: AggregateDefinition<KeysetCommand, KeysetEvent, KeysetState> = {
  decider: keysetDecider,
  streamId: keysetStreamId,
  events: {
    KeysetAdded: {
      version: 1,
      data: eventData({
        keysetId: z.string(),
        ownerId: z.string(),
        provider: z.enum(PROVIDER_NAMES as [Provider, ...Provider[]]),
        subProvider: z.string(),
        endpoint: z.string().nullable().default(null),
        model: z.string().nullable().default(null),
        models: z.array(z.string()).default([]),
        personal: keysetPersonal,
        addedAt: isoTime,
      }),
    },
    KeysetEdited: {
      version: 1,
      data: eventData({
        endpoint: z.string().nullable().default(null),
        model: z.string().nullable().default(null),
        models: z.array(z.string()).default([]),
        personal: keysetPersonal,
        keyReplaced: z.boolean().default(false),
        editedAt: isoTime,
      }),
    },
    KeysetDeleted: { version: 1, data: eventData({ deletedAt: isoTime }) },
    KeysetUsed: { version: 1, data: eventData({ at: isoTime }) },
  } satisfies EventSchemas<KeysetEvent>,
};

export const modelDefaultsAggregate: AggregateDefinition<ModelDefaultsCommand, ModelDefaultsEvent, ModelDefaultsState> = {
  decider: modelDefaultsDecider,
  streamId: modelDefaultsStreamId,
  events: {
    ModelDefaultsChanged: {
      version: 1,
      data: eventData({
        scope: z.enum(MODEL_SCOPES),
        keysetId: z.string(),
        model: z.string(),
        reason: z.enum(["chosen", "keyset-deleted"]),
        changedAt: isoTime,
      }),
    },
  },
};

// A layout stored before a setting existed reads that setting's default.
const chatLayout: z.ZodType<ChatLayout, z.ZodTypeDef, unknown> = z.object({
  fontSize: z.enum(FONT_SIZES).default(DEFAULT_CHAT_LAYOUT.fontSize),
  responseLanguage: z.string().default(DEFAULT_CHAT_LAYOUT.responseLanguage),
  isChatOnLeft: z.boolean().default(DEFAULT_CHAT_LAYOUT.isChatOnLeft),
  chatbotWidth: z.number().default(DEFAULT_CHAT_LAYOUT.chatbotWidth),
  sheetHeight: z.number().default(DEFAULT_CHAT_LAYOUT.sheetHeight),
});

export const chatLayoutAggregate: AggregateDefinition<ChatLayoutCommand, ChatLayoutEvent, ChatLayout> = {
  decider: chatLayoutDecider,
  streamId: chatLayoutStreamId,
  events: { ChatLayoutChanged: { version: 1, data: eventData({ layout: chatLayout, changedAt: isoTime }) } },
};

/** Reservation streams are named by a keyed hash of the value (application/identity/reservations.ts): the id is the stream id. */
export const reservationAggregate: AggregateDefinition<ReservationCommand, ReservationEvent, ReservationState> = {
  decider: reservationDecider,
  streamId: (streamId) => streamId,
  events: {
    ValueReserved: { version: 1, data: eventData({ userId: z.string(), reservedAt: isoTime }) },
    ValueReleased: { version: 1, data: eventData({ userId: z.string(), releasedAt: isoTime }) },
  },
};
