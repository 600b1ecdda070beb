import type { Decider, DomainEvent } from "#domain/shared/decider";
import { fold } from "#domain/shared/decider";
import type { EventMetadata, EventStore, NewEvent } from "#application/ports/event-store";
import { WrongExpectedVersionError } from "#application/ports/event-store";
import type { IdGenerator } from "#application/ports/ids";

/** Event schemas are versioned; bump when a payload changes shape. */
export const SCHEMA_VERSION = 1;

export interface CommandResult<Event extends DomainEvent> {
  events: Event[];
  /** Global position of the last appended event (0 when nothing was appended): wait on it for read-your-writes. */
  position: number;
  streamVersion: number;
}

export interface HandleOptions {
  metadata: EventMetadata;
  /** Bounded retries on a concurrent write to the same stream (ARCHITECTURE §3). */
  maxAttempts?: number;
  /** Deterministic ids for idempotent retries (workflow activities); defaults to fresh ids. */
  eventIds?: (index: number) => string;
}

/**
 * The write path: read the stream, fold it to state, decide, append with the
 * expected version. A concurrent append makes us re-read and decide again.
 */
export async function handleCommand<Command, Event extends DomainEvent, State>(
  store: EventStore,
  ids: IdGenerator,
  decider: Decider<Command, Event, State>,
  streamId: string,
  command: Command,
  options: HandleOptions,
): Promise<CommandResult<Event>> {
  const maxAttempts = options.maxAttempts ?? 3;
  for (let attempt = 1; ; attempt++) {
    const recorded = await store.readStream(streamId);
    const state = fold(decider, recorded as unknown as Event[]);
    const events = decider.decide(command, state);
    const version = recorded.length - 1;
    if (events.length === 0) return { events, position: 0, streamVersion: version };
    const toAppend: NewEvent[] = events.map((event, index) => ({
      eventId: options.eventIds?.(index) ?? ids.next(),
      type: event.type,
      schemaVersion: SCHEMA_VERSION,
      data: event.data,
      metadata: options.metadata,
    }));
    try {
      const result = await store.append(streamId, toAppend, version < 0 ? "no_stream" : version);
      return { events, position: result.position, streamVersion: result.nextExpectedVersion };
    } catch (error) {
      if (error instanceof WrongExpectedVersionError && attempt < maxAttempts) continue;
      throw error;
    }
  }
}
