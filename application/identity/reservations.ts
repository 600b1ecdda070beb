import type { EventStore } from "#application/ports/event-store";
import type { SecretHasher } from "#application/ports/sessions";
import { loadAggregate } from "#application/shared/aggregate";
import { normaliseEmail, normaliseUsername } from "#domain/identity/credentials";
import { reservationAggregate } from "#domain/identity/identity-events";
import { type ReservationKind, reservationStreamId } from "#domain/identity/reservation";

/**
 * The reservation stream of a username, email or OpenID identity
 * (docs/decisions/002): an HMAC of the normalised value, so no personal data
 * ends up in a stream id. OpenID subjects are case-sensitive (OpenID Core §5.7)
 * and are not normalised.
 * Shared by sign-up, the purge (which releases the reservations) and the audit.
 */
export function reservationStreamFor(secrets: SecretHasher, kind: ReservationKind, value: string): string {
  const normalised = kind === "username" ? normaliseUsername(value) : kind === "email" ? normaliseEmail(value) : value;
  return reservationStreamId(kind, secrets.hash(`reservation:${kind}`, normalised));
}

/** Everyone who ever held the value, newest last (the audit finds a purged account this way). */
export async function reservationHolders(events: EventStore, secrets: SecretHasher, kind: ReservationKind, value: string) {
  const { events: recorded } = await loadAggregate(events, reservationAggregate, reservationStreamFor(secrets, kind, value));
  const holders: string[] = [];
  for (const event of recorded) {
    if (event.type === "ValueReserved" && !holders.includes(event.data.userId)) holders.push(event.data.userId);
  }
  return holders;
}
