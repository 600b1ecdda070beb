import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { RecordedEvent } from "#application/ports/event-store";
import { openDatabase } from "#infrastructure/embedded/sqlite/open-database";
import { SqliteEventStore } from "#infrastructure/embedded/sqlite/sqlite-event-store";
import { eventStoreContract } from "./event-store.contract";

function tempDir(): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), "docuchat-es-"));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

eventStoreContract("SQLite", async () => {
  const temp = tempDir();
  const db = openDatabase(join(temp.dir, "data", "events.db"));
  const store = new SqliteEventStore(db, { pollIntervalMs: 50 });
  return {
    store,
    cleanup: async () => {
      await store.close();
      db.close();
      temp.remove();
    },
  };
});

describe("SqliteEventStore on a shared file", () => {
  const event = (type: string) => ({
    eventId: randomUUID(),
    type,
    schemaVersion: 1,
    data: {},
    metadata: { correlationId: "c", actorId: "system" },
  });

  it("sees appends made by another connection (another process) through polling", async () => {
    const temp = tempDir();
    const file = join(temp.dir, "events.db");
    const readerDb = openDatabase(file);
    const writerDb = openDatabase(file);
    const reader = new SqliteEventStore(readerDb, { pollIntervalMs: 20 });
    const writer = new SqliteEventStore(writerDb);
    try {
      const seen: RecordedEvent[] = [];
      const arrived = new Promise<void>((resolve) => {
        reader.subscribeToAll({
          fromPosition: 0,
          onEvent: async (e) => {
            seen.push(e);
            if (seen.length === 2) resolve();
          },
        });
      });
      await writer.append("counter-1", [event("A")], "no_stream");
      await writer.append("counter-2", [event("B")], "no_stream");
      await arrived;
      expect(seen.map((e) => e.type)).toEqual(["A", "B"]);
    } finally {
      await reader.close();
      await writer.close();
      readerDb.close();
      writerDb.close();
      temp.remove();
    }
  });

  it("wakes its subscriptions when another connection commits, without waiting for the poll", async () => {
    const temp = tempDir();
    const file = join(temp.dir, "events.db");
    const readerDb = openDatabase(file);
    const writerDb = openDatabase(file);
    // A poll far beyond the test's timeout: only the commit watch can deliver the event.
    const reader = new SqliteEventStore(readerDb, { pollIntervalMs: 24 * 60 * 60 * 1000, changeCheckMs: 5 });
    const writer = new SqliteEventStore(writerDb);
    try {
      const arrived = new Promise<string>((resolve) => {
        reader.subscribeToAll({ fromPosition: 0, onEvent: async (e) => resolve(e.type) });
      });
      // Let the subscription finish its first (empty) read and go to sleep.
      await new Promise((resolve) => setTimeout(resolve, 50));
      await writer.append("counter-1", [event("FromAnotherProcess")], "no_stream");
      expect(await arrived).toBe("FromAnotherProcess");
    } finally {
      await reader.close();
      await writer.close();
      readerDb.close();
      writerDb.close();
      temp.remove();
    }
  });

  it("stamps events with the injected clock and refuses work once closed", async () => {
    const db = openDatabase(":memory:");
    const store = new SqliteEventStore(db, { clock: () => new Date("2030-01-02T03:04:05.000Z") });
    await store.append("counter-1", [event("A")], "no_stream");
    const [read] = await store.readStream("counter-1");
    expect(read.recordedAt).toBe("2030-01-02T03:04:05.000Z");
    await store.close();
    await expect(store.append("counter-1", [event("B")], 0)).rejects.toThrow(/closed/);
    db.close();
  });

  it("stops a subscription asked to stop while it handles an event, without waiting for its next poll", async () => {
    const db = openDatabase(":memory:");
    // A poll interval far beyond the test's timeout: a subscription that went to sleep after stop() would never end.
    const store = new SqliteEventStore(db, { pollIntervalMs: 24 * 60 * 60 * 1000 });
    await store.append("counter-1", [event("A")], "no_stream");
    let stopping: Promise<void> | null = null;
    const handled = new Promise<void>((resolve) => {
      const subscription = store.subscribeToAll({
        fromPosition: 0,
        onEvent: async () => {
          // Shutdown arrives while this event is being handled (not awaited here: it waits for this very call).
          stopping = subscription.stop();
          resolve();
        },
      });
    });
    await handled;
    await stopping;
    await store.close();
    db.close();
  });
});
