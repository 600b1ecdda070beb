import { EventEmitter } from "node:events";
import type Database from "better-sqlite3";
import type {
  AppendResult,
  EventMetadata,
  EventStore,
  ExpectedVersion,
  NewEvent,
  RecordedEvent,
  SubscribeOptions,
  Subscription,
} from "#application/ports/event-store";
import { WrongExpectedVersionError } from "#application/ports/event-store";
import { commitsElsewhere } from "./open-database";

/**
 * An append reused event ids of its stream in a way that is not a plain retry
 * of an earlier append (in another order, or only some of them).
 */
export class DuplicateEventIdError extends Error {
  constructor(
    readonly streamId: string,
    readonly eventIds: string[],
  ) {
    super(`Event ids already used outside an identical earlier append to ${streamId}: ${eventIds.join(", ")}`);
    this.name = "DuplicateEventIdError";
  }
}

export interface SqliteEventStoreOptions {
  /** How often live subscriptions look for events written by other connections/processes. */
  pollIntervalMs?: number;
  /**
   * How often live subscriptions ask SQLite whether another connection or
   * process committed (a web process's append seen by the background process's
   * projectors, ARCHITECTURE §4 "Processes"); a cheap pragma, no query.
   */
  changeCheckMs?: number;
  clock?: () => Date;
}

interface EventRow {
  position: number;
  event_id: string;
  stream_id: string;
  stream_version: number;
  type: string;
  schema_version: number;
  data: string;
  metadata: string;
  recorded_at: string;
}

interface ExistingIdRow {
  event_id: string;
  stream_version: number;
  position: number;
}

const CATCH_UP_BATCH = 500;

/**
 * Every query here reads by stream (stream id and version: the unique index)
 * or by position (the rowid), so those are the only indexes an append pays for.
 * The position is the plain rowid (max + 1): events are never deleted, so it
 * is never reused, and AUTOINCREMENT's extra write per append buys nothing.
 */
const SCHEMA = `
CREATE TABLE IF NOT EXISTS events (
  position INTEGER PRIMARY KEY,
  event_id TEXT NOT NULL,
  stream_id TEXT NOT NULL,
  stream_version INTEGER NOT NULL,
  type TEXT NOT NULL,
  schema_version INTEGER NOT NULL,
  data TEXT NOT NULL,
  metadata TEXT NOT NULL,
  recorded_at TEXT NOT NULL,
  UNIQUE (stream_id, stream_version)
);
`;

/**
 * Databases created before decision 165 have a unique index on event_id and an
 * AUTOINCREMENT position: copy their events, positions unchanged, into the
 * current table. Under the write lock, so a second process starting at the
 * same time finds the work done.
 */
function migrateEventsTable(db: Database.Database): void {
  const legacy = () => {
    const row = db.prepare<[], { sql: string }>("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'events'").get();
    return row !== undefined && /AUTOINCREMENT|event_id TEXT NOT NULL UNIQUE/i.test(row.sql);
  };
  if (!legacy()) return;
  db.transaction(() => {
    if (!legacy()) return;
    db.exec(`
      ${SCHEMA.replace("CREATE TABLE IF NOT EXISTS events", "CREATE TABLE events_current")}
      INSERT INTO events_current (position, event_id, stream_id, stream_version, type, schema_version, data, metadata, recorded_at)
        SELECT position, event_id, stream_id, stream_version, type, schema_version, data, metadata, recorded_at FROM events ORDER BY position;
      DROP TABLE events;
      ALTER TABLE events_current RENAME TO events;
    `);
  }).immediate();
}

function toRecorded(row: EventRow): RecordedEvent {
  return {
    eventId: row.event_id,
    streamId: row.stream_id,
    streamVersion: row.stream_version,
    position: row.position,
    type: row.type,
    schemaVersion: row.schema_version,
    data: JSON.parse(row.data) as Record<string, unknown>,
    metadata: JSON.parse(row.metadata) as EventMetadata,
    recordedAt: row.recorded_at,
  };
}

/**
 * Embedded event store on one SQLite table. The global position is the
 * rowid: appends take SQLite's single write lock (BEGIN IMMEDIATE), so
 * positions are strictly increasing in commit order and, since events are
 * never deleted, never reused.
 *
 * Ownership: the store does not own `db`. close() stops its subscriptions and
 * refuses further work, but whoever opened the database closes it (the same
 * connection may serve other adapters).
 *
 * Give the event store its own connection (ideally its own file): a read-model
 * transaction that stays open across awaits on a shared connection would
 * otherwise swallow event appends into it. append() refuses to run inside a
 * foreign open transaction rather than risk that.
 */
export class SqliteEventStore implements EventStore {
  private readonly emitter = new EventEmitter();
  private readonly subscriptions = new Set<CatchUpSubscription>();
  private readonly pollIntervalMs: number;
  private readonly changeCheckMs: number;
  private readonly clock: () => Date;
  private closed = false;
  private changeWatch: NodeJS.Timeout | null = null;

  private readonly currentVersionStmt: Database.Statement<[string], { version: number | null; position: number | null }>;
  private readonly existingIdsStmt: Database.Statement<[string, string], ExistingIdRow>;
  private readonly insertStmt: Database.Statement<[string, string, number, string, number, string, string, string]>;
  private readonly readStreamStmt: Database.Statement<[string, number], EventRow>;
  private readonly readAllStmt: Database.Statement<[number, number], EventRow>;
  private readonly headStmt: Database.Statement<[], { head: number | null }>;
  private readonly appendTx: (streamId: string, events: NewEvent[], expected: ExpectedVersion) => AppendResult;

  constructor(
    private readonly db: Database.Database,
    options: SqliteEventStoreOptions = {},
  ) {
    this.pollIntervalMs = options.pollIntervalMs ?? 250;
    this.changeCheckMs = options.changeCheckMs ?? 10;
    this.clock = options.clock ?? (() => new Date());
    // Every subscription listens; the default limit of 10 would only produce a warning.
    this.emitter.setMaxListeners(0);
    migrateEventsTable(db);
    db.exec(SCHEMA);

    this.currentVersionStmt = db.prepare(
      "SELECT MAX(stream_version) AS version, MAX(position) AS position FROM events WHERE stream_id = ?",
    );
    // Walks the stream's entries of the (stream_id, stream_version) index: no index on event_id to pay for on every append.
    this.existingIdsStmt = db.prepare(
      "SELECT event_id, stream_version, position FROM events WHERE stream_id = ? AND event_id IN (SELECT value FROM json_each(?))",
    );
    this.insertStmt = db.prepare(
      `INSERT INTO events (event_id, stream_id, stream_version, type, schema_version, data, metadata, recorded_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.readStreamStmt = db.prepare(
      "SELECT * FROM events WHERE stream_id = ? AND stream_version >= ? ORDER BY stream_version",
    );
    this.readAllStmt = db.prepare("SELECT * FROM events WHERE position > ? ORDER BY position LIMIT ?");
    this.headStmt = db.prepare("SELECT MAX(position) AS head FROM events");

    const tx = db.transaction((streamId: string, events: NewEvent[], expected: ExpectedVersion) =>
      this.appendInTransaction(streamId, events, expected),
    );
    // IMMEDIATE takes the write lock before reading the version, so two processes cannot both pass the check.
    this.appendTx = (streamId, events, expected) => tx.immediate(streamId, events, expected);
  }

  async append(streamId: string, events: NewEvent[], expectedVersion: ExpectedVersion): Promise<AppendResult> {
    this.assertOpen();
    if (this.db.inTransaction) {
      throw new Error("SqliteEventStore: the connection is inside another transaction; give the event store its own connection");
    }
    const result = this.appendTx(streamId, events, expectedVersion);
    if (events.length > 0) this.emitter.emit("appended");
    return result;
  }

  private appendInTransaction(streamId: string, events: NewEvent[], expected: ExpectedVersion): AppendResult {
    const current = this.currentVersionStmt.get(streamId);
    const currentVersion = current?.version ?? -1;

    const retry = this.matchEarlierAppend(streamId, events, currentVersion);
    if (retry) return retry;

    const ok =
      expected === "any" ||
      (expected === "no_stream" && currentVersion === -1) ||
      (expected === "stream_exists" && currentVersion >= 0) ||
      (typeof expected === "number" && expected === currentVersion);
    if (!ok) throw new WrongExpectedVersionError(streamId, expected, currentVersion);

    if (events.length === 0) return { nextExpectedVersion: currentVersion, position: current?.position ?? 0 };

    const recordedAt = this.clock().toISOString();
    let version = currentVersion;
    let position = 0;
    for (const event of events) {
      version += 1;
      const info = this.insertStmt.run(
        event.eventId,
        streamId,
        version,
        event.type,
        event.schemaVersion,
        JSON.stringify(event.data),
        JSON.stringify(event.metadata),
        recordedAt,
      );
      position = Number(info.lastInsertRowid);
    }
    return { nextExpectedVersion: version, position };
  }

  /**
   * An append whose ids are all already in this stream, consecutively and in
   * the same order, is a retry: answer what the first append answered. Any
   * other reuse of the stream's ids is a conflict. Ids are checked per stream,
   * as EventStoreDB does: across streams they are UUIDv7, and ids derived from
   * outside (a payment's) retry within their own stream; a global index on
   * them cost every append and served no read (decision 165).
   */
  private matchEarlierAppend(streamId: string, events: NewEvent[], currentVersion: number): AppendResult | null {
    const ids = events.map((e) => e.eventId);
    const seen = new Set<string>();
    const repeated = ids.find((id) => seen.size === seen.add(id).size);
    if (repeated) throw new DuplicateEventIdError(streamId, [repeated]);
    // A new stream holds no ids to repeat.
    if (currentVersion < 0) return null;
    const byId = new Map(this.existingIdsStmt.all(streamId, JSON.stringify(ids)).map((row) => [row.event_id, row]));
    if (byId.size === 0) return null;
    const found = ids.map((id) => byId.get(id));
    const first = found[0];
    const isRetry = first !== undefined && found.every((row, i) => row !== undefined && row.stream_version === first.stream_version + i);
    if (!isRetry) throw new DuplicateEventIdError(streamId, [...byId.keys()]);
    const last = found[found.length - 1] as ExistingIdRow;
    return { nextExpectedVersion: last.stream_version, position: last.position };
  }

  async readStream(streamId: string, options: { fromVersion?: number } = {}): Promise<RecordedEvent[]> {
    this.assertOpen();
    return this.readStreamStmt.all(streamId, options.fromVersion ?? 0).map(toRecorded);
  }

  async readAll(fromPosition: number, limit: number): Promise<RecordedEvent[]> {
    this.assertOpen();
    return this.readAllSync(fromPosition, limit);
  }

  /** @internal used by subscriptions */
  readAllSync(fromPosition: number, limit: number): RecordedEvent[] {
    return this.readAllStmt.all(fromPosition, limit).map(toRecorded);
  }

  async headPosition(): Promise<number> {
    this.assertOpen();
    return this.headStmt.get()?.head ?? 0;
  }

  subscribeToAll(options: SubscribeOptions): Subscription {
    this.assertOpen();
    const subscription = new CatchUpSubscription(this, this.emitter, this.pollIntervalMs, options, () =>
      this.subscriptions.delete(subscription),
    );
    this.subscriptions.add(subscription);
    subscription.start();
    this.watchOtherWriters();
    return subscription;
  }

  /**
   * While anyone subscribes, wakes the subscriptions as soon as another
   * connection commits: SQLite bumps `data_version` for every commit made by
   * another connection (never for this one's own, which emit directly).
   */
  private watchOtherWriters(): void {
    if (this.changeWatch) return;
    const writtenElsewhere = commitsElsewhere(this.db);
    this.changeWatch = setInterval(() => {
      if (this.subscriptions.size === 0 || !this.db.open) return this.stopWatching();
      if (writtenElsewhere()) this.emitter.emit("appended");
    }, this.changeCheckMs);
    this.changeWatch.unref();
  }

  private stopWatching(): void {
    if (this.changeWatch) clearInterval(this.changeWatch);
    this.changeWatch = null;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.stopWatching();
    await Promise.all([...this.subscriptions].map((s) => s.stop()));
  }

  private assertOpen(): void {
    if (this.closed) throw new Error("SqliteEventStore is closed");
  }
}

/**
 * Reads history in batches, then waits for a wake-up: an in-process append
 * (immediate) or the poll timer (appends by other connections or processes).
 * One loop per subscription, so handler calls never overlap.
 */
class CatchUpSubscription implements Subscription {
  private running = true;
  /** Set by every wake-up so one arriving while we read is not lost. */
  private dirty = false;
  private wake: (() => void) | null = null;
  private loop: Promise<void> = Promise.resolve();
  private position: number;
  private readonly onAppended = () => this.notify();

  constructor(
    private readonly store: SqliteEventStore,
    private readonly emitter: EventEmitter,
    private readonly pollIntervalMs: number,
    private readonly options: SubscribeOptions,
    private readonly onFinished: () => void,
  ) {
    this.position = options.fromPosition;
  }

  start(): void {
    this.emitter.on("appended", this.onAppended);
    this.loop = this.run().finally(() => {
      this.emitter.off("appended", this.onAppended);
      this.onFinished();
    });
  }

  private notify(): void {
    this.dirty = true;
    this.wake?.();
  }

  private async run(): Promise<void> {
    // Let the caller keep the Subscription handle before the first delivery.
    await Promise.resolve();
    while (this.running) {
      this.dirty = false;
      let batch: RecordedEvent[];
      try {
        batch = this.store.readAllSync(this.position, CATCH_UP_BATCH);
      } catch (error) {
        this.fail(error);
        return;
      }
      for (const event of batch) {
        if (!this.running) return;
        try {
          await this.options.onEvent(event);
        } catch (error) {
          this.fail(error);
          return;
        }
        this.position = event.position;
      }
      if (batch.length === CATCH_UP_BATCH || this.dirty) continue;
      // Stopped while an event was being handled: stop() found no sleep to wake, and this one's timer is unref'd.
      if (!this.running) return;
      await this.sleep();
    }
  }

  private fail(error: unknown): void {
    this.running = false;
    this.options.onError?.(error);
  }

  private sleep(): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wake = null;
        resolve();
      };
      const timer = setTimeout(done, this.pollIntervalMs);
      // A live subscription alone should not keep a CLI or test process alive.
      timer.unref();
      this.wake = done;
    });
  }

  /** Must not be awaited from inside onEvent of this subscription (it waits for that very call). */
  async stop(): Promise<void> {
    this.running = false;
    this.wake?.();
    await this.loop;
  }
}
