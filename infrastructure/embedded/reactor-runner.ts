import type { EventStore } from "#application/ports/event-store";
import type { Projector } from "#application/ports/projection";
import type { Reactor } from "#application/ports/reactor";
import type { ReadModelStore } from "#application/ports/read-model-store";
import { isDomainError } from "#domain/shared/domain-error";
import { ProjectionRunner, type ProjectionLogger, type ProjectionRunnerOptions } from "./projection-runner";

/** Checkpoint names of reactors, apart from the projectors' (a rebuild never resets them). */
export const reactorCheckpointName = (reactor: Reactor) => `reactor:${reactor.name}`;

function asSubscriber(reactor: Reactor, logger?: ProjectionLogger): Projector {
  const types = new Set(reactor.eventTypes);
  return {
    name: reactorCheckpointName(reactor),
    collections: [],
    handle: async (event) => {
      if (!types.has(event.type)) return;
      try {
        await reactor.react(event);
      } catch (error) {
        // A rule of the domain refused the reaction: retrying cannot change that, and would hold back every later event.
        if (!isDomainError(error)) throw error;
        logger?.error({ reactor: reactor.name, eventId: event.eventId, code: error.code, err: error }, "reaction refused; skipped");
      }
    },
  };
}

/**
 * Runs event reactors the way projectors run: each from its stored checkpoint,
 * retried with backoff when it throws (a refusal by the domain is logged and
 * passed), with a position to wait on. The checkpoint moves after the
 * reaction, so a crash in between replays it.
 */
export function createReactorRunner(
  eventStore: EventStore,
  readModels: ReadModelStore,
  reactors: readonly Reactor[],
  logger?: ProjectionLogger,
  options: Pick<ProjectionRunnerOptions, "retryBaseMs" | "retryMaxMs" | "tracing"> = {},
): ProjectionRunner {
  return new ProjectionRunner(eventStore, readModels, reactors.map((reactor) => asSubscriber(reactor, logger)), logger, { ...options, transactional: false });
}
