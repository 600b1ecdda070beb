/**
 * Event store and projection throughput, each beside raw better-sqlite3
 * inserts of the same rows measured in the same run (ARCHITECTURE §10), so the
 * ratio means something on a noisy machine. Not a test: nothing is asserted.
 *
 *   npx tsx bench/event-store.bench.ts
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { v7 as uuidv7 } from "uuid";
import { z } from "zod";
import type Database from "better-sqlite3";
import type { NewEvent, RecordedEvent } from "#application/ports/event-store";
import type { IdGenerator } from "#application/ports/ids";
import type { Projector } from "#application/ports/projection";
import type { ReadModelStore } from "#application/ports/read-model-store";
import { Aggregate } from "#application/shared/aggregate";
import type { Decider, DomainEvent } from "#domain/shared/decider";
import { eventData } from "#domain/shared/event-schemas";
import { openDatabase } from "#infrastructure/embedded/sqlite/open-database";
import { SqliteEventStore } from "#infrastructure/embedded/sqlite/sqlite-event-store";
import { SqliteReadModelStore } from "#infrastructure/embedded/sqlite/sqlite-read-model-store";
import { rebuildProjections } from "#infrastructure/embedded/projection-runner";

const STREAMS = 1_000;
const COMMANDS_PER_STREAM = 10;
const ROUNDS = 5;
const BATCHES = 1_000;
const BATCH_SIZE = 100;
const REBUILD_BATCH = 1_000;

// A counter aggregate: one event per command.
type CounterEvent = DomainEvent<"CounterIncremented", { by: number; total: number }>;
const counter: Decider<{ by: number }, CounterEvent, { total: number }> = {
  initialState: () => ({ total: 0 }),
  decide: (command, state) => [{ type: "CounterIncremented", data: { by: command.by, total: state.total + command.by } }],
  evolve: (state, event) => ({ total: event.data.total }),
};

const ids: IdGenerator = { next: () => uuidv7() };
const metadata = { correlationId: "bench", actorId: "system" };

// The projector for (c): a running total per stream.
const totals: Projector = {
  name: "bench_totals",
  collections: ["bench_totals"],
  async handle(event: RecordedEvent, store: ReadModelStore) {
    const docs = store.collection<{ id: string; total: number; events: number }>("bench_totals");
    const current = await docs.get(event.streamId);
    await docs.upsert({ id: event.streamId, total: Number(event.data.total ?? 0), events: (current?.events ?? 0) + 1 });
  },
};

interface Row {
  eventId: string;
  streamId: string;
  version: number;
  data: string;
  metadata: string;
}

/** The reference: the same rows into a plain table, no checks, no indexes beyond the rowid. */
function rawInsert(db: Database.Database, rows: Row[], perTransaction: number): number {
  db.exec(
    "CREATE TABLE raw (position INTEGER PRIMARY KEY, event_id TEXT, stream_id TEXT, stream_version INTEGER, type TEXT, schema_version INTEGER, data TEXT, metadata TEXT, recorded_at TEXT)",
  );
  const insert = db.prepare("INSERT INTO raw (event_id, stream_id, stream_version, type, schema_version, data, metadata, recorded_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)");
  const tx = db.transaction((chunk: Row[]) => {
    for (const r of chunk) insert.run(r.eventId, r.streamId, r.version, "CounterIncremented", 1, r.data, r.metadata, new Date().toISOString());
  });
  const started = performance.now();
  for (let i = 0; i < rows.length; i += perTransaction) tx.immediate(rows.slice(i, i + perTransaction));
  const ms = performance.now() - started;
  db.exec("DROP TABLE raw");
  return (rows.length / ms) * 1000;
}

function rowsOf(events: RecordedEvent[]): Row[] {
  return events.map((e) => ({
    eventId: uuidv7(),
    streamId: e.streamId,
    version: e.streamVersion,
    data: JSON.stringify(e.data),
    metadata: JSON.stringify(e.metadata),
  }));
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "docuchat-bench-"));
  const results: { name: string; events: number; perSecond: number; reference: string; referencePerSecond: number }[] = [];
  try {
    const eventsDb = openDatabase(join(dir, "events.db"));
    const rawDb = openDatabase(join(dir, "raw.db"));
    const store = new SqliteEventStore(eventsDb);

    // (a) single-event commands through the real write path: load (or the state remembered at its version),
    // decide, append with the expected version. Rounds alternate with the reference on fresh streams, and the
    // median ratio is reported, so a neighbour's burst of load skews one round and not the figure.
    const counters = new Aggregate(store, ids, {
      decider: counter,
      streamId: (id) => `counter-${id}`,
      events: { CounterIncremented: { version: 1, data: eventData({ by: z.number(), total: z.number() }) } },
    });
    const rounds: { perSecond: number; referencePerSecond: number }[] = [];
    const commandEvents: RecordedEvent[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      const head = await store.headPosition();
      const started = performance.now();
      for (let round = 0; round < COMMANDS_PER_STREAM; round++) {
        for (let s = 0; s < STREAMS; s++) {
          await counters.handle(`${r}-${s}`, { by: 1 }, { metadata });
        }
      }
      const ms = performance.now() - started;
      const appended = await store.readAll(head, STREAMS * COMMANDS_PER_STREAM);
      commandEvents.push(...appended);
      rounds.push({ perSecond: (appended.length / ms) * 1000, referencePerSecond: rawInsert(rawDb, rowsOf(appended), 1) });
    }
    const middle = [...rounds].sort((a, b) => a.perSecond / a.referencePerSecond - b.perSecond / b.referencePerSecond)[Math.floor(ROUNDS / 2)];
    results.push({
      name: `(a) Aggregate.handle (validated), 1 event/append, median of ${ROUNDS}`,
      events: STREAMS * COMMANDS_PER_STREAM,
      perSecond: middle.perSecond,
      reference: "raw insert, 1 row/tx",
      referencePerSecond: middle.referencePerSecond,
    });

    // (b) batched appends: 100 events per append, each to a fresh stream.
    const batch = (b: number): NewEvent[] =>
      Array.from({ length: BATCH_SIZE }, (_, i) => ({
        eventId: uuidv7(),
        type: "CounterIncremented",
        schemaVersion: 1,
        data: { by: 1, total: i + 1, batch: b },
        metadata,
      }));
    const batches = Array.from({ length: BATCHES }, (_, b) => batch(b));
    const headBefore = await store.headPosition();
    const started = performance.now();
    for (let b = 0; b < BATCHES; b++) await store.append(`batch-${b}`, batches[b], "no_stream");
    const ms = performance.now() - started;
    const batchEvents = await store.readAll(headBefore, BATCHES * BATCH_SIZE);
    results.push({
      name: `(b) append, ${BATCH_SIZE} events/append`,
      events: BATCHES * BATCH_SIZE,
      perSecond: ((BATCHES * BATCH_SIZE) / ms) * 1000,
      reference: `raw insert, ${BATCH_SIZE} rows/tx`,
      referencePerSecond: rawInsert(rawDb, rowsOf(batchEvents), BATCH_SIZE),
    });

    // (c) projection rebuild over everything appended above.
    const readModelsDb = openDatabase(join(dir, "read-models.db"));
    const readModels = new SqliteReadModelStore(readModelsDb);
    const rebuild = await rebuildProjections(store, readModels, [totals], { batchSize: REBUILD_BATCH });
    results.push({
      name: "(c) rebuildProjections, 1 projector",
      events: rebuild.events,
      perSecond: (rebuild.events / rebuild.ms) * 1000,
      reference: `raw insert, ${REBUILD_BATCH} rows/tx`,
      referencePerSecond: rawInsert(rawDb, rowsOf([...commandEvents, ...batchEvents]), REBUILD_BATCH),
    });

    await store.close();
    await readModels.close();
    for (const db of [eventsDb, rawDb, readModelsDb]) db.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }

  const fmt = (n: number) => Math.round(n).toLocaleString("en-US");
  const table = results.map((r) => ({
    benchmark: r.name,
    events: fmt(r.events),
    "events/s": fmt(r.perSecond),
    reference: r.reference,
    "reference rows/s": fmt(r.referencePerSecond),
    ratio: `${((r.perSecond / r.referencePerSecond) * 100).toFixed(1)}%`,
  }));
  console.log(`node ${process.version}, ${process.platform}/${process.arch}`);
  console.table(table);
}

await main();
