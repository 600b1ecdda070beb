import type { Decider, DomainEvent } from "#domain/shared/decider";
import { DomainError } from "#domain/shared/domain-error";

/**
 * Uniqueness of usernames and emails across user aggregates (ARCHITECTURE §3):
 * a reservation stream per normalised value, keyed by a keyed hash so that no
 * personal data ends up in stream ids (which crypto-shredding cannot erase).
 * The reservation is written with expected version "no stream", so two
 * concurrent sign-ups for one name cannot both win.
 */

/** `oidc`: an external identity, keyed by HMAC(issuer, subject) (docs/decisions/010). */
export type ReservationKind = "username" | "email" | "oidc";

/** A reservation whose account never got registered (crash between steps) may be taken over after this. */
const ABANDONED_RESERVATION_MS = 2 * 60 * 1000;

export type ReservationEvent =
  | DomainEvent<"ValueReserved", { userId: string; reservedAt: string }>
  | DomainEvent<"ValueReleased", { userId: string; releasedAt: string }>;

export type ReservationCommand =
  | { type: "Reserve"; userId: string; now: Date; ownerIsRegistered: boolean; takenMessage: string; takenCode: string }
  | { type: "Release"; userId: string; now: Date };

export type ReservationState = { holder: string | null; reservedAt: number };

export function decide(command: ReservationCommand, state: ReservationState): ReservationEvent[] {
  switch (command.type) {
    case "Reserve": {
      if (state.holder === command.userId) return [];
      const abandoned =
        state.holder !== null &&
        !command.ownerIsRegistered &&
        command.now.getTime() - state.reservedAt > ABANDONED_RESERVATION_MS;
      if (state.holder !== null && !abandoned) throw new DomainError(command.takenCode, command.takenMessage);
      return [{ type: "ValueReserved", data: { userId: command.userId, reservedAt: command.now.toISOString() } }];
    }
    case "Release":
      if (state.holder !== command.userId) return [];
      return [{ type: "ValueReleased", data: { userId: command.userId, releasedAt: command.now.toISOString() } }];
  }
}

export function evolve(state: ReservationState, event: ReservationEvent): ReservationState {
  switch (event.type) {
    case "ValueReserved":
      return { holder: event.data.userId, reservedAt: Date.parse(event.data.reservedAt) };
    case "ValueReleased":
      return { holder: null, reservedAt: 0 };
  }
}

export const reservationDecider: Decider<ReservationCommand, ReservationEvent, ReservationState> = {
  initialState: () => ({ holder: null, reservedAt: 0 }),
  decide,
  evolve,
};

export const reservationStreamId = (kind: ReservationKind, keyedHash: string) => `${kind}-${keyedHash}`;
