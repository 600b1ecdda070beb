import type { EventStore } from "#application/ports/event-store";
import type { Projector } from "#application/ports/projection";
import type { Reactor } from "#application/ports/reactor";
import type { ReadModelStore } from "#application/ports/read-model-store";
import { ProjectionRunner, type ProjectionLogger } from "./projection-runner";

/** Checkpoint names of reactors, apart from the projectors' (a rebuild never resets them). */
const reactorCheckpointName = (reactor: Reactor) => `reactor:${reactor.name}`;

function asSubscriber(reactor: Reactor): Projector {
  const types = new Set(reactor.eventTypes);
  return {
    name: reactorCheckpointName(reactor),
    collections: [],
    handle: async (event) => {
      if (types.has(event.type)) await reactor.react(event);
    },
  };
}

/**
 * Runs event reactors the way projectors run: each from its stored checkpoint,
 * retried with backoff when it throws, with a position to wait on. The
 * checkpoint moves after the reaction, so a crash in between replays it.
 */
export function createReactorRunner(eventStore: EventStore, readModels: ReadModelStore, reactors: readonly Reactor[], logger?: ProjectionLogger): ProjectionRunner {
  return new ProjectionRunner(eventStore, readModels, reactors.map(asSubscriber), logger, { transactional: false });
}
