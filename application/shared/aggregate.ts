import type { DomainEvent } from "#domain/shared/decider";
import { concurrentChange } from "#domain/shared/domain-error";
import { type AggregateDefinition, readEvent, writeEvent } from "#domain/shared/event-schemas";
import type { EventMetadata, EventStore, NewEvent, RecordedEvent } from "#application/ports/event-store";
import { WrongExpectedVersionError } from "#application/ports/event-store";
import type { IdGenerator } from "#application/ports/ids";
import { noMetrics, type OperationsMetrics } from "#application/ports/metrics";
import { noTracing, type Tracing } from "#application/ports/tracing";
import { refuseDuringImpersonation } from "./impersonation-guard";
import { RecentAggregates } from "./recent-aggregates";

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
  /** The aggregate after the new events: hand it to the next command on the same stream to skip a re-read. */
  after: Loaded<Event, State>;
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

/** Reads an aggregate's stream: every event upcast and validated, then folded. */
export async function loadAggregate<Command, Event extends DomainEvent, State>(
  store: Pick<EventStore, "readStream">,
  definition: AggregateDefinition<Command, Event, State>,
  id: string,
): Promise<Loaded<Event, State>> {
  return foldRecorded(definition, await store.readStream(definition.streamId(id)));
}

/** An aggregate from events already read (the audit reads the raw log with its metadata): validated, upcast, folded. */
export function foldRecorded<Command, Event extends DomainEvent, State>(
  definition: AggregateDefinition<Command, Event, State>,
  recorded: readonly RecordedEvent[],
): Loaded<Event, State> {
  const events = recorded.map((stored) => readEvent(definition.events, stored));
  return { state: events.reduce(definition.decider.evolve, definition.decider.initialState()), version: recorded.length - 1, events };
}

/** One cache per event store and aggregate type, shared by every helper built on them in this process. */
const recentByStore = new WeakMap<EventStore, WeakMap<object, RecentAggregates<never, unknown>>>();

function recentAggregates<Event extends DomainEvent, State>(store: EventStore, definition: object): RecentAggregates<Event, State> {
  let byDefinition = recentByStore.get(store);
  if (!byDefinition) recentByStore.set(store, (byDefinition = new WeakMap()));
  let recent = byDefinition.get(definition);
  if (!recent) byDefinition.set(definition, (recent = new RecentAggregates()));
  return recent as unknown as RecentAggregates<Event, State>;
}

/** The metrics each event store's commands are counted on: the runtime sets it once, so no service needs it injected. */
const metricsByStore = new WeakMap<EventStore, OperationsMetrics>();

export function countCommandsOn(store: EventStore, metrics: OperationsMetrics): void {
  metricsByStore.set(store, metrics);
}

/** Likewise the tracing each event store's commands are traced with (off unless the runtime sets it). */
const tracingByStore = new WeakMap<EventStore, Tracing>();

export function traceCommandsOn(store: EventStore, tracing: Tracing): void {
  tracingByStore.set(store, tracing);
}

/**
 * The one write path (ARCHITECTURE §3): load (read, upcast, validate, fold),
 * refuse during impersonation, decide, validate the new events, append with
 * the expected version; a concurrent append to the stream makes it load and
 * decide again, a bounded number of times.
 *
 * A command decides on the state this process last folded or appended for the
 * stream, when it has one, instead of reading the stream again: the append
 * states that state's version, so a stream that moved on (another process,
 * another writer) fails the append and the command reads afresh, without
 * spending one of its attempts. A refusal, or nothing to do, decided on a
 * remembered state is checked against the stream as it is now before it is
 * answered: the append never runs then, so it cannot tell. `load` always
 * reads the stream.
 */
export class Aggregate<Command, Event extends DomainEvent, State> {
  private readonly recent: RecentAggregates<Event, State>;

  constructor(
    private readonly store: EventStore,
    private readonly ids: IdGenerator,
    private readonly definition: AggregateDefinition<Command, Event, State>,
  ) {
    this.recent = recentAggregates(store, definition);
  }

  streamId(id: string): string {
    return this.definition.streamId(id);
  }

  async load(id: string): Promise<Loaded<Event, State>> {
    const loaded = await loadAggregate(this.store, this.definition, id);
    this.recent.remember(this.definition.streamId(id), loaded);
    return loaded;
  }

  async handle(id: string, command: Command, context: CommandContext<Event, State>): Promise<CommandResult<Event, State>> {
    const tracing = tracingByStore.get(this.store) ?? noTracing;
    if (!tracing.enabled) return this.decideAndAppend(id, command, context, tracing);
    const commandType = (command as { type?: string }).type ?? "unknown";
    return tracing.inSpan(`command ${commandType}`, { attributes: { "docuchat.command": commandType, "docuchat.stream": this.definition.streamId(id) } }, async (span) => {
      const result = await this.decideAndAppend(id, command, context, tracing);
      span.set({ "docuchat.events": result.events.map((event) => event.type).join(","), "docuchat.position": result.position });
      return result;
    });
  }

  private async decideAndAppend(id: string, command: Command, context: CommandContext<Event, State>, tracing: Tracing): Promise<CommandResult<Event, State>> {
    refuseDuringImpersonation(context.metadata, context);
    const { decider, events: schemas } = this.definition;
    const streamId = this.definition.streamId(id);
    const maxAttempts = context.maxAttempts ?? 3;
    const metrics = metricsByStore.get(this.store) ?? noMetrics;
    const commandType = (command as { type?: string }).type ?? "unknown";
    let loaded = context.loaded;
    let remembered = false;
    if (!loaded) {
      loaded = this.recent.get(streamId);
      remembered = loaded !== undefined;
    }
    for (let attempt = 1; ; ) {
      loaded ??= await this.load(id);
      let decided: Event[];
      try {
        decided = decider.decide(command, loaded.state);
      } catch (refusal) {
        // A remembered state may be one another process has overtaken (a member who joined there): only
        // the stream as it is now may refuse a command, so read it and decide again.
        if (!remembered) {
          metrics.commandHandled(streamId, commandType, "refused");
          throw refusal;
        }
        this.recent.forget(streamId);
        remembered = false;
        loaded = undefined;
        continue;
      }
      if (decided.length === 0) {
        // Likewise "nothing to do" is only true of the stream as it is now.
        if (remembered) {
          remembered = false;
          loaded = undefined;
          continue;
        }
        metrics.commandHandled(streamId, commandType, "unchanged");
        return { events: [], position: 0, streamVersion: loaded.version, state: loaded.state, after: loaded };
      }
      const expected = loaded.version < 0 ? "no_stream" : loaded.version;
      const types = decided.map((event) => event.type).join(",");
      try {
        const result = await tracing.inSpan(`append ${types}`, { attributes: { "docuchat.stream": streamId, "docuchat.events": types } }, () => {
          // The append's own span is what the events carry: whoever projects them continues the trace from it.
          const carried = tracing.carrier();
          const metadata = carried ? { ...context.metadata, ...carried } : context.metadata;
          const toAppend: NewEvent[] = decided.map((event, index) => ({
            eventId: context.eventIds?.(index) ?? this.ids.next(),
            type: event.type,
            schemaVersion: writeEvent(schemas, event).schemaVersion,
            data: event.data,
            metadata,
          }));
          return this.store.append(streamId, toAppend, expected);
        });
        const state = decided.reduce(decider.evolve, loaded.state);
        const after = { state, version: result.nextExpectedVersion, events: [...loaded.events, ...decided] };
        // An append answered as the retry of an earlier one (same event ids) may sit at another version than ours.
        if (result.nextExpectedVersion === loaded.version + decided.length) this.recent.remember(streamId, after);
        else this.recent.forget(streamId);
        metrics.commandHandled(streamId, commandType, "accepted");
        return { events: decided, position: result.position, streamVersion: result.nextExpectedVersion, state, after };
      } catch (error) {
        if (!(error instanceof WrongExpectedVersionError)) throw error;
        this.recent.forget(streamId);
        if (!remembered) metrics.commandHandled(streamId, commandType, "conflict");
        // A remembered state that another writer overtook is not a lost race: read and decide again at no cost.
        // Lost every race: a refusal the user can act on (409 "try again"), never an internal error.
        if (!remembered && attempt >= maxAttempts) throw concurrentChange();
        if (!remembered) {
          attempt++;
          // Writers that collided retry at different moments, not in lockstep.
          await new Promise((resolve) => setTimeout(resolve, Math.random() * 10 * attempt));
        }
        remembered = false;
        loaded = undefined;
      }
    }
  }
}
