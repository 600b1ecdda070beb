import type Database from "better-sqlite3";

/**
 * Tables of the embedded durable runner. Prefixed with `workflow_` because they
 * share the data directory's database with other embedded adapters.
 */
const SCHEMA = `
CREATE TABLE IF NOT EXISTS workflow_runs (
  workflow_id    TEXT PRIMARY KEY,
  type           TEXT NOT NULL,
  input          TEXT NOT NULL,
  status         TEXT NOT NULL CHECK (status IN ('running', 'completed', 'failed', 'cancelled')),
  current_step   TEXT,
  -- epoch ms; NULL while 'running' means "ready now" (new, woken, or executing when the process died)
  next_wake_at   INTEGER,
  waiting_signal TEXT,
  last_error     TEXT,
  result         TEXT,
  started_at     TEXT NOT NULL,
  updated_at     TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS workflow_runs_due ON workflow_runs (status, next_wake_at);

CREATE TABLE IF NOT EXISTS workflow_journal (
  workflow_id TEXT NOT NULL,
  seq         INTEGER NOT NULL,
  kind        TEXT NOT NULL CHECK (kind IN ('activity', 'wait', 'now')),
  name        TEXT NOT NULL,
  outcome     TEXT NOT NULL,
  recorded_at TEXT NOT NULL,
  PRIMARY KEY (workflow_id, seq)
);

-- Retry state of an activity that failed but has attempts left (one row per step, gone once journaled).
CREATE TABLE IF NOT EXISTS workflow_attempts (
  workflow_id     TEXT NOT NULL,
  seq             INTEGER NOT NULL,
  attempts        INTEGER NOT NULL,
  next_attempt_at INTEGER NOT NULL,
  PRIMARY KEY (workflow_id, seq)
);

CREATE TABLE IF NOT EXISTS workflow_signals (
  id           INTEGER PRIMARY KEY AUTOINCREMENT,
  workflow_id  TEXT NOT NULL,
  name         TEXT NOT NULL,
  payload      TEXT NOT NULL,
  received_at  INTEGER NOT NULL,
  consumed_seq INTEGER
);
CREATE INDEX IF NOT EXISTS workflow_signals_pending ON workflow_signals (workflow_id, name, consumed_seq);
`;

export function ensureDurableRunnerSchema(db: Database.Database): void {
  db.exec(SCHEMA);
  // Added with traces (decision 216): the W3C trace context of whoever started the run, so its activities join that
  // trace. A column added in place, so a data folder from before keeps its runs.
  const columns = db.prepare(`PRAGMA table_info(workflow_runs)`).all() as { name: string }[];
  if (!columns.some((column) => column.name === "trace_context")) db.exec(`ALTER TABLE workflow_runs ADD COLUMN trace_context TEXT`);
}
