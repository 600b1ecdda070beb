import type {
  AllStreamRecordedEvent,
  AllStreamResolvedEvent,
  AllStreamSubscription,
  AppendExpectedRevision,
  CurrentRevision,
  EventStoreDBClient,
  ReadPosition,
  RecordedEvent as EsdbRecordedEvent,
} from "@eventstore/db-client";
import { v5 as uuidv5, validate as isUuid } from "uuid";
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

/** The client library: imported when a store is opened, not with the server bundle (decision 253). */
type Esdb = typeof import("@eventstore/db-client");

/** Namespace for turning application event ids that are not UUIDs into stable UUIDs (EventStoreDB requires UUIDs). */
const EVENT_ID_NAMESPACE = "3b0f6f0e-4f9c-4b64-9d1e-8b1f2f0c7a11";

/** What the adapter keeps in EventStoreDB's metadata slot: the port's metadata plus what ESDB has no field for. */
interface StoredMetadata {
  eventId: string;
  schemaVersion: number;
  metadata: EventMetadata;
  /** Set by importRecorded: when the event was first recorded (in the installation it was copied from). */
  recordedAt?: string;
}

export interface EventStoreDbEventStoreOptions {
  /** Events read per round trip while catching up or scanning $all (default 500). */
  batchSize?: number;
}

function isStoredMetadata(value: unknown): value is StoredMetadata {
  if (typeof value !== "object" || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v.eventId === "string" && typeof v.schemaVersion === "number" && typeof v.metadata === "object";
}

/** Application events only: EventStoreDB's own ($-prefixed) streams and types are not part of the log we expose. */
function isApplicationEvent(event: EsdbRecordedEvent | undefined): event is EsdbRecordedEvent {
  return event !== undefined && !event.streamId.startsWith("$") && !event.type.startsWith("$") && isStoredMetadata(event.metadata);
}

/**
 * Global position of an event. Events written by the gRPC API are implicit
 * transactions whose commit position equals their own prepare position, so the
 * commit position is unique per event and increases in commit order. Log
 * offsets stay far below 2^53 in any realistic deployment; larger ones refuse
 * loudly rather than lose precision.
 */
function toPosition(commit: bigint): number {
  if (commit > BigInt(Number.MAX_SAFE_INTEGER)) throw new Error(`EventStoreDB position ${commit} exceeds 2^53`);
  return Number(commit);
}

function toReadPosition(esdb: Esdb, position: number): ReadPosition {
  if (position <= 0) return esdb.START;
  const p = BigInt(position);
  return { commit: p, prepare: p };
}

function toRecorded(event: EsdbRecordedEvent): RecordedEvent {
  const stored = event.metadata as unknown as StoredMetadata;
  if (!event.position) throw new Error(`EventStoreDB returned event ${event.id} without a position`);
  return {
    eventId: stored.eventId,
    streamId: event.streamId,
    streamVersion: Number(event.revision),
    position: toPosition(event.position.commit),
    type: event.type,
    schemaVersion: stored.schemaVersion,
    data: event.data as Record<string, unknown>,
    metadata: stored.metadata,
    recordedAt: stored.recordedAt ?? event.created.toISOString(),
  };
}

function toEsdbExpected(esdb: Esdb, expected: ExpectedVersion): AppendExpectedRevision {
  if (expected === "any") return esdb.ANY;
  if (expected === "no_stream") return esdb.NO_STREAM;
  if (expected === "stream_exists") return esdb.STREAM_EXISTS;
  return BigInt(expected);
}

function fromCurrentRevision(esdb: Esdb, revision: CurrentRevision): number {
  return revision === esdb.NO_STREAM ? -1 : Number(revision);
}

/** EventStoreDB ids must be UUIDs; other application ids map to a stable UUIDv5 (the original travels in metadata). */
export function esdbEventId(eventId: string): string {
  return isUuid(eventId) ? eventId.toLowerCase() : uuidv5(eventId, EVENT_ID_NAMESPACE);
}

/**
 * The event store port on EventStoreDB (ARCHITECTURE §4, `EVENTSTORE_URL`).
 *
 * - Appends map the port's expected versions onto ESDB's expected revisions, so
 *   optimistic concurrency is enforced by the server.
 * - Idempotent retries come from ESDB itself: re-appending the same event ids at
 *   the same expected version is acknowledged without writing (the answer is then
 *   completed from the stream, because ESDB omits the position on such replies).
 * - `position` is the event's commit position in `$all`; reading and the
 *   catch-up subscription skip ESDB's system events. Projectors store their
 *   checkpoint (this position) in the read-model store and resume from it.
 */
export class EventStoreDbEventStore implements EventStore {
  private readonly subscriptions = new Set<EsdbCatchUpSubscription>();
  private readonly batchSize: number;
  private closed = false;

  private constructor(
    private readonly esdb: Esdb,
    private readonly client: EventStoreDBClient,
    options: EventStoreDbEventStoreOptions = {},
  ) {
    // At least 2: a page re-reads its starting event, so one-event pages would not advance.
    this.batchSize = Math.max(2, options.batchSize ?? 500);
  }

  /** e.g. `esdb://localhost:2113?tls=false` */
  static async fromConnectionString(url: string, options?: EventStoreDbEventStoreOptions): Promise<EventStoreDbEventStore> {
    const esdb = await import("@eventstore/db-client");
    return new EventStoreDbEventStore(esdb, esdb.EventStoreDBClient.connectionString(url), options);
  }

  async append(streamId: string, events: NewEvent[], expectedVersion: ExpectedVersion): Promise<AppendResult> {
    return this.write(streamId, events, expectedVersion);
  }

  /**
   * Copies events recorded elsewhere (scripts/migrate-to-production.ts): same
   * ids, same stream versions (the expected version is the one before the
   * first), and their original recordedAt. Running it again is a no-op thanks
   * to idempotent appends by event id.
   */
  async importRecorded(events: RecordedEvent[]): Promise<AppendResult> {
    if (events.length === 0) throw new Error("importRecorded needs at least one event");
    const [first] = events;
    events.forEach((e, i) => {
      if (e.streamId !== first.streamId || e.streamVersion !== first.streamVersion + i) {
        throw new Error(`importRecorded takes consecutive events of one stream (${first.streamId})`);
      }
    });
    const expected: ExpectedVersion = first.streamVersion === 0 ? "no_stream" : first.streamVersion - 1;
    return this.write(first.streamId, events, expected, (e) => (e as RecordedEvent).recordedAt);
  }

  private async write(
    streamId: string,
    events: NewEvent[],
    expectedVersion: ExpectedVersion,
    originalRecordedAt?: (event: NewEvent) => string,
  ): Promise<AppendResult> {
    this.assertOpen();
    const seen = new Set<string>();
    for (const event of events) {
      if (seen.has(event.eventId)) throw new Error(`Event id ${event.eventId} appears twice in one append to ${streamId}`);
      seen.add(event.eventId);
    }
    if (events.length === 0) return this.emptyAppend(streamId, expectedVersion);
    if (expectedVersion === "any" || expectedVersion === "stream_exists") {
      // ESDB's own id check is authoritative for exact expected versions only; for these it is best effort.
      const retry = await this.matchRecentAppend(streamId, events);
      if (retry) return retry;
    }

    const data = events.map((event) =>
      this.esdb.jsonEvent({
        id: esdbEventId(event.eventId),
        type: event.type,
        data: event.data,
        metadata: {
          eventId: event.eventId,
          schemaVersion: event.schemaVersion,
          metadata: event.metadata,
          ...(originalRecordedAt ? { recordedAt: originalRecordedAt(event) } : {}),
        } satisfies StoredMetadata,
      }),
    );
    try {
      const result = await this.client.appendToStream(streamId, data, { expectedRevision: toEsdbExpected(this.esdb, expectedVersion) });
      const nextExpectedVersion = Number(result.nextExpectedRevision);
      if (result.position) return { nextExpectedVersion, position: toPosition(result.position.commit) };
      // An idempotent retry: ESDB acknowledges it without a position; answer what the first append answered.
      const [last] = await this.readRecorded(streamId, BigInt(nextExpectedVersion), 1, this.esdb.FORWARDS);
      return { nextExpectedVersion, position: last?.position ?? 0 };
    } catch (error) {
      if (error instanceof this.esdb.WrongExpectedVersionError) {
        throw new WrongExpectedVersionError(streamId, expectedVersion, fromCurrentRevision(this.esdb, error.actualVersion));
      }
      throw error;
    }
  }

  /**
   * An append whose ids are the stream's last events, in order, is a retry:
   * answer what the first append answered. Ids reused any other way near the
   * end of the stream are refused rather than written twice.
   */
  private async matchRecentAppend(streamId: string, events: NewEvent[]): Promise<AppendResult | null> {
    const window = events.length * 2 + 8;
    const tail = (await this.readRecorded(streamId, this.esdb.END, window, this.esdb.BACKWARDS)).reverse();
    const ids = new Set(events.map((e) => e.eventId));
    const found = tail.filter((e) => ids.has(e.eventId));
    if (found.length === 0) return null;
    const isRetry =
      found.length === events.length &&
      found.every((e, i) => e.eventId === events[i].eventId && e.streamVersion === found[0].streamVersion + i);
    if (!isRetry) throw new Error(`Event ids already used in ${streamId}: ${found.map((e) => e.eventId).join(", ")}`);
    const last = found[found.length - 1];
    return { nextExpectedVersion: last.streamVersion, position: last.position };
  }

  /** ESDB rejects empty appends; check the expectation ourselves and report the stream as it is. */
  private async emptyAppend(streamId: string, expected: ExpectedVersion): Promise<AppendResult> {
    const [last] = await this.readRecorded(streamId, this.esdb.END, 1, this.esdb.BACKWARDS);
    const current = last?.streamVersion ?? -1;
    const ok =
      expected === "any" ||
      (expected === "no_stream" && current === -1) ||
      (expected === "stream_exists" && current >= 0) ||
      expected === current;
    if (!ok) throw new WrongExpectedVersionError(streamId, expected, current);
    return { nextExpectedVersion: current, position: last?.position ?? 0 };
  }

  async readStream(streamId: string, options: { fromVersion?: number } = {}): Promise<RecordedEvent[]> {
    this.assertOpen();
    return this.readRecorded(streamId, BigInt(options.fromVersion ?? 0), undefined, this.esdb.FORWARDS);
  }

  private async readRecorded(
    streamId: string,
    fromRevision: bigint | Esdb["END"],
    maxCount: number | undefined,
    direction: Esdb["FORWARDS"] | Esdb["BACKWARDS"],
  ): Promise<RecordedEvent[]> {
    const events: RecordedEvent[] = [];
    try {
      for await (const resolved of this.client.readStream(streamId, {
        fromRevision,
        direction,
        ...(maxCount === undefined ? {} : { maxCount }),
      })) {
        if (isApplicationEvent(resolved.event)) events.push(toRecorded(resolved.event));
      }
    } catch (error) {
      if (error instanceof this.esdb.StreamNotFoundError) return [];
      throw error;
    }
    return events;
  }

  async readAll(fromPosition: number, limit: number): Promise<RecordedEvent[]> {
    this.assertOpen();
    const result: RecordedEvent[] = [];
    let cursor: ReadPosition = toReadPosition(this.esdb, fromPosition);
    // Everything at or below floor has been handled (reads are inclusive of their start position).
    let floor = fromPosition;
    // System events interleave with ours, so a page of $all may hold fewer than `limit` application events.
    for (;;) {
      const page: AllStreamRecordedEvent[] = [];
      for await (const resolved of this.client.readAll({ fromPosition: cursor, maxCount: this.batchSize, direction: this.esdb.FORWARDS })) {
        if (resolved.event) page.push(resolved.event);
      }
      for (const event of page) {
        if (!isApplicationEvent(event)) continue;
        const recorded = toRecorded(event);
        if (recorded.position <= floor) continue;
        result.push(recorded);
        if (result.length >= limit) return result;
      }
      if (page.length < this.batchSize) return result;
      const last = page[page.length - 1].position;
      // The next page starts at the last event read (inclusive) and skips it through floor.
      cursor = last;
      floor = Math.max(floor, toPosition(last.commit));
    }
  }

  async headPosition(): Promise<number> {
    this.assertOpen();
    let cursor: ReadPosition = this.esdb.END;
    for (;;) {
      const page: AllStreamResolvedEvent[] = [];
      for await (const resolved of this.client.readAll({ fromPosition: cursor, maxCount: this.batchSize, direction: this.esdb.BACKWARDS })) {
        page.push(resolved);
      }
      for (const resolved of page) {
        if (isApplicationEvent(resolved.event)) return toRecorded(resolved.event).position;
      }
      const last = page[page.length - 1]?.event?.position;
      if (page.length < this.batchSize || !last) return 0;
      cursor = last;
    }
  }

  subscribeToAll(options: SubscribeOptions): Subscription {
    this.assertOpen();
    const subscription = new EsdbCatchUpSubscription(
      this.client.subscribeToAll({ fromPosition: toReadPosition(this.esdb, options.fromPosition), filter: this.esdb.excludeSystemEvents() }),
      options,
      () => this.subscriptions.delete(subscription),
    );
    this.subscriptions.add(subscription);
    subscription.start();
    return subscription;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.all([...this.subscriptions].map((s) => s.stop()));
    await this.client.dispose();
  }

  private assertOpen(): void {
    if (this.closed) throw new Error("EventStoreDbEventStore is closed");
  }
}

/**
 * ESDB's catch-up subscription (history, then live) with the port's semantics:
 * one handler call at a time, strictly after fromPosition, stop() waits for the
 * handler in flight, a throwing handler ends the subscription through onError.
 */
class EsdbCatchUpSubscription implements Subscription {
  private running = true;
  private position: number;
  private loop: Promise<void> = Promise.resolve();

  constructor(
    private readonly stream: AllStreamSubscription,
    private readonly options: SubscribeOptions,
    private readonly onFinished: () => void,
  ) {
    this.position = options.fromPosition;
  }

  start(): void {
    this.loop = this.run().finally(this.onFinished);
  }

  private async run(): Promise<void> {
    try {
      for await (const resolved of this.stream) {
        if (!this.running) break;
        const event = (resolved as AllStreamResolvedEvent).event;
        if (!isApplicationEvent(event)) continue;
        const recorded = toRecorded(event);
        if (recorded.position <= this.position) continue;
        try {
          await this.options.onEvent(recorded);
        } catch (error) {
          this.running = false;
          await this.stream.unsubscribe().catch(() => undefined);
          this.options.onError?.(error);
          return;
        }
        this.position = recorded.position;
        if (!this.running) break;
      }
    } catch (error) {
      // Unsubscribing cancels the gRPC call; only a failure while running is an error.
      if (this.running) {
        this.running = false;
        this.options.onError?.(error);
      }
    }
  }

  async stop(): Promise<void> {
    if (this.running) {
      this.running = false;
      await this.stream.unsubscribe().catch(() => undefined);
    }
    await this.loop;
  }
}
