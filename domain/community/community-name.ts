import type { Decider, DomainEvent } from "#domain/shared/decider";
import { DomainError } from "#domain/shared/domain-error";

/**
 * Uniqueness of community names (ARCHITECTURE §3, the pattern of decision 002):
 * one reservation stream per normalised name, written with expected version
 * "no stream", so two people creating "Physics" and "physics" at once cannot
 * both win. Deleting the community releases its name.
 */
export type CommunityNameEvent =
  | DomainEvent<"CommunityNameReserved", { communityId: string; reservedAt: string }>
  | DomainEvent<"CommunityNameReleased", { communityId: string; releasedAt: string }>;

/** `holderExists`: whether the holding community was ever created (a crash between the two writes leaves a reservation alone). */
export type CommunityNameCommand =
  | { type: "Reserve"; communityId: string; holderExists: boolean; now: Date }
  | { type: "Release"; communityId: string; now: Date };

export type CommunityNameState = { holder: string | null; reservedAt: number };

/** A reservation whose community never got created may be taken over after this. */
const ABANDONED_RESERVATION_MS = 2 * 60 * 1000;

/**
 * The same words for every reserved name, whoever holds it and whether or not
 * its community is private: "already exists" confirmed to an outsider that a
 * private community of that name exists (issue 30).
 */
export const COMMUNITY_NAME_TAKEN = () => new DomainError("COMMUNITY_NAME_TAKEN", "This name is not available. Choose another.", "communityName");

/** Case, surrounding spaces and repeated inner spaces do not make a different name. */
export const normaliseCommunityName = (name: string) => name.normalize("NFKC").trim().replace(/\s+/g, " ").toLowerCase();

export const communityNameDecider: Decider<CommunityNameCommand, CommunityNameEvent, CommunityNameState> = {
  initialState: () => ({ holder: null, reservedAt: 0 }),
  decide(command, state) {
    if (command.type === "Reserve") {
      if (state.holder === command.communityId) return [];
      const abandoned = !command.holderExists && command.now.getTime() - state.reservedAt > ABANDONED_RESERVATION_MS;
      if (state.holder !== null && !abandoned) throw COMMUNITY_NAME_TAKEN();
      return [{ type: "CommunityNameReserved", data: { communityId: command.communityId, reservedAt: command.now.toISOString() } }];
    }
    if (state.holder !== command.communityId) return [];
    return [{ type: "CommunityNameReleased", data: { communityId: command.communityId, releasedAt: command.now.toISOString() } }];
  },
  evolve(state, event) {
    return event.type === "CommunityNameReserved"
      ? { holder: event.data.communityId, reservedAt: Date.parse(event.data.reservedAt) }
      : { holder: null, reservedAt: 0 };
  },
};

export const communityNameStreamId = (keyedHash: string) => `community-name-${keyedHash}`;
