import type { RecordedEvent } from "#application/ports/event-store";
import type { Projector } from "#application/ports/projection";
import type { DomainEvent } from "#domain/shared/decider";
import { openDatabase } from "#infrastructure/embedded/sqlite/open-database";
import { SqliteReadModelStore } from "#infrastructure/embedded/sqlite/sqlite-read-model-store";

/** Stamps events as the event store would record them: stream versions and global positions in order. */
export function eventRecorder() {
  const versions = new Map<string, number>();
  let position = 0;
  return (streamId: string, type: string, data: Record<string, unknown>, recordedAt: string): RecordedEvent => {
    const streamVersion = (versions.get(streamId) ?? -1) + 1;
    versions.set(streamId, streamVersion);
    position += 1;
    return { eventId: `event-${position}`, type, schemaVersion: 1, data, metadata: { correlationId: "test", actorId: "test" }, streamId, streamVersion, position, recordedAt };
  };
}

/**
 * Runs one projector over events recorded as the event store would record
 * them, into a fresh in-memory read-model store: projector tests read the
 * read model the app's queries read.
 */
export async function projectorHarness(projector: Projector) {
  const db = openDatabase(":memory:");
  const store = new SqliteReadModelStore(db);
  await projector.setup?.(store);
  const record = eventRecorder();
  return {
    store,
    /** Records the events on the stream and hands each to the projector; answers them as recorded. */
    async record(streamId: string, events: readonly DomainEvent[], recordedAt = "2026-05-01T12:00:00.000Z"): Promise<RecordedEvent[]> {
      const recorded: RecordedEvent[] = [];
      for (const event of events) {
        const one = record(streamId, event.type, event.data, recordedAt);
        await projector.handle(one, store);
        recorded.push(one);
      }
      return recorded;
    },
    /** Delivers already recorded events again (a redelivery after a restart). */
    async redeliver(events: readonly RecordedEvent[]): Promise<void> {
      for (const event of events) await projector.handle(event, store);
    },
    close: () => db.close(),
  };
}
