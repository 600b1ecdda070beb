/**
 * Deciders (ARCHITECTURE §3): pure functions, no I/O.
 * decide(command, state) -> events (or throws DomainError); evolve(state, event) -> state.
 */
export interface DomainEvent<Type extends string = string, Data extends Record<string, unknown> = Record<string, unknown>> {
  type: Type;
  data: Data;
}

export interface Decider<Command, Event extends DomainEvent, State> {
  initialState: () => State;
  decide(command: Command, state: State): Event[];
  evolve(state: State, event: Event): State;
}

export function fold<Event extends DomainEvent, State>(
  decider: Pick<Decider<unknown, Event, State>, "initialState" | "evolve">,
  events: readonly Event[],
): State {
  return events.reduce(decider.evolve, decider.initialState());
}

/** The aggregate id in a stream id made by `streamIdOf` (`document-<id>` -> `<id>`). */
export const aggregateIdIn = (streamId: string, streamIdOf: (id: string) => string): string => streamId.slice(streamIdOf("").length);
