import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { RecordedEvent } from "#application/ports/event-store";
import { openDatabase } from "#infrastructure/embedded/sqlite/open-database";
import { DuplicateEventIdError, SqliteEventStore } from "#infrastructure/embedded/sqlite/sqlite-event-store";
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

  it("moves a database made before decision 165 onto the table without the event-id index, keeping every position", async () => {
    const db = openDatabase(":memory:");
    db.exec(`CREATE TABLE events (
      position INTEGER PRIMARY KEY AUTOINCREMENT, event_id TEXT NOT NULL UNIQUE, stream_id TEXT NOT NULL, stream_version INTEGER NOT NULL,
      type TEXT NOT NULL, schema_version INTEGER NOT NULL, data TEXT NOT NULL, metadata TEXT NOT NULL, recorded_at TEXT NOT NULL,
      UNIQUE (stream_id, stream_version))`);
    const insert = db.prepare("INSERT INTO events VALUES (?, ?, ?, ?, 'A', 1, '{}', '{\"correlationId\":\"c\",\"actorId\":\"system\"}', '2026-01-01T00:00:00.000Z')");
    insert.run(3, "e-3", "counter-1", 0);
    insert.run(7, "e-7", "counter-1", 1);
    const store = new SqliteEventStore(db);
    const indexes = db.prepare("SELECT name FROM pragma_index_list('events')").pluck().all();
    expect(indexes).toHaveLength(1);
    expect(db.prepare("SELECT sql FROM sqlite_master WHERE name = 'events'").pluck().get()).not.toMatch(/AUTOINCREMENT/);
    expect((await store.readStream("counter-1")).map((e) => [e.eventId, e.position])).toEqual([["e-3", 3], ["e-7", 7]]);
    const appended = await store.append("counter-1", [event("B")], 1);
    expect(appended).toEqual({ nextExpectedVersion: 2, position: 8 });
    // Opening it again (another process starting) finds nothing left to move.
    new SqliteEventStore(db);
    expect(await store.readAll(0, 10)).toHaveLength(3);
    await store.close();
    db.close();
  });

  it("answers an append that repeats ids already in its stream as the retry it is, even at the stream's current version", async () => {
    const db = openDatabase(":memory:");
    const store = new SqliteEventStore(db);
    const paid = event("PaymentCaptured");
    const first = await store.append("order-1", [paid], "no_stream");
    expect(await store.append("order-1", [paid], 0)).toEqual(first);
    await expect(store.append("order-1", [event("A"), event("A")].map((e, i, all) => ({ ...e, eventId: all[0].eventId })), "any")).rejects.toBeInstanceOf(DuplicateEventIdError);
    expect(await store.readStream("order-1")).toHaveLength(1);
    await store.close();
    db.close();
  });
});
