import { createHash } from "node:crypto";
import type { Decider, DomainEvent } from "#domain/shared/decider";

/**
 * A user's referrals (stream `referral-<referrer>`): the people who signed up
 * through their link `/signup?refCode=<code>`. The code is derived from the
 * user id (not the id itself, which the link would otherwise publish).
 */

export type ReferralEvent = DomainEvent<"ReferredSignUpRecorded", { referredUserId: string; joinedAt: string }>;
export type ReferralCommand = { type: "RecordReferredSignUp"; referredUserId: string; joinedAt: string };
export interface ReferralState {
  referred: string[];
}

export const referralDecider: Decider<ReferralCommand, ReferralEvent, ReferralState> = {
  initialState: () => ({ referred: [] }),
  // A sign-up reported twice (a reactor sees an event at least once) is recorded once.
  decide: (command, state) =>
    state.referred.includes(command.referredUserId) ? [] : [{ type: "ReferredSignUpRecorded", data: { referredUserId: command.referredUserId, joinedAt: command.joinedAt } }],
  evolve: (state, event) => ({ referred: [...state.referred, event.data.referredUserId] }),
};

export const referralStreamId = (referrerId: string) => `referral-${referrerId}`;

/** The user's referral code: 12 URL-safe characters derived from the user id. */
export const referralCodeOf = (userId: string) => createHash("sha256").update(`docuchat-referral:${userId}`).digest("base64url").slice(0, 12);
