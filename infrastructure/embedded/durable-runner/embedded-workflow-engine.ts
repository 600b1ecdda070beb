import type Database from "better-sqlite3";
import type { Clock } from "#application/ports/clock";
import { noTracing, type TraceCarrier, type Tracing } from "#application/ports/tracing";
import type {
  ActivityRegistry,
  WorkflowDefinition,
  WorkflowEngine,
  WorkflowRunInfo,
  WorkflowStatus,
} from "#application/ports/workflow";
import { embeddedJobWorkflow } from "./job-workflow";
import { type ActivityAttemptOutcome, errorMessage, ReplayContext } from "./replay-context";
import { RunStore, toRunInfo } from "./run-store";

/** Structured logger; pino's Logger fits. */
export interface RunnerLogger {
  error(details: object, message?: string): void;
  warn(details: object, message?: string): void;
}

/**
 * Definitions are registered by name and their input arrives from JSON, so the
 * engine sees them all as unknown -> unknown (run is a method, hence bivariant:
 * every WorkflowDefinition<I, O> fits without `any`).
 */
export type AnyWorkflowDefinition = WorkflowDefinition<unknown, unknown>;

export interface EmbeddedWorkflowEngineOptions {
  activities: ActivityRegistry;
  definitions: AnyWorkflowDefinition[];
  clock: Clock;
  logger?: RunnerLogger;
  /** How often the scheduler looks for due timers and retries (default 200 ms). */
  tickMs?: number;
  /**
   * How often the scheduler asks SQLite whether another process wrote to the
   * runs (a web process starting or signalling a run), to look for due runs
   * at once instead of at the next tick (default 10 ms; a pragma, no query).
   */
  changeCheckMs?: number;
  /**
   * false: this process only records starts, signals and retries, and reads
   * runs; the one process that executes (ARCHITECTURE §4 "Processes": the
   * background process) picks them up from the database. Default true.
   */
  executes?: boolean;
  /** Runs executed at the same time, across different workflows (default 8). */
  maxConcurrentRuns?: number;
  /** A run started inside a trace runs its activities in spans of that trace. */
  tracing?: Tracing;
  /**
   * Aborted when the process begins to stop, before the work the activities
   * use is closed (the embedding model): an activity that fails from then on
   * was cut by the stop. The engine's own stop() counts too.
   */
  stopping?: AbortSignal;
  /** Each activity attempt's outcome, for operators (failures and stops apart). */
  onActivityAttempt?(activity: string, outcome: ActivityAttemptOutcome): void;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * The embedded durable runner (ARCHITECTURE §4): replay-based like Temporal.
 * Every execution calls the workflow from the start; journaled steps are
 * replayed, the first unfinished one runs. State lives only in SQLite, so a
 * restarted process calls resume() and carries on where the journal ends.
 */
export class EmbeddedWorkflowEngine implements WorkflowEngine {
  private readonly store: RunStore;
  private readonly definitions = new Map<string, AnyWorkflowDefinition>();
  private readonly activities: ActivityRegistry;
  private readonly clock: Clock;
  private readonly logger: RunnerLogger | undefined;
  private readonly tickMs: number;
  private readonly changeCheckMs: number;
  private readonly executes: boolean;
  private readonly maxConcurrentRuns: number;
  private readonly tracing: Tracing;
  private readonly runner: { stopping(): boolean; attemptEnded?(activity: string, outcome: ActivityAttemptOutcome): void };
  /** At most one execution per run: the promise of the one in flight. */
  private readonly inFlight = new Map<string, Promise<void>>();
  /** Runs woken while executing; they execute again right after. */
  private readonly rekick = new Set<string>();
  private timer: NodeJS.Timeout | null = null;
  /** performance.now() at the last tick: the wall clock may step either way (NTP), this never does. */
  private lastTickAt = 0;
  private stopped = false;

  constructor(db: Database.Database, options: EmbeddedWorkflowEngineOptions) {
    this.store = new RunStore(db);
    this.activities = options.activities;
    this.clock = options.clock;
    this.logger = options.logger;
    this.tickMs = options.tickMs ?? 200;
    this.changeCheckMs = Math.min(options.changeCheckMs ?? 10, this.tickMs);
    this.executes = options.executes ?? true;
    this.maxConcurrentRuns = options.maxConcurrentRuns ?? 8;
    this.tracing = options.tracing ?? noTracing;
    this.runner = { stopping: () => this.stopped || options.stopping?.aborted === true, attemptEnded: options.onActivityAttempt };
    // Jobs are runs too, so a restart must know their definition before anything is enqueued.
    for (const definition of [embeddedJobWorkflow, ...options.definitions]) this.register(definition);
  }

  /** Starts the scheduler and picks up every run left 'running' (call at start-up). */
  async resume(): Promise<void> {
    this.ensureScheduler();
    this.tick();
  }

  /** Stops the scheduler and waits for executions in flight to finish or suspend. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight.values()]);
  }

  async start<I>(definition: WorkflowDefinition<I>, workflowId: string, input: I): Promise<void> {
    this.register(definition);
    const created = this.store.insertRun(workflowId, definition.name, input, this.nowIso(), this.tracing.carrier());
    if (!created) return;
    this.ensureScheduler();
    this.kick(workflowId);
  }

  async signal(workflowId: string, signal: string, payload?: unknown): Promise<void> {
    const woken = this.store.addSignal(workflowId, signal, payload ?? null, this.clock.now().getTime());
    if (woken) this.kick(workflowId);
  }

  async describe(workflowId: string): Promise<WorkflowRunInfo | null> {
    const row = this.store.getRun(workflowId);
    return row ? this.info(row) : null;
  }

  async list(options?: { status?: WorkflowStatus; limit?: number }): Promise<WorkflowRunInfo[]> {
    return this.store.listRuns(options?.status, options?.limit ?? 100).map((row) => this.info(row));
  }

  /** Runs a failed run again from its failed step (the operators' page); false when it is not failed. */
  async retry(workflowId: string): Promise<boolean> {
    const retried = this.store.retryFailed(workflowId, this.nowIso());
    if (retried) {
      this.ensureScheduler();
      this.kick(workflowId);
    }
    return retried;
  }

  private info(row: Parameters<typeof toRunInfo>[0]): WorkflowRunInfo {
    return { ...toRunInfo(row), attempts: this.store.attemptsOf(row.workflow_id) };
  }

  /**
   * Resolves with the run once it is no longer 'running'. On timeout it resolves
   * with the run as it stands (still 'running'), or null when there is no such run.
   * Polls SQLite so it also sees runs finished by another process.
   */
  async waitForCompletion(workflowId: string, timeoutMs: number): Promise<WorkflowRunInfo | null> {
    const deadline = performance.now() + timeoutMs;
    for (;;) {
      const info = await this.describe(workflowId);
      if (info && info.status !== "running") return info;
      if (performance.now() >= deadline) return info;
      await sleep(Math.min(20, Math.max(1, deadline - performance.now())));
    }
  }

  /**
   * Executes every due run until none is due (tests with a moved clock, an
   * admin "retry now"). Bounded, because a zero backoff could keep a run due.
   */
  async runDue(maxRounds = 100): Promise<void> {
    for (let round = 0; round < maxRounds; round++) {
      this.tick();
      if (this.inFlight.size === 0) return;
      while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight.values()]);
    }
  }

  private register(definition: AnyWorkflowDefinition): void {
    const known = this.definitions.get(definition.name);
    if (known && known !== definition) {
      this.logger?.warn({ type: definition.name }, "workflow definition registered twice; keeping the first");
      return;
    }
    this.definitions.set(definition.name, definition);
  }

  private ensureScheduler(): void {
    if (this.timer || this.stopped || !this.executes) return;
    const writtenElsewhere = this.store.watchCommitsElsewhere();
    this.timer = setInterval(() => {
      if (writtenElsewhere() || performance.now() - this.lastTickAt >= this.tickMs) this.tick();
    }, this.changeCheckMs);
    // The scheduler alone must not keep the process alive.
    this.timer.unref();
  }

  private tick(): void {
    if (this.stopped || !this.executes) return;
    this.lastTickAt = performance.now();
    const free = this.maxConcurrentRuns - this.inFlight.size;
    if (free <= 0) return;
    // Ask for more than `free`: some due runs may already be executing here.
    const due = this.store.dueRunIds(this.clock.now().getTime(), free + this.inFlight.size);
    for (const id of due) {
      if (this.inFlight.size >= this.maxConcurrentRuns) break;
      if (!this.inFlight.has(id)) this.kick(id);
    }
  }

  private kick(workflowId: string): void {
    if (this.stopped || !this.executes) return;
    if (this.inFlight.has(workflowId)) {
      this.rekick.add(workflowId);
      return;
    }
    const execution = this.execute(workflowId)
      .catch((error: unknown) => {
        // Storage trouble (e.g. SQLITE_BUSY): the run stays due and the next tick retries it.
        this.logger?.error({ workflowId, err: error }, "workflow execution failed unexpectedly");
      })
      .finally(() => {
        this.inFlight.delete(workflowId);
        if (this.rekick.delete(workflowId)) this.kick(workflowId);
      });
    this.inFlight.set(workflowId, execution);
  }

  private async execute(workflowId: string): Promise<void> {
    const run = this.store.getRun(workflowId);
    if (!run || run.status !== "running") return;
    const definition = this.definitions.get(run.type);
    if (!definition) {
      this.store.fail(workflowId, `No workflow definition registered as "${run.type}"`, this.nowIso());
      return;
    }
    this.store.beginExecution(workflowId);
    const ctx = new ReplayContext(
      workflowId,
      this.store.loadJournal(workflowId),
      this.store,
      this.activities,
      this.clock,
      this.tracing.enabled && run.trace_context ? { tracing: this.tracing, parent: JSON.parse(run.trace_context) as TraceCarrier, workflowType: run.type } : null,
      this.runner,
    );
    let outcome: { ok: true; result: unknown } | { ok: false; error: unknown };
    try {
      outcome = { ok: true, result: await definition.run(ctx, JSON.parse(run.input)) };
    } catch (error) {
      outcome = { ok: false, error };
    }
    await ctx.settle();
    // Whatever the workflow code did with the sentinel, a suspended execution is discarded.
    if (ctx.suspended) return;
    if (outcome.ok) {
      this.store.complete(workflowId, outcome.result, this.nowIso());
    } else {
      this.store.fail(workflowId, errorMessage(outcome.error), this.nowIso());
      this.logger?.warn({ workflowId, type: run.type, err: outcome.error }, "workflow failed");
    }
  }

  private nowIso(): string {
    return this.clock.now().toISOString();
  }
}
