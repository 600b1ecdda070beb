import Database from "better-sqlite3";
import type { Projector } from "#application/ports/projection";
import type { ReadModelStore } from "#application/ports/read-model-store";
import { SqliteReadModelStore } from "#infrastructure/embedded/sqlite/sqlite-read-model-store";
import { eventRecorder } from "#projections/testing/projector-harness";

/** One event as the log would hand it to a projector. */
export interface FedEvent {
  streamId: string;
  type: string;
  data: Record<string, unknown>;
  recordedAt?: string;
}

/**
 * Feeds events to projectors in order, on a fresh in-memory read-model store:
 * the way query unit tests build a read model from several projectors without a runtime.
 */
export async function projectEvents(projectors: Projector[], events: FedEvent[], store: ReadModelStore = new SqliteReadModelStore(new Database(":memory:"))) {
  for (const projector of projectors) await projector.setup?.(store);
  const record = eventRecorder();
  for (const [index, event] of events.entries()) {
    const recorded = record(event.streamId, event.type, event.data, event.recordedAt ?? new Date(Date.UTC(2026, 0, 1, 0, 0, index + 1)).toISOString());
    for (const projector of projectors) await projector.handle(recorded, store);
  }
  return store;
}
