import type { TraceCarrier } from "#application/ports/tracing";
import type Database from "better-sqlite3";
import type { WorkflowRunInfo, WorkflowStatus } from "#application/ports/workflow";
import { commitsElsewhere } from "#infrastructure/embedded/sqlite/open-database";
import { ensureDurableRunnerSchema } from "./schema";

export type JournalKind = "activity" | "wait" | "now";

export interface JournalEntry {
  seq: number;
  kind: JournalKind;
  name: string;
  /** Parsed JSON outcome (shape depends on kind). */
  outcome: unknown;
}

/** What an activity step recorded: its JSON result, or the error that ended its retries. */
export type ActivityOutcome = { ok: true; value?: unknown } | { ok: false; error: string; attempts: number };

export interface RunRow {
  workflow_id: string;
  type: string;
  input: string;
  status: WorkflowStatus;
  current_step: string | null;
  next_wake_at: number | null;
  waiting_signal: string | null;
  last_error: string | null;
  result: string | null;
  started_at: string;
  updated_at: string;
  /** JSON of the starter's trace context (TraceCarrier), when it was traced. */
  trace_context: string | null;
}

interface JournalRow {
  seq: number;
  kind: JournalKind;
  name: string;
  outcome: string;
}

interface SignalRow {
  id: number;
  payload: string;
}

interface AttemptRow {
  attempts: number;
  next_attempt_at: number;
}

/**
 * All SQL of the durable runner. better-sqlite3 is synchronous, so each method
 * is atomic with respect to the rest of the process (no await inside), which is
 * what makes "check for a signal, else suspend" free of lost wake-ups.
 */
export class RunStore {
  private readonly stmts;

  constructor(private readonly db: Database.Database) {
    ensureDurableRunnerSchema(db);
    this.stmts = {
      insertRun: db.prepare(
        `INSERT OR IGNORE INTO workflow_runs (workflow_id, type, input, status, started_at, updated_at, trace_context)
         VALUES (?, ?, ?, 'running', ?, ?, ?)`,
      ),
      getRun: db.prepare(`SELECT * FROM workflow_runs WHERE workflow_id = ?`),
      listRuns: db.prepare(
        `SELECT * FROM workflow_runs WHERE (@status IS NULL OR status = @status)
         ORDER BY started_at DESC, workflow_id DESC LIMIT @limit`,
      ),
      dueRuns: db.prepare(
        `SELECT workflow_id FROM workflow_runs
         WHERE status = 'running' AND (next_wake_at IS NULL OR next_wake_at <= ?)
         ORDER BY next_wake_at IS NOT NULL, next_wake_at, started_at LIMIT ?`,
      ),
      beginExecution: db.prepare(
        `UPDATE workflow_runs SET next_wake_at = NULL, waiting_signal = NULL WHERE workflow_id = ?`,
      ),
      setStep: db.prepare(`UPDATE workflow_runs SET current_step = ?, updated_at = ? WHERE workflow_id = ?`),
      suspend: db.prepare(
        `UPDATE workflow_runs SET next_wake_at = ?, waiting_signal = ?, current_step = ?, updated_at = ?
         WHERE workflow_id = ? AND status = 'running'`,
      ),
      wakeForSignal: db.prepare(
        `UPDATE workflow_runs SET next_wake_at = ?
         WHERE workflow_id = ? AND status = 'running' AND waiting_signal = ?`,
      ),
      finish: db.prepare(
        `UPDATE workflow_runs SET status = ?, result = ?, last_error = COALESCE(?, last_error), current_step = NULL,
           next_wake_at = NULL, waiting_signal = NULL, updated_at = ?
         WHERE workflow_id = ? AND status = 'running'`,
      ),
      setLastError: db.prepare(`UPDATE workflow_runs SET last_error = ?, updated_at = ? WHERE workflow_id = ?`),
      journal: db.prepare(`SELECT seq, kind, name, outcome FROM workflow_journal WHERE workflow_id = ? ORDER BY seq`),
      insertJournal: db.prepare(
        `INSERT INTO workflow_journal (workflow_id, seq, kind, name, outcome, recorded_at) VALUES (?, ?, ?, ?, ?, ?)`,
      ),
      touch: db.prepare(`UPDATE workflow_runs SET updated_at = ? WHERE workflow_id = ?`),
      getAttempt: db.prepare(`SELECT attempts, next_attempt_at FROM workflow_attempts WHERE workflow_id = ? AND seq = ?`),
      upsertAttempt: db.prepare(
        `INSERT INTO workflow_attempts (workflow_id, seq, attempts, next_attempt_at) VALUES (?, ?, ?, ?)
         ON CONFLICT (workflow_id, seq) DO UPDATE SET attempts = excluded.attempts, next_attempt_at = excluded.next_attempt_at`,
      ),
      deleteAttempt: db.prepare(`DELETE FROM workflow_attempts WHERE workflow_id = ? AND seq = ?`),
      insertSignal: db.prepare(
        `INSERT INTO workflow_signals (workflow_id, name, payload, received_at) VALUES (?, ?, ?, ?)`,
      ),
      pendingSignal: db.prepare(
        `SELECT id, payload FROM workflow_signals
         WHERE workflow_id = ? AND name = ? AND consumed_seq IS NULL AND received_at < ?
         ORDER BY id LIMIT 1`,
      ),
      consumeSignal: db.prepare(`UPDATE workflow_signals SET consumed_seq = ? WHERE id = ? AND consumed_seq IS NULL`),
    };
  }

  /** From now on, says on each call whether another connection (process) has committed to the runs' database since the last call. */
  watchCommitsElsewhere(): () => boolean {
    return commitsElsewhere(this.db);
  }

  /** Returns true when the run was created, false when one with that id already existed. */
  insertRun(workflowId: string, type: string, input: unknown, nowIso: string, traceContext?: TraceCarrier): boolean {
    return this.stmts.insertRun.run(workflowId, type, toJson(input), nowIso, nowIso, traceContext ? JSON.stringify(traceContext) : null).changes > 0;
  }

  getRun(workflowId: string): RunRow | undefined {
    return this.stmts.getRun.get(workflowId) as RunRow | undefined;
  }

  listRuns(status: WorkflowStatus | undefined, limit: number): RunRow[] {
    return this.stmts.listRuns.all({ status: status ?? null, limit }) as RunRow[];
  }

  dueRunIds(nowMs: number, limit: number): string[] {
    return (this.stmts.dueRuns.all(nowMs, limit) as { workflow_id: string }[]).map((r) => r.workflow_id);
  }

  /** Clears the wake-up state; a suspension re-establishes it, a crash leaves the run ready. */
  beginExecution(workflowId: string): void {
    this.stmts.beginExecution.run(workflowId);
  }

  setCurrentStep(workflowId: string, step: string, nowIso: string): void {
    this.stmts.setStep.run(step, nowIso, workflowId);
  }

  suspend(workflowId: string, wakeAtMs: number, waitingSignal: string | null, step: string, nowIso: string): void {
    this.stmts.suspend.run(wakeAtMs, waitingSignal, step, nowIso, workflowId);
  }

  complete(workflowId: string, result: unknown, nowIso: string): void {
    this.stmts.finish.run("completed", toJson(result), null, nowIso, workflowId);
  }

  fail(workflowId: string, error: string, nowIso: string): void {
    this.stmts.finish.run("failed", null, error, nowIso, workflowId);
  }

  loadJournal(workflowId: string): Map<number, JournalEntry> {
    const rows = this.stmts.journal.all(workflowId) as JournalRow[];
    return new Map(rows.map((r) => [r.seq, { seq: r.seq, kind: r.kind, name: r.name, outcome: JSON.parse(r.outcome) }]));
  }

  /** Journals an activity outcome and drops its retry state in one transaction. */
  journalActivity(workflowId: string, seq: number, name: string, outcome: ActivityOutcome, nowIso: string): void {
    this.db.transaction(() => {
      this.stmts.insertJournal.run(workflowId, seq, "activity", name, toJson(outcome), nowIso);
      this.stmts.deleteAttempt.run(workflowId, seq);
      if (!outcome.ok) this.stmts.setLastError.run(outcome.error, nowIso, workflowId);
      else this.stmts.touch.run(nowIso, workflowId);
    })();
  }

  journalNow(workflowId: string, seq: number, time: Date): void {
    this.stmts.insertJournal.run(workflowId, seq, "now", "now", toJson(time.toISOString()), time.toISOString());
  }

  journalTimer(workflowId: string, seq: number, name: string, nowIso: string): void {
    this.stmts.insertJournal.run(workflowId, seq, "wait", name, toJson({ reason: "timer" }), nowIso);
  }

  /**
   * Consumes the oldest pending signal of that name received before `beforeMs`
   * and journals it as the wait's outcome; returns its payload, or undefined.
   */
  consumeSignal(
    workflowId: string,
    seq: number,
    name: string,
    beforeMs: number,
    nowIso: string,
  ): { payload: unknown } | undefined {
    // IMMEDIATE, as every transaction that reads before it writes (decision 250).
    return this.db.transaction(() => {
      const row = this.stmts.pendingSignal.get(workflowId, name, beforeMs) as SignalRow | undefined;
      if (!row) return undefined;
      const payload: unknown = JSON.parse(row.payload);
      this.stmts.consumeSignal.run(seq, row.id);
      this.stmts.insertJournal.run(workflowId, seq, "wait", name, toJson({ reason: "signal", payload }), nowIso);
      return { payload };
    }).immediate();
  }

  getAttempt(workflowId: string, seq: number): { attempts: number; nextAttemptAt: number } | undefined {
    const row = this.stmts.getAttempt.get(workflowId, seq) as AttemptRow | undefined;
    return row && { attempts: row.attempts, nextAttemptAt: row.next_attempt_at };
  }

  recordFailedAttempt(workflowId: string, seq: number, attempts: number, nextAttemptAt: number, error: string, nowIso: string): void {
    this.db.transaction(() => {
      this.stmts.upsertAttempt.run(workflowId, seq, attempts, nextAttemptAt);
      this.stmts.setLastError.run(error, nowIso, workflowId);
    })();
  }

  /** Attempts of the step in progress (a retry pending), or of the step whose failure ended the run; 0 when none failed. */
  attemptsOf(workflowId: string): number {
    const pending = this.db.prepare(`SELECT MAX(attempts) FROM workflow_attempts WHERE workflow_id = ?`).pluck().get(workflowId) as number | null;
    if (pending) return pending;
    const last = this.db
      .prepare(`SELECT outcome FROM workflow_journal WHERE workflow_id = ? AND kind = 'activity' ORDER BY seq DESC LIMIT 1`)
      .pluck()
      .get(workflowId) as string | undefined;
    const outcome = last ? (JSON.parse(last) as ActivityOutcome) : null;
    return outcome && !outcome.ok ? outcome.attempts : 0;
  }

  /**
   * An operator's retry of a failed run (decision 106): the failed step's
   * journal entry goes (and anything after it), the run is running and due
   * again, so the next execution replays up to that step and runs it afresh.
   * Returns false when the run is not failed.
   */
  retryFailed(workflowId: string, nowIso: string): boolean {
    return this.db.transaction(() => {
      const run = this.getRun(workflowId);
      if (!run || run.status !== "failed") return false;
      const failedSeq = this.db
        .prepare(`SELECT seq FROM workflow_journal WHERE workflow_id = ? AND kind = 'activity' AND json_extract(outcome, '$.ok') = 0 ORDER BY seq DESC LIMIT 1`)
        .pluck()
        .get(workflowId) as number | undefined;
      if (failedSeq !== undefined) this.db.prepare(`DELETE FROM workflow_journal WHERE workflow_id = ? AND seq >= ?`).run(workflowId, failedSeq);
      this.db.prepare(`DELETE FROM workflow_attempts WHERE workflow_id = ?`).run(workflowId);
      this.db
        .prepare(`UPDATE workflow_runs SET status = 'running', result = NULL, next_wake_at = NULL, waiting_signal = NULL, updated_at = ? WHERE workflow_id = ?`)
        .run(nowIso, workflowId);
      return true;
    }).immediate();
  }

  /** Stores a signal; returns true when the run was waiting on it (and is now due). */
  addSignal(workflowId: string, name: string, payload: unknown, nowMs: number): boolean {
    return this.db.transaction(() => {
      this.stmts.insertSignal.run(workflowId, name, toJson(payload), nowMs);
      return this.stmts.wakeForSignal.run(nowMs, workflowId, name).changes > 0;
    })();
  }
}

export function toRunInfo(row: RunRow): WorkflowRunInfo {
  return {
    workflowId: row.workflow_id,
    type: row.type,
    status: row.status,
    currentStep: row.current_step,
    nextWakeAt: row.status === "running" && row.next_wake_at !== null ? new Date(row.next_wake_at).toISOString() : null,
    lastError: row.last_error,
    result: row.result === null ? null : (JSON.parse(row.result) as unknown),
    startedAt: row.started_at,
    updatedAt: row.updated_at,
  };
}

/** JSON text of a value; undefined is stored as null so every column holds valid JSON. */
function toJson(value: unknown): string {
  return JSON.stringify(value === undefined ? null : value);
}
