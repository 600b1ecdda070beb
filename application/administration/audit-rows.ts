import type { EventStore, RecordedEvent } from "#application/ports/event-store";

/** One line of a replayed history, as the admin page, its exports and `npm run audit` print it. */
export interface AuditRow {
  position: number;
  at: string;
  type: string;
  /** Who acted: a user id, "system" (workflows), with the impersonating admin when there was one. */
  actor: string;
  details: string;
}

export interface AuditHistory {
  /** What was replayed: "Account <id>" or "Impersonation <id>". */
  subject: string;
  rows: AuditRow[];
}

export const ERASED = "(personal data erased)";

export function toRow(event: RecordedEvent): AuditRow {
  const { actorId, impersonatorId, impersonationId } = event.metadata;
  const category = event.streamId.split("-")[0];
  return {
    position: event.position,
    at: event.recordedAt,
    type: category === "user" ? event.type : `${category}: ${event.type}`,
    actor: impersonatorId ? `${actorId} (impersonated by ${impersonatorId}${impersonationId ? `, impersonation ${impersonationId}` : ""})` : actorId,
    details: describe(event),
  };
}

type Data = Record<string, unknown>;
const text = (value: unknown) => (value === null || value === undefined || value === "" ? "—" : String(value));
const personalOf = (data: Data) => data.personal as Data | null | undefined;

/** Allow-listed details per event type. Never passwordHash, codeHash or sessionRef; unknown types print nothing. */
function describe(event: RecordedEvent): string {
  const data = event.data as Data;
  const personal = personalOf(data);
  switch (event.type) {
    case "UserRegistered":
      return `${personal ? `username ${text(personal.username)}, email ${text(personal.email)}` : ERASED}; referral code ${text(data.refCode)}`;
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
    case "ProfileUpdated":
      if (!personal) return ERASED;
      return `name ${text(personal.firstName)} ${text(personal.lastName)}, occupation ${text(personal.occupation)}, language ${text(personal.language)}`;
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
    case "AdminRoleGranted":
      return `admin role of ${text(data.userId)} granted by ${text(data.grantedBy)}`;
    case "AdminRoleRevoked":
      return `admin role of ${text(data.userId)} revoked by ${text(data.revokedBy)}`;
    case "AccessTokenCreated": {
      const scope = Array.isArray(data.workspaceIds) ? `workspaces ${(data.workspaceIds as string[]).join(", ")}` : "all workspaces";
      return `token ${personal ? `'${text(personal.name)}' ` : ""}(${text(data.tokenId)}) may ${(data.permissions as string[]).join(", ")} on ${scope}; expires ${text(data.expiresAt)}`;
    }
    case "AccessTokenUsed":
      return `token used (first use since the previous summary) at ${text(data.at)}`;
    case "AccessTokenRevoked":
      return `token revoked by its ${text(data.reason)}`;
    case "ImpersonationStarted":
      return `admin ${text(data.adminId)} impersonates ${personal ? `${text(personal.userName)} ` : ""}(user ${text(data.userId)}) until ${text(data.deadline)}; reason: ${personal ? text(personal.reason) : ERASED}`;
    case "ImpersonationViewed":
      return `viewed ${text(data.kind)} ${personal ? `'${text(personal.title)}'` : ERASED} (${text(data.resourceId)})`;
    case "ImpersonationEnded":
      return `ended by ${data.cause === "expiry" ? "expiry" : data.cause === "forced" ? `another admin (${text(data.endedById)})` : `the admin (${text(data.endedById)})`}`;
    default:
      return "";
  }
}

/** Every event of the log that matches, in log order (the audit's replay reads the event store alone). */
export async function scanLog(events: EventStore, matches: (event: RecordedEvent) => boolean): Promise<RecordedEvent[]> {
  const found: RecordedEvent[] = [];
  for (let from = 0; ; ) {
    const page = await events.readAll(from, 1000);
    if (page.length === 0) return found;
    for (const event of page) if (matches(event)) found.push(event);
    from = page[page.length - 1].position;
  }
}

/** Plain-text table for the CLI. */
export function formatHistory(history: AuditHistory): string {
  const header = ["time", "event", "actor", "details"];
  const rows = history.rows.map((r) => [r.at, r.type, r.actor, r.details]);
  const widths = header.map((h, i) => Math.min(60, Math.max(h.length, ...rows.map((r) => r[i].length))));
  const line = (cells: string[]) => cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]))).join("  ");
  return [`${history.subject}: ${history.rows.length} events`, line(header), ...rows.map(line)].join("\n");
}

/** RFC 4180 CSV; a cell starting with = + - @ is prefixed with ' so a spreadsheet does not run it as a formula. */
export function historyCsv(history: AuditHistory): string {
  const cell = (value: string | number) => {
    let s = String(value);
    if (/^[=+\-@\t\r]/.test(s)) s = `'${s}`;
    return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
  };
  const lines = [["position", "time", "event", "actor", "details"], ...history.rows.map((r) => [r.position, r.at, r.type, r.actor, r.details])];
  return `${lines.map((line) => line.map(cell).join(",")).join("\r\n")}\r\n`;
}
