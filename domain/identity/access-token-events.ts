import { z } from "zod";
import { type AggregateDefinition, eventData, type EventSchemas, isoTime, personal } from "#domain/shared/event-schemas";
import {
  type AccessTokenCommand,
  type AccessTokenEvent,
  type AccessTokenState,
  accessTokenDecider,
  accessTokenStreamId,
  TOKEN_PERMISSIONS,
} from "./access-token";

export const accessTokenAggregate: AggregateDefinition<AccessTokenCommand, AccessTokenEvent, AccessTokenState> = {
  decider: accessTokenDecider,
  streamId: accessTokenStreamId,
  events: {
    AccessTokenCreated: {
      version: 1,
      data: eventData({
        tokenId: z.string(),
        ownerId: z.string(),
        workspaceIds: z.array(z.string()).nullable(),
        permissions: z.array(z.enum(TOKEN_PERMISSIONS)),
        expiresAt: isoTime.nullable(),
        createdAt: isoTime,
        personal: personal({ name: z.string(), secretHash: z.string() }),
      }),
    },
    AccessTokenUsed: { version: 1, data: eventData({ at: isoTime }) },
    AccessTokenRevoked: { version: 1, data: eventData({ at: isoTime, reason: z.enum(["owner"]) }) },
  } satisfies EventSchemas<AccessTokenEvent>,
};
