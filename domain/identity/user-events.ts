import { z } from "zod";
import { type AggregateDefinition, eventData, type EventSchemas, isoTime, personal } from "#domain/shared/event-schemas";
import { type UserCommand, type UserEvent, type UserState, userDecider, userStreamId } from "./user";

const profile = personal({ firstName: z.string(), lastName: z.string(), occupation: z.string(), language: z.string() });
const codePurpose = z.enum(["signup", "password-reset"]);

/** The user stream's events as they are stored (version 1 throughout). */
const userEventSchemas: EventSchemas<UserEvent> = {
  UserRegistered: {
    version: 1,
    data: eventData({
      userId: z.string(),
      personal: personal({ username: z.string(), email: z.string(), passwordHash: z.string().nullable() }),
      refCode: z.string().nullable().default(null),
      registeredAt: isoTime,
    }),
  },
  VerificationCodeIssued: {
    version: 1,
    data: eventData({ codeId: z.string(), purpose: codePurpose, codeHash: z.string(), issuedAt: isoTime, expiresAt: isoTime }),
  },
  VerificationCodeRejected: { version: 1, data: eventData({ codeId: z.string(), attempt: z.number(), rejectedAt: isoTime }) },
  SignupConfirmed: { version: 1, data: eventData({ codeId: z.string(), confirmedAt: isoTime }) },
  UserLoggedIn: { version: 1, data: eventData({ sessionRef: z.string(), method: z.enum(["password", "oidc"]), loggedInAt: isoTime }) },
  UserLoggedOut: { version: 1, data: eventData({ sessionRef: z.string(), loggedOutAt: isoTime }) },
  PasswordReset: { version: 1, data: eventData({ codeId: z.string(), personal: personal({ passwordHash: z.string() }), resetAt: isoTime }) },
  PasswordChanged: { version: 1, data: eventData({ personal: personal({ passwordHash: z.string() }), changedAt: isoTime }) },
  AllSessionsRevoked: {
    version: 1,
    data: eventData({ sessionRefs: z.array(z.string()), reason: z.enum(["password-reset", "user-request"]), revokedAt: isoTime }),
  },
  ExternalIdentityLinked: {
    version: 1,
    data: eventData({
      issuer: z.string(),
      providerName: z.string(),
      identityKey: z.string(),
      personal: personal({ subject: z.string(), email: z.string() }),
      confirmedAccount: z.boolean(),
      linkedAt: isoTime,
    }),
  },
  ProfileCompleted: { version: 1, data: eventData({ personal: profile, completedAt: isoTime }) },
  ProfileUpdated: { version: 1, data: eventData({ personal: profile, updatedAt: isoTime }) },
  ProfilePictureChanged: { version: 1, data: eventData({ pictureKey: z.string(), previousKey: z.string().nullable(), changedAt: isoTime }) },
  AccountDeletionScheduled: { version: 1, data: eventData({ reason: z.string(), scheduledAt: isoTime, purgeAt: isoTime }) },
  AccountRetrieved: { version: 1, data: eventData({ retrievedAt: isoTime }) },
  AccountPurgeStarted: { version: 1, data: eventData({ startedAt: isoTime }) },
  AccountPurged: { version: 1, data: eventData({ purgedAt: isoTime }) },
};

export const userAggregate: AggregateDefinition<UserCommand, UserEvent, UserState> = {
  decider: userDecider,
  streamId: userStreamId,
  events: userEventSchemas,
};
