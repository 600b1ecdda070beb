import type { RecordedEvent } from "./event-store";

/**
 * An event reactor (process manager): a side effect that follows an event,
 * such as starting the workflow a `DocumentFileReceived` calls for. Run like a
 * projector, from a stored checkpoint, so an event appended just before a
 * crash is still reacted to after the restart. `react` may therefore see an
 * event twice: it must be idempotent (a workflow id derived from the event).
 */
export interface Reactor {
  /** Stable name; its checkpoint is stored under this name. */
  readonly name: string;
  /** Event types it reacts to; others only advance its checkpoint. */
  readonly eventTypes: readonly string[];
  react(event: RecordedEvent): Promise<void>;
}
