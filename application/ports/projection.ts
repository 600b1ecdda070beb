import type { RecordedEvent } from "./event-store";
import type { ReadModelStore } from "./read-model-store";

/**
 * A projector turns events into read-model writes. It must be idempotent (the
 * same event twice changes nothing) and rebuildable from position 0.
 */
export interface Projector {
  /** Stable name; its checkpoint is stored under this name. */
  readonly name: string;
  /** Collections it owns: dropped and rebuilt together with its checkpoint. */
  readonly collections: readonly string[];
  /** Declares indexes; called before the first event. */
  setup?(store: ReadModelStore): Promise<void>;
  handle(event: RecordedEvent, store: ReadModelStore): Promise<void>;
}

/** Read-your-writes (ARCHITECTURE §3): wait until every projector has passed a position. */
export interface ProjectionWaiter {
  /** Resolves true once all projectors are at or past position, false on timeout. */
  waitForPosition(position: number, timeoutMs?: number): Promise<boolean>;
}
