/**
 * Durable workflows (ARCHITECTURE §4, §5). A workflow is written once, as a
 * function of a WorkflowContext, and run by either engine: the embedded durable
 * runner (state in SQLite, replayed after a crash) or Temporal (the context maps
 * onto proxyActivities / condition / signals). Workflow code must therefore be
 * deterministic: all I/O goes through activities, time through ctx.now().
 */

export interface ActivityOptions {
  /** Attempts in all, including the first (default 5). */
  maxAttempts?: number;
  /** First retry delay; doubles on each retry up to maxBackoffMs. */
  initialBackoffMs?: number;
  maxBackoffMs?: number;
}

export type WaitOutcome = { reason: "timer" } | { reason: "signal"; payload: unknown };

export interface WorkflowContext {
  readonly workflowId: string;
  /**
   * Runs a registered activity and records its result. Activities run at least
   * once, so each must be idempotent (e.g. appends with deterministic event ids).
   * On replay a recorded result is returned without running the activity again.
   */
  activity<R = unknown>(name: string, input: unknown, options?: ActivityOptions): Promise<R>;
  /** Waits until `until`, or until the named signal arrives, whichever comes first. */
  waitUntil(until: Date, options?: { signal?: string }): Promise<WaitOutcome>;
  /** Deterministic current time (recorded, so replays see the same value). */
  now(): Date;
}

export interface WorkflowDefinition<Input = unknown, Output = unknown> {
  /** Stable type name, also the Temporal workflow type. */
  name: string;
  run(ctx: WorkflowContext, input: Input): Promise<Output>;
}

/** An activity: an idempotent call into the application layer. */
export type Activity = (input: unknown) => Promise<unknown>;
export type ActivityRegistry = Record<string, Activity>;
/** A workflow's activity contract: the names it calls, each of which a context module must provide. */
export type ActivitiesFor<Name extends string> = Record<Name, Activity>;

export type WorkflowStatus = "running" | "completed" | "failed" | "cancelled";

export interface WorkflowRunInfo {
  workflowId: string;
  type: string;
  status: WorkflowStatus;
  /** Name of the activity or wait the workflow is on (null when finished). */
  currentStep: string | null;
  /** When a pending timer or retry is due (ISO-8601). */
  nextWakeAt: string | null;
  lastError: string | null;
  /** Attempts of the step retrying or failed (the embedded runner says; absent elsewhere). */
  attempts?: number;
  result: unknown;
  startedAt: string;
  updatedAt: string;
}

export interface WorkflowEngine {
  /** Starts a run; idempotent by workflowId (a second start of the same id is a no-op). */
  start<I>(definition: WorkflowDefinition<I>, workflowId: string, input: I): Promise<void>;
  signal(workflowId: string, signal: string, payload?: unknown): Promise<void>;
  describe(workflowId: string): Promise<WorkflowRunInfo | null>;
  list(options?: { status?: WorkflowStatus; limit?: number }): Promise<WorkflowRunInfo[]>;
  /** Resolves when the run has finished (tests and read-your-writes on workflow results). */
  waitForCompletion(workflowId: string, timeoutMs: number): Promise<WorkflowRunInfo | null>;
  /** Runs a failed run again from its failed step; false when it is not failed. Absent where the engine has its own UI (Temporal). */
  retry?(workflowId: string): Promise<boolean>;
}

/**
 * Background jobs (mail, thumbnails, compiles). Embedded: one-activity runs on
 * the durable runner; production: BullMQ on Redis.
 */
export interface JobQueue {
  /** jobId makes enqueueing idempotent. */
  enqueue(name: string, payload: unknown, options?: { jobId?: string; maxAttempts?: number }): Promise<void>;
}
export type JobHandler = (payload: unknown) => Promise<void>;
export type JobHandlerRegistry = Record<string, JobHandler>;
