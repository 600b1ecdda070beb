/**
 * The event store port: the single source of truth. Every adapter (SQLite
 * embedded, EventStoreDB in production) passes tests/contracts/event-store.contract.ts.
 */

/** Metadata carried by every event (ARCHITECTURE §3). */
export interface EventMetadata {
  correlationId: string;
  causationId?: string;
  /** The user on whose behalf the command ran ("system" for workflows). */
  actorId: string;
  /** Set while an admin impersonates a user: the admin's user id. */
  impersonatorId?: string;
  /** Set while an admin impersonates a user: the impersonation (stream `impersonation-<id>`). */
  impersonationId?: string;
  /** Whose personal data the event's `data.personal` holds (crypto-shredding, ARCHITECTURE §7). */
  subjectId?: string;
  /** W3C trace context of the command that appended it, while tracing is on: its projectors join that trace. */
  traceparent?: string;
  tracestate?: string;
}

export interface NewEvent {
  /** Unique id; appending an event id that the stream already holds is a no-op (idempotent retry). */
  eventId: string;
  type: string;
  schemaVersion: number;
  data: Record<string, unknown>;
  metadata: EventMetadata;
}

export interface RecordedEvent extends NewEvent {
  streamId: string;
  /** 0-based position of the event inside its stream. */
  streamVersion: number;
  /** Position in the global log; strictly increasing in commit order, starting at 1. */
  position: number;
  /** ISO-8601 time the store recorded the event. */
  recordedAt: string;
}

/**
 * - a number: the stream's current version (version of its last event; -1 = empty)
 * - 'no_stream': the stream must not exist
 * - 'stream_exists': the stream must exist
 * - 'any': no check
 */
export type ExpectedVersion = number | "no_stream" | "stream_exists" | "any";

export interface AppendResult {
  /** Version of the stream's last event after the append. */
  nextExpectedVersion: number;
  /** Global position of the last event written (or already present). */
  position: number;
}

export class WrongExpectedVersionError extends Error {
  constructor(
    readonly streamId: string,
    readonly expected: ExpectedVersion,
    readonly actual: number,
  ) {
    super(`Wrong expected version for ${streamId}: expected ${String(expected)}, actual ${actual}`);
    this.name = "WrongExpectedVersionError";
  }
}

export interface Subscription {
  /** Stops delivering; resolves once the handler in flight (if any) has finished. */
  stop(): Promise<void>;
}

export interface SubscribeOptions {
  /** Deliver events with position strictly greater than this (0 = from the start). */
  fromPosition: number;
  /** Called once per event, in position order; the next event waits for the promise. */
  onEvent(event: RecordedEvent): Promise<void>;
  /** Called when onEvent throws; the subscription stops after it. */
  onError?(error: unknown): void;
}

export interface EventStore {
  append(streamId: string, events: NewEvent[], expectedVersion: ExpectedVersion): Promise<AppendResult>;
  /** Events of one stream in version order, from `fromVersion` (inclusive, default 0). */
  readStream(streamId: string, options?: { fromVersion?: number }): Promise<RecordedEvent[]>;
  /** Events of every stream with position > fromPosition, in position order, at most `limit`. */
  readAll(fromPosition: number, limit: number): Promise<RecordedEvent[]>;
  /** Position of the last committed event (0 when the log is empty). */
  headPosition(): Promise<number>;
  /** Catch-up subscription to the whole log: first history after fromPosition, then live events. */
  subscribeToAll(options: SubscribeOptions): Subscription;
  close(): Promise<void>;
}
