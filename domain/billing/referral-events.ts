import { z } from "zod";
import { type AggregateDefinition, eventData, isoTime } from "#domain/shared/event-schemas";
import { type ReferralCommand, type ReferralEvent, type ReferralState, referralDecider, referralStreamId } from "./referral";

export const referralAggregate: AggregateDefinition<ReferralCommand, ReferralEvent, ReferralState> = {
  decider: referralDecider,
  streamId: referralStreamId,
  events: { ReferredSignUpRecorded: { version: 1, data: eventData({ referredUserId: z.string().min(1), joinedAt: isoTime }) } },
};

/** The fields of identity's `UserRegistered` that billing reads (its published event; the personal part is not read). */
export const signUpFields = z.object({ userId: z.string().min(1), refCode: z.string().nullable().default(null), registeredAt: isoTime });
