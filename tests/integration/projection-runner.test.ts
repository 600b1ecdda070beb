import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomUUID } from "node:crypto";
import type Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { NewEvent, RecordedEvent } from "#application/ports/event-store";
import type { Projector } from "#application/ports/projection";
import type { ReadModelStore } from "#application/ports/read-model-store";
import { openDatabase } from "#infrastructure/embedded/sqlite/open-database";
import { SqliteEventStore } from "#infrastructure/embedded/sqlite/sqlite-event-store";
import { SqliteReadModelStore } from "#infrastructure/embedded/sqlite/sqlite-read-model-store";
import { CHECKPOINT_COLLECTION, ProjectionRunner, rebuildProjections } from "#infrastructure/embedded/projection-runner";

interface StreamCount {
  id: string;
  count: number;
  lastVersion: number;
}
interface TypeCount {
  id: string;
  count: number;
  lastPosition: number;
}

/** Counts events per stream and per type; idempotent by stream version / global position. */
function countingProjector(options: { delayMs?: number; name?: string } = {}): Projector & { handled: number } {
  const name = options.name ?? "counts";
  return {
    name,
    collections: [`${name}_by_stream`, `${name}_by_type`],
    handled: 0,
    async setup(store: ReadModelStore) {
      await store.collection<TypeCount>(`${name}_by_type`).ensureIndex(["count"]);
    },
    async handle(event: RecordedEvent, store: ReadModelStore) {
      this.handled++;
      if (options.delayMs) await new Promise((r) => setTimeout(r, options.delayMs));
      const streams = store.collection<StreamCount>(`${name}_by_stream`);
      const current = await streams.get(event.streamId);
      if (!current || current.lastVersion < event.streamVersion) {
        await streams.upsert({ id: event.streamId, count: (current?.count ?? 0) + 1, lastVersion: event.streamVersion });
      }
      const types = store.collection<TypeCount>(`${name}_by_type`);
      const type = await types.get(event.type);
      if (!type || type.lastPosition < event.position) {
        await types.upsert({ id: event.type, count: (type?.count ?? 0) + 1, lastPosition: event.position });
      }
    },
  };
}

function poisonProjector(): Projector & { attempts: number; cured: boolean } {
  return {
    name: "poisoned",
    collections: ["poisoned_seen"],
    attempts: 0,
    cured: false,
    async handle(event: RecordedEvent, store: ReadModelStore) {
      if (event.type === "Poison" && !this.cured) {
        this.attempts++;
        throw new Error(`cannot project ${event.type}`);
      }
      await store.collection<{ id: string }>("poisoned_seen").upsert({ id: event.eventId });
    },
  };
}

const newEvent = (type = "Counted"): NewEvent => ({
  eventId: randomUUID(),
  type,
  schemaVersion: 1,
  data: { at: Date.now() },
  metadata: { correlationId: randomUUID(), actorId: "system" },
});

async function dumpAll(store: ReadModelStore): Promise<Record<string, unknown[]>> {
  const dump: Record<string, unknown[]> = {};
  for (const name of (await store.listCollections()).sort()) dump[name] = await store.collection(name).find();
  return dump;
}

describe("ProjectionRunner", () => {
  let dir: string;
  let databases: Database.Database[];
  let eventStore: SqliteEventStore;
  let readModels: SqliteReadModelStore;
  let runners: ProjectionRunner[];

  const openReadModels = (file: string) => {
    const db = openDatabase(join(dir, file));
    databases.push(db);
    return new SqliteReadModelStore(db);
  };
  const runner = (projectors: Projector[], store: ReadModelStore = readModels) => {
    const r = new ProjectionRunner(eventStore, store, projectors, undefined, { retryBaseMs: 100, retryMaxMs: 400 });
    runners.push(r);
    return r;
  };

  /** 10 streams, appended in interleaved batches so positions mix streams. */
  async function appendHistory(rounds: number): Promise<number> {
    let position = 0;
    for (let round = 0; round < rounds; round++) {
      for (let s = 0; s < 10; s++) {
        const result = await eventStore.append(`counter-${s}`, [newEvent(round % 2 ? "Odd" : "Even")], "any");
        position = result.position;
      }
    }
    return position;
  }

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "docuchat-proj-"));
    databases = [];
    runners = [];
    const eventsDb = openDatabase(join(dir, "events.db"));
    databases.push(eventsDb);
    eventStore = new SqliteEventStore(eventsDb, { pollIntervalMs: 50 });
    readModels = openReadModels("read-models.db");
  });

  afterEach(async () => {
    for (const r of runners) await r.stop();
    await eventStore.close();
    for (const db of databases) db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("catches up to the head, then follows live appends; waitForPosition resolves when every projector has passed", async () => {
    const head = await appendHistory(5);
    const live = runner([countingProjector(), countingProjector({ name: "again" })]);
    await live.start();
    expect(await live.waitForPosition(head)).toBe(true);
    expect(await readModels.collection<StreamCount>("counts_by_stream").get("counter-3")).toEqual({
      id: "counter-3",
      count: 5,
      lastVersion: 4,
    });

    const appended = await eventStore.append("counter-3", [newEvent()], 4);
    expect(await live.waitForPosition(appended.position)).toBe(true);
    expect((await readModels.collection<StreamCount>("counts_by_stream").get("counter-3"))?.count).toBe(6);
    expect(live.status()).toEqual([
      { name: "counts", position: appended.position, error: null },
      { name: "again", position: appended.position, error: null },
    ]);
  });

  it("waitForPosition answers false when the position is not reached in time", async () => {
    const live = runner([countingProjector()]);
    await live.start();
    const started = Date.now();
    expect(await live.waitForPosition(1_000, 100)).toBe(false);
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it("resumes from its checkpoint after being stopped mid-way, without counting anything twice", async () => {
    const head = await appendHistory(6);
    const slow = countingProjector({ delayMs: 2 });
    const first = runner([slow]);
    await first.start();
    expect(await first.waitForPosition(15)).toBe(true);
    await first.stop();
    const checkpoint = first.status()[0].position;
    expect(checkpoint).toBeGreaterThanOrEqual(15);
    expect(checkpoint).toBeLessThan(head);
    expect((await readModels.collection<{ id: string; position: number }>(CHECKPOINT_COLLECTION).get("counts"))?.position).toBe(checkpoint);

    const resumed = countingProjector();
    const second = runner([resumed]);
    await second.start();
    expect(await second.waitForPosition(head)).toBe(true);
    // Only the events after the checkpoint were handled again.
    expect(resumed.handled).toBe(head - checkpoint);
    const streams = await readModels.collection<StreamCount>("counts_by_stream").find();
    expect(streams.map((s) => s.count)).toEqual(Array(10).fill(6));
    const types = await readModels.collection<TypeCount>("counts_by_type").find();
    expect(types.map((t) => [t.id, t.count])).toEqual([
      ["Even", 30],
      ["Odd", 30],
    ]);
  });

  it("a projector given the same event twice leaves the read models unchanged", async () => {
    const head = await appendHistory(2);
    const live = runner([countingProjector()]);
    await live.start();
    await live.waitForPosition(head);
    const before = await dumpAll(readModels);

    const projector = countingProjector();
    const [event] = await eventStore.readAll(head - 1, 1);
    await readModels.transaction(() => projector.handle(event, readModels));
    // A lost checkpoint makes the runner redeliver everything: still no change.
    await live.stop();
    await readModels.collection(CHECKPOINT_COLLECTION).delete("counts");
    const again = runner([countingProjector()]);
    await again.start();
    await again.waitForPosition(head);
    expect(await dumpAll(readModels)).toEqual(before);
  });

  it("a rebuild from position 0 into fresh read models gives exactly the documents of the live run", async () => {
    const live = runner([countingProjector(), countingProjector({ name: "again" })]);
    await live.start();
    // Live run: the projectors follow appends as they happen.
    let head = await appendHistory(3);
    await live.waitForPosition(head);
    head = await appendHistory(4);
    expect(await live.waitForPosition(head)).toBe(true);

    const fresh = openReadModels("rebuilt.db");
    const result = await rebuildProjections(eventStore, fresh, [countingProjector(), countingProjector({ name: "again" })], {
      batchSize: 7,
    });
    expect(result.events).toBe(head);

    const liveDump = await dumpAll(readModels);
    const rebuiltDump = await dumpAll(fresh);
    expect(Object.keys(liveDump)).toEqual([
      "again_by_stream",
      "again_by_type",
      "counts_by_stream",
      "counts_by_type",
      CHECKPOINT_COLLECTION,
    ]);
    expect(rebuiltDump).toEqual(liveDump);
  });

  it("a rebuild in place drops the old documents and checkpoint first", async () => {
    const head = await appendHistory(2);
    const stale = readModels.collection<StreamCount>("counts_by_stream");
    await stale.upsert({ id: "counter-99", count: 42, lastVersion: 41 });
    await readModels.collection<StreamCount>("counts_by_stream_archive").upsert({ id: "kept", count: 1, lastVersion: 0 });
    await rebuildProjections(eventStore, readModels, [countingProjector()]);
    expect(await stale.get("counter-99")).toBeNull();
    expect(await stale.count()).toBe(10);
    expect(await readModels.collection(CHECKPOINT_COLLECTION).get("counts")).toEqual({ id: "counts", position: head });
    // A collection that merely shares the name prefix belongs to someone else and survives.
    expect(await readModels.collection("counts_by_stream_archive").count()).toBe(1);
  });

  it("a failing projector reports its error, retries with backoff, and does not hold up the others", async () => {
    await appendHistory(1);
    const poison = await eventStore.append("counter-0", [newEvent("Poison")], "any");
    const head = await appendHistory(1);
    const poisoned = poisonProjector();
    const live = runner([countingProjector(), poisoned]);
    await live.start();

    await new Promise((r) => setTimeout(r, 700));
    const [healthy, failing] = live.status();
    expect(healthy).toEqual({ name: "counts", position: head, error: null });
    expect(failing.name).toBe("poisoned");
    expect(failing.position).toBe(poison.position - 1);
    expect(failing.error).toMatch(/cannot project Poison/);
    // 100, 200, 400, 400 ms backoff: a handful of attempts, not a spin (recovery below proves it retries).
    expect(poisoned.attempts).toBeGreaterThanOrEqual(1);
    expect(poisoned.attempts).toBeLessThanOrEqual(5);
    expect(await live.waitForPosition(head, 100)).toBe(false);
    // Nothing of the failed event was half-applied.
    expect(await readModels.collection("poisoned_seen").count()).toBe(10);

    poisoned.cured = true;
    expect(await live.waitForPosition(head, 3_000)).toBe(true);
    expect(live.status()[1]).toEqual({ name: "poisoned", position: head, error: null });
  });
});
