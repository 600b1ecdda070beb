import { inject, injectable } from "inversify";
import { TOKENS } from "#application/tokens";
import type { EventStore } from "#application/ports/event-store";
import { impersonationStreamId } from "#domain/administration/impersonation";
import { type AuditHistory, scanLog, toRow } from "./audit-rows";

const ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Replays one impersonation from the event store alone (decision 104): its
 * own stream (start, reason, what was viewed, end) and every event anywhere
 * whose metadata names it. After the user's purge it still shows that the
 * account was impersonated, but no longer whom (the personal fields are shredded).
 */
@injectable()
export class ImpersonationAudit {
  constructor(@inject(TOKENS.EventStore) private readonly events: EventStore) {}

  /** The replay, or null when no such impersonation was ever started. */
  async history(impersonationId: string): Promise<AuditHistory | null> {
    const id = impersonationId.trim();
    if (!ID.test(id)) return null;
    const stream = impersonationStreamId(id);
    if ((await this.events.readStream(stream)).length === 0) return null;
    const recorded = await scanLog(this.events, (event) => event.streamId === stream || event.metadata.impersonationId === id);
    return { subject: `Impersonation ${id}`, rows: recorded.map(toRow) };
  }
}
