import type { DomainEvent } from "#domain/shared/decider";
import { type AggregateDefinition, readEvent, writeEvent } from "#domain/shared/event-schemas";
import type { EventMetadata, EventStore, NewEvent } from "#application/ports/event-store";
import { WrongExpectedVersionError } from "#application/ports/event-store";
import type { IdGenerator } from "#application/ports/ids";
import { refuseDuringImpersonation } from "./impersonation-guard";

/** The aggregate's current state and the stream version it was folded from (-1: no stream yet). */
export interface Loaded<Event extends DomainEvent, State> {
  state: State;
  version: number;
  events: Event[];
}

export interface CommandResult<Event extends DomainEvent, State = unknown> {
  events: Event[];
  /** Global position of the last appended event (0 when nothing was appended): wait on it for read-your-writes. */
  position: number;
  streamVersion: number;
  /** The state after the new events. */
  state: State;
}

export interface CommandContext<Event extends DomainEvent = DomainEvent, State = unknown> {
  metadata: EventMetadata;
  /** Only a command that ends an impersonation passes while an admin impersonates. */
  allowDuringImpersonation?: boolean;
  /** Bounded retries on a concurrent write to the same stream (ARCHITECTURE §3); default 3. */
  maxAttempts?: number;
  /** Deterministic ids for idempotent retries (workflow activities); defaults to fresh ids. */
  eventIds?: (index: number) => string;
  /** State the caller loaded already (saves reading and decrypting the stream again); a conflict reloads. */
  loaded?: Loaded<Event, State>;
}

/**
 * The one write path (ARCHITECTURE §3): load (read, upcast, validate, fold),
 * refuse during impersonation, decide, validate the new events, append with
 * the expected version; a concurrent append to the stream makes it load and
 * decide again, a bounded number of times.
 */
export class Aggregate<Command, Event extends DomainEvent, State> {
  constructor(
    private readonly store: EventStore,
    private readonly ids: IdGenerator,
    private readonly definition: AggregateDefinition<Command, Event, State>,
  ) {}

  streamId(id: string): string {
    return this.definition.streamId(id);
  }

  async load(id: string): Promise<Loaded<Event, State>> {
    const recorded = await this.store.readStream(this.definition.streamId(id));
    const events = recorded.map((stored) => readEvent(this.definition.events, stored));
    const { decider } = this.definition;
    return { state: events.reduce(decider.evolve, decider.initialState()), version: recorded.length - 1, events };
  }

  async handle(id: string, command: Command, context: CommandContext<Event, State>): Promise<CommandResult<Event, State>> {
    refuseDuringImpersonation(context.metadata, context);
    const { decider, events: schemas } = this.definition;
    const streamId = this.definition.streamId(id);
    const maxAttempts = context.maxAttempts ?? 3;
    let loaded = context.loaded;
    for (let attempt = 1; ; attempt++) {
      loaded ??= await this.load(id);
      const decided = decider.decide(command, loaded.state);
      if (decided.length === 0) return { events: [], position: 0, streamVersion: loaded.version, state: loaded.state };
      const toAppend: NewEvent[] = decided.map((event, index) => ({
        eventId: context.eventIds?.(index) ?? this.ids.next(),
        type: event.type,
        schemaVersion: writeEvent(schemas, event).schemaVersion,
        data: event.data,
        metadata: context.metadata,
      }));
      try {
        const result = await this.store.append(streamId, toAppend, loaded.version < 0 ? "no_stream" : loaded.version);
        const state = decided.reduce(decider.evolve, loaded.state);
        return { events: decided, position: result.position, streamVersion: result.nextExpectedVersion, state };
      } catch (error) {
        if (!(error instanceof WrongExpectedVersionError) || attempt >= maxAttempts) throw error;
        loaded = undefined;
      }
    }
  }
}
