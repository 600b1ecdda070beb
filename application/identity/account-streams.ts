import { inject, injectable } from "inversify";
import { TOKENS } from "#application/tokens";
import type { EventStore } from "#application/ports/event-store";
import type { SecretHasher } from "#application/ports/sessions";
import { foldRecorded } from "#application/shared/aggregate";
import { userStreamId } from "#domain/identity/user";
import { userAggregate } from "#domain/identity/user-events";
import { reservationHolders, reservationStreamFor } from "./reservations";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Where an account's history lives in the event store: identity's answer to
 * the administration's audit (decision 024, 104), which replays those streams
 * without knowing how identity keys its reservations.
 */
@injectable()
export class AccountStreams {
  constructor(
    @inject(TOKENS.EventStore) private readonly events: EventStore,
    @inject(TOKENS.SecretHasher) private readonly secrets: SecretHasher,
  ) {}

  /** A username (current or released, newest holder wins) or a user id -> the account's id, or null. */
  async findAccount(query: string): Promise<string | null> {
    const value = query.trim();
    if (!value) return null;
    if (UUID.test(value)) return (await this.events.readStream(userStreamId(value))).length > 0 ? value : null;
    if (!/^[A-Za-z0-9]+$/.test(value)) return null;
    return (await reservationHolders(this.events, this.secrets, "username", value)).at(-1) ?? null;
  }

  /**
   * The user stream and the reservation streams of its username (the one
   * searched for, once the account's own is erased) and email while readable.
   */
  async streamsOf(userId: string, searchedUsername?: string): Promise<{ userStream: string; reservationStreams: string[] }> {
    const userStream = userStreamId(userId);
    const { state } = foldRecorded(userAggregate, await this.events.readStream(userStream));
    const reservationStreams = new Set<string>();
    const username = state.registered && state.username ? state.username : searchedUsername;
    if (username) reservationStreams.add(reservationStreamFor(this.secrets, "username", username));
    if (state.registered && state.email) reservationStreams.add(reservationStreamFor(this.secrets, "email", state.email));
    return { userStream, reservationStreams: [...reservationStreams] };
  }
}
