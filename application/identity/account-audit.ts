import { inject, injectable } from "inversify";
import { TOKENS } from "#application/tokens";
import type { EventStore, RecordedEvent } from "#application/ports/event-store";
import type { SecretHasher } from "#application/ports/sessions";
import { foldRecorded } from "#application/shared/aggregate";
import { userStreamId } from "#domain/identity/user";
import { userAggregate } from "#domain/identity/user-events";
import { reservationHolders, reservationStreamFor } from "./reservations";

/** One line of an account's history, as the admin page and `npm run audit` print it. */
export interface AuditRow {
  position: number;
  at: string;
  type: string;
  /** Who acted: a user id, "system" (workflows), with the impersonating admin when there was one. */
  actor: string;
  details: string;
}

export interface AccountHistory {
  userId: string;
  rows: AuditRow[];
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ERASED = "(personal data erased)";

/**
 * Replays one account's history from the event store (not a read model), in
 * log order: the user stream plus its username and email reservations. Details
 * come from an allow-list per event type, so hashes (password, codes,
 * sessions) never reach the output; unknown event types show no data at all.
 */
@injectable()
export class AccountAudit {
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

  async history(userId: string, searchedUsername?: string): Promise<AccountHistory> {
    const userEvents = await this.events.readStream(userStreamId(userId));
    const { state } = foldRecorded(userAggregate, userEvents);
    const reservationStreams = new Set<string>();
    const username = state.registered && state.username ? state.username : searchedUsername;
    if (username) reservationStreams.add(reservationStreamFor(this.secrets, "username", username));
    if (state.registered && state.email) reservationStreams.add(reservationStreamFor(this.secrets, "email", state.email));

    const recorded: RecordedEvent[] = [...userEvents];
    for (const stream of reservationStreams) {
      for (const event of await this.events.readStream(stream)) {
        if ((event.data as { userId?: string }).userId === userId) recorded.push(event);
      }
    }
    recorded.sort((a, b) => a.position - b.position);
    return { userId, rows: recorded.map(toRow) };
  }
}

function toRow(event: RecordedEvent): AuditRow {
  const { actorId, impersonatorId } = event.metadata;
  return {
    position: event.position,
    at: event.recordedAt,
    type: event.streamId.startsWith("user-") ? event.type : `${event.streamId.split("-")[0]}: ${event.type}`,
    actor: impersonatorId ? `${actorId} (impersonated by ${impersonatorId})` : actorId,
    details: describe(event),
  };
}

type Data = Record<string, unknown>;
const text = (value: unknown) => (value === null || value === undefined || value === "" ? "—" : String(value));
const personalOf = (data: Data) => data.personal as Data | null | undefined;

/** Allow-listed details per event type. Never passwordHash, codeHash or sessionRef. */
function describe(event: RecordedEvent): string {
  const data = event.data as Data;
  switch (event.type) {
    case "UserRegistered": {
      const personal = personalOf(data);
      const who = personal ? `username ${text(personal.username)}, email ${text(personal.email)}` : ERASED;
      return `${who}; referral code ${text(data.refCode)}`;
    }
    case "VerificationCodeIssued":
      return `${text(data.purpose)} code, expires ${text(data.expiresAt)}`;
    case "VerificationCodeRejected":
      return `wrong code, attempt ${text(data.attempt)}`;
    case "SignupConfirmed":
      return "email confirmed";
    case "UserLoggedIn":
      return `method ${text(data.method)}`;
    case "UserLoggedOut":
      return "session ended";
    case "ProfileCompleted":
    case "ProfileUpdated": {
      const personal = personalOf(data);
      if (!personal) return ERASED;
      return `name ${text(personal.firstName)} ${text(personal.lastName)}, occupation ${text(personal.occupation)}, language ${text(personal.language)}`;
    }
    case "ProfilePictureChanged":
      return data.previousKey ? "picture replaced" : "picture added";
    case "AccountDeletionScheduled":
      return `reason ${text(data.reason)}; purge at ${text(data.purgeAt)}`;
    case "AccountRetrieved":
      return "deletion cancelled";
    case "AccountPurgeStarted":
      return "grace period over; purge started";
    case "AccountPurged":
      return "sessions revoked, key forgotten, files, search entries and reservations removed";
    case "ValueReserved":
      return "reserved";
    case "ValueReleased":
      return "released";
    default:
      return "";
  }
}

/** Plain-text table for the CLI. */
export function formatHistory(history: AccountHistory): string {
  const header = ["time", "event", "actor", "details"];
  const rows = history.rows.map((r) => [r.at, r.type, r.actor, r.details]);
  const widths = header.map((h, i) => Math.min(60, Math.max(h.length, ...rows.map((r) => r[i].length))));
  const line = (cells: string[]) => cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]))).join("  ");
  return [`Account ${history.userId}: ${history.rows.length} events`, line(header), ...rows.map(line)].join("\n");
}
