import type { Clock } from "#application/ports/clock";
import type { TraceCarrier, Tracing } from "#application/ports/tracing";
import type {
  ActivityOptions,
  ActivityRegistry,
  WaitOutcome,
  WorkflowContext,
} from "#application/ports/workflow";
import type { ActivityOutcome, JournalEntry, JournalKind, RunStore } from "./run-store";

/**
 * Thrown through workflow code when a run must wait (timer, signal, retry
 * backoff). The engine catches it; the wake-up state is already in SQLite.
 */
export class WorkflowSuspended extends Error {
  constructor() {
    super("workflow suspended (internal; do not catch)");
    this.name = "WorkflowSuspended";
  }
}

/** An activity that failed on its last attempt (or was not registered). Workflows may catch it to compensate. */
export class ActivityFailedError extends Error {
  constructor(
    readonly activity: string,
    readonly attempts: number,
    message: string,
  ) {
    super(`Activity ${activity} failed after ${attempts} attempt(s): ${message}`);
    this.name = "ActivityFailedError";
  }
}

/** The workflow code called something other than what the journal recorded at that position. */
export class NonDeterminismError extends Error {
  constructor(seq: number, expected: string, actual: string) {
    super(`Non-deterministic workflow: step ${seq} was journaled as ${expected} but replay called ${actual}`);
    this.name = "NonDeterminismError";
  }
}

/** How an attempt at an activity ended: "cancelled" is a stop, which spends no attempt. */
export type ActivityAttemptOutcome = "completed" | "retried" | "failed" | "cancelled";

const DEFAULT_MAX_ATTEMPTS = 5;
const DEFAULT_INITIAL_BACKOFF_MS = 1_000;
const DEFAULT_MAX_BACKOFF_MS = 5 * 60_000;

/**
 * One execution of a run: the workflow function is called from the start and
 * every context call gets the next sequence number. A call whose seq is in the
 * journal returns the recorded outcome (replay); the first one that is not
 * does the real work and journals it, or suspends the run.
 */
export class ReplayContext implements WorkflowContext {
  private seq = 0;
  private suspendedAt: number | null = null;
  /** An activity was cut by the process stopping: the execution is thrown away and spent nothing. */
  private cancelled = false;
  private readonly running = new Set<Promise<unknown>>();

  constructor(
    readonly workflowId: string,
    private readonly journal: Map<number, JournalEntry>,
    private readonly store: RunStore,
    private readonly activities: ActivityRegistry,
    private readonly clock: Clock,
    /** The trace the run was started in (null: not traced): each activity attempt is a span of it. */
    private readonly traced: { tracing: Tracing; parent: TraceCarrier; workflowType: string } | null = null,
    private readonly runner: { stopping(): boolean; attemptEnded?(activity: string, outcome: ActivityAttemptOutcome): void } = { stopping: () => false },
  ) {}

  /** True once any call suspended this execution (even if workflow code swallowed the sentinel), or a stop cut it. */
  get suspended(): boolean {
    return this.suspendedAt !== null || this.cancelled;
  }

  /** Resolves when activities started by this execution have settled, so two never overlap across executions. */
  async settle(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
  }

  activity<R = unknown>(name: string, input: unknown, options?: ActivityOptions): Promise<R> {
    const seq = this.seq++;
    const entry = this.journal.get(seq);
    if (entry) {
      this.expect(entry, "activity", name);
      const outcome = entry.outcome as ActivityOutcome;
      if (outcome.ok) return Promise.resolve(outcome.value as R);
      return Promise.reject(new ActivityFailedError(name, outcome.attempts, outcome.error));
    }
    if (this.suspended) return Promise.reject(new WorkflowSuspended());
    const run = this.runActivity(seq, name, input, options ?? {});
    this.running.add(run);
    void run.then(
      () => this.running.delete(run),
      () => this.running.delete(run),
    );
    return run as Promise<R>;
  }

  waitUntil(until: Date, options?: { signal?: string }): Promise<WaitOutcome> {
    const seq = this.seq++;
    const signal = options?.signal;
    const name = signal ?? "timer";
    const entry = this.journal.get(seq);
    if (entry) {
      this.expect(entry, "wait", name);
      return Promise.resolve(entry.outcome as WaitOutcome);
    }
    if (this.suspended) return Promise.reject(new WorkflowSuspended());
    const untilMs = until.getTime();
    const nowIso = this.clock.now().toISOString();
    // A signal received before the deadline wins, even if we only look after the deadline (e.g. after downtime).
    if (signal) {
      const received = this.store.consumeSignal(this.workflowId, seq, signal, untilMs, nowIso);
      if (received) return Promise.resolve({ reason: "signal", payload: received.payload });
    }
    if (this.clock.now().getTime() >= untilMs) {
      this.store.journalTimer(this.workflowId, seq, name, nowIso);
      return Promise.resolve({ reason: "timer" });
    }
    this.suspend(untilMs, signal ?? null, signal ? `wait:${signal}` : "wait:timer");
    return Promise.reject(new WorkflowSuspended());
  }

  now(): Date {
    const seq = this.seq++;
    const entry = this.journal.get(seq);
    if (entry) {
      this.expect(entry, "now", "now");
      return new Date(entry.outcome as string);
    }
    const time = this.clock.now();
    // After a suspension the rest of this execution is thrown away, so nothing is journaled.
    if (!this.suspended) this.store.journalNow(this.workflowId, seq, time);
    return time;
  }

  private async runActivity(seq: number, name: string, input: unknown, options: ActivityOptions): Promise<unknown> {
    const maxAttempts = Math.max(1, options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS);
    const retry = this.store.getAttempt(this.workflowId, seq);
    if (retry && retry.nextAttemptAt > this.clock.now().getTime()) {
      this.suspend(retry.nextAttemptAt, null, name);
      throw new WorkflowSuspended();
    }
    const attempt = (retry?.attempts ?? 0) + 1;
    this.store.setCurrentStep(this.workflowId, name, this.clock.now().toISOString());
    const fn = this.activities[name];
    let value: unknown;
    try {
      if (!fn) throw new UnregisteredActivity(name);
      const traced = this.traced;
      value = traced
        ? await traced.tracing.inSpan(`activity ${name}`, { parent: traced.parent, attributes: { "docuchat.workflow": traced.workflowType, "docuchat.workflow_id": this.workflowId, "docuchat.attempt": attempt } }, () => fn(input))
        : await fn(input);
    } catch (error) {
      // Cut by a stop (the embedding model closing, a child process killed): a cancellation, not a failure.
      // Nothing is recorded, so the run stays due and the same attempt runs again after the restart.
      if (this.runner.stopping()) {
        this.cancelled = true;
        this.runner.attemptEnded?.(name, "cancelled");
        throw new WorkflowSuspended();
      }
      const message = errorMessage(error);
      const nowIso = this.clock.now().toISOString();
      if (attempt >= maxAttempts || error instanceof UnregisteredActivity) {
        this.store.journalActivity(this.workflowId, seq, name, { ok: false, error: message, attempts: attempt }, nowIso);
        this.runner.attemptEnded?.(name, "failed");
        throw new ActivityFailedError(name, attempt, message);
      }
      const initial = options.initialBackoffMs ?? DEFAULT_INITIAL_BACKOFF_MS;
      const max = options.maxBackoffMs ?? DEFAULT_MAX_BACKOFF_MS;
      const delay = Math.min(initial * 2 ** (attempt - 1), max);
      const wakeAt = this.clock.now().getTime() + delay;
      this.store.recordFailedAttempt(this.workflowId, seq, attempt, wakeAt, message, nowIso);
      this.runner.attemptEnded?.(name, "retried");
      this.suspend(wakeAt, null, name);
      throw new WorkflowSuspended();
    }
    // Round-trip through JSON so the live result equals what a replay will return.
    const outcome = JSON.parse(JSON.stringify({ ok: true, value })) as ActivityOutcome;
    this.store.journalActivity(this.workflowId, seq, name, outcome, this.clock.now().toISOString());
    this.runner.attemptEnded?.(name, "completed");
    return outcome.ok ? outcome.value : undefined;
  }

  /** Records the earliest wake-up of this execution (parallel branches may suspend separately). */
  private suspend(wakeAtMs: number, signal: string | null, step: string): void {
    if (this.suspendedAt !== null && this.suspendedAt <= wakeAtMs) return;
    this.suspendedAt = wakeAtMs;
    this.store.suspend(this.workflowId, wakeAtMs, signal, step, this.clock.now().toISOString());
  }

  private expect(entry: JournalEntry, kind: JournalKind, name: string): void {
    if (entry.kind !== kind || entry.name !== name) {
      throw new NonDeterminismError(entry.seq, `${entry.kind}(${entry.name})`, `${kind}(${name})`);
    }
  }
}

class UnregisteredActivity extends Error {
  constructor(name: string) {
    super(`No activity registered as "${name}"`);
  }
}

export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  return typeof error === "string" ? error : JSON.stringify(error) ?? String(error);
}
