import type { ProjectionWaiter } from "#application/ports/projection";
import type { ReadModelStore } from "#application/ports/read-model-store";
import { CHECKPOINT_COLLECTION, type ProjectionCheckpoint } from "./projection-runner";

export interface StoredPositionWaiterOptions {
  /** How often the stored checkpoints are read while a request waits (default 5 ms). */
  pollMs?: number;
}

/**
 * Read-your-writes in a process that does not run the projectors (a web
 * process; they run in the background process, ARCHITECTURE §4 "Processes"):
 * waits until the checkpoints the runner stores with its read-model writes,
 * under the given names, have all reached the position. It reads the database,
 * never another process's memory, so it holds whichever process projected.
 */
export class StoredPositionWaiter implements ProjectionWaiter {
  private readonly pollMs: number;

  constructor(
    private readonly readModels: ReadModelStore,
    private readonly checkpointNames: readonly string[],
    options: StoredPositionWaiterOptions = {},
  ) {
    this.pollMs = options.pollMs ?? 5;
  }

  async waitForPosition(position: number, timeoutMs = 5000): Promise<boolean> {
    const deadline = performance.now() + timeoutMs;
    for (;;) {
      if (await this.reached(position)) return true;
      if (performance.now() >= deadline) return false;
      await new Promise((resolve) => setTimeout(resolve, Math.min(this.pollMs, Math.max(1, deadline - performance.now()))));
    }
  }

  private async reached(position: number): Promise<boolean> {
    if (this.checkpointNames.length === 0) return true;
    const stored = await this.readModels.collection<ProjectionCheckpoint>(CHECKPOINT_COLLECTION).find({ id: { $in: [...this.checkpointNames] } });
    const positions = new Map(stored.map((checkpoint) => [checkpoint.id, checkpoint.position]));
    return this.checkpointNames.every((name) => (positions.get(name) ?? 0) >= position);
  }
}
