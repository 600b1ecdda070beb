import { randomUUID } from "node:crypto";
import type { JobQueue, WorkflowEngine } from "#application/ports/workflow";
import { embeddedJobWorkflow } from "./job-workflow";

/**
 * JobQueue on the embedded durable runner: job `<name>` with id `<jobId>` is the
 * run `job-<name>-<jobId>`, so enqueueing the same jobId twice is one job.
 * Handlers must be registered on the engine via jobActivities(handlers).
 */
export class EmbeddedJobQueue implements JobQueue {
  constructor(private readonly engine: WorkflowEngine) {}

  async enqueue(name: string, payload: unknown, options?: { jobId?: string; maxAttempts?: number }): Promise<void> {
    const jobId = options?.jobId ?? randomUUID();
    await this.engine.start(embeddedJobWorkflow, `job-${name}-${jobId}`, {
      name,
      payload,
      maxAttempts: options?.maxAttempts,
    });
  }
}
