import Database from "better-sqlite3";
import type { RecordedEvent } from "#application/ports/event-store";
import type { Projector } from "#application/ports/projection";
import type { ReadModelStore } from "#application/ports/read-model-store";
import { SqliteReadModelStore } from "#infrastructure/embedded/sqlite/sqlite-read-model-store";

/** One event as the log would hand it to a projector. */
export interface FedEvent {
  streamId: string;
  type: string;
  data: Record<string, unknown>;
  recordedAt?: string;
}

/**
 * Feeds events to projectors in order, on a fresh in-memory read-model store:
 * the way projector and query unit tests build a read model without a runtime.
 */
export async function projectEvents(projectors: Projector[], events: FedEvent[], store: ReadModelStore = new SqliteReadModelStore(new Database(":memory:"))) {
  for (const projector of projectors) await projector.setup?.(store);
  const versions = new Map<string, number>();
  let position = 0;
  for (const event of events) {
    const streamVersion = (versions.get(event.streamId) ?? -1) + 1;
    versions.set(event.streamId, streamVersion);
    position += 1;
    const recorded: RecordedEvent = {
      eventId: `event-${position}`,
      type: event.type,
      schemaVersion: 1,
      data: event.data,
      metadata: { correlationId: "test", actorId: "test" },
      streamId: event.streamId,
      streamVersion,
      position,
      recordedAt: event.recordedAt ?? new Date(Date.UTC(2026, 0, 1, 0, 0, position)).toISOString(),
    };
    for (const projector of projectors) await projector.handle(recorded, store);
  }
  return store;
}
