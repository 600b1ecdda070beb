import { readFile, statfs } from "node:fs/promises";
import type Database from "better-sqlite3";
import type { EventStore } from "#application/ports/event-store";
import type { ReadModelStore } from "#application/ports/read-model-store";
import { CHECKPOINT_COLLECTION, type ProjectionCheckpoint } from "../embedded/projection-runner";
import type { PrometheusMetrics } from "./prometheus-metrics";

export interface ProjectorLag {
  name: string;
  events: number;
  /** Age of the oldest event the projector has not applied; 0 when it is at the head. */
  seconds: number;
}

/**
 * How far each projector (and reactor) is behind the log's head, read from the
 * checkpoints they commit: the same numbers feed /metrics and /readyz, in any process.
 */
export async function projectorLags(events: EventStore, readModels: ReadModelStore, names: readonly string[], now = Date.now()): Promise<ProjectorLag[]> {
  const head = await events.headPosition();
  const checkpoints = readModels.collection<ProjectionCheckpoint>(CHECKPOINT_COLLECTION);
  const oldestAfter = new Map<number, number>();
  const lags: ProjectorLag[] = [];
  for (const name of names) {
    const position = (await checkpoints.get(name))?.position ?? 0;
    const behind = Math.max(0, head - position);
    let seconds = 0;
    if (behind > 0) {
      if (!oldestAfter.has(position)) {
        const [next] = await events.readAll(position, 1);
        oldestAfter.set(position, next ? Date.parse(next.recordedAt) : now);
      }
      seconds = Math.max(0, (now - oldestAfter.get(position)!) / 1000);
    }
    lags.push({ name, events: behind, seconds });
  }
  return lags;
}

export interface BackgroundStateSources {
  events: EventStore;
  readModels: ReadModelStore;
  /** The projectors' checkpoint names and the reactors' ("reactor:<name>"), asked at each scrape (the reactors are resolved after this is registered). */
  checkpointNames: () => readonly string[];
  /** DATA_DIR: its file system's free and total bytes are reported (the embedded stores and blobs live there). */
  dataDir: string;
  /** The embedded runner's database; null when Temporal and BullMQ run workflows and jobs. */
  workflowsDb: Database.Database | null;
  /** Where `npm run backup` and scheduled backups note their last success; null on the production stack (its servers back up with their own tools). */
  lastBackupFile: string | null;
}

/** Gauges only the background process reports (it owns the projectors, workflows and jobs), read at each scrape. */
export function registerBackgroundState(metrics: PrometheusMetrics, sources: BackgroundStateSources): void {
  let lags: Promise<ProjectorLag[]> | null = null;
  // Both lag gauges are collected together in a scrape: they share one reading of the checkpoints.
  const currentLags = () => {
    lags ??= projectorLags(sources.events, sources.readModels, sources.checkpointNames()).finally(() => (lags = null));
    return lags;
  };
  metrics.gauge({
    name: "docuchat_projector_lag_events",
    help: "Events between the log's head and a projector's (or reactor's) checkpoint.",
    labelNames: ["projector"],
    collect: async (set) => {
      for (const lag of await currentLags()) set({ projector: lag.name }, lag.events);
    },
  });
  metrics.gauge({
    name: "docuchat_projector_lag_seconds",
    help: "Age of the oldest event a projector (or reactor) has not applied yet; 0 at the head.",
    labelNames: ["projector"],
    collect: async (set) => {
      for (const lag of await currentLags()) set({ projector: lag.name }, lag.seconds);
    },
  });
  metrics.gauge({
    name: "docuchat_data_dir_bytes",
    help: "The data folder's file system: free (for the app) and size, in bytes.",
    labelNames: ["kind"],
    collect: async (set) => {
      const fs = await statfs(sources.dataDir);
      set({ kind: "free" }, fs.bavail * fs.bsize);
      set({ kind: "size" }, fs.blocks * fs.bsize);
    },
  });
  const { lastBackupFile } = sources;
  if (lastBackupFile) {
    metrics.gauge({
      name: "docuchat_backup_last_success_timestamp_seconds",
      help: "When the last backup of the embedded installation succeeded (Unix time); 0 if none ever did.",
      labelNames: [],
      collect: async (set) => {
        const noted = await readFile(lastBackupFile, "utf8").then((text) => JSON.parse(text) as { createdAt: string }, () => null);
        set({}, noted ? Date.parse(noted.createdAt) / 1000 : 0);
      },
    });
  }
  const db = sources.workflowsDb;
  if (!db) return;
  // Prepared at the first scrape: the runner creates its tables after this is registered.
  const lazily = <T>(make: () => T) => {
    let made: T | undefined;
    return () => (made ??= make());
  };
  const runsByState = lazily(() => db.prepare<[], { type: string; status: string; runs: number }>("SELECT type, status, COUNT(*) AS runs FROM workflow_runs GROUP BY type, status"));
  // Jobs are runs of the one-activity workflow "embedded-job", named in their input.
  const queuedJobs = lazily(() =>
    db.prepare<[], { job: string; depth: number; oldest: string }>(
      "SELECT json_extract(input, '$.name') AS job, COUNT(*) AS depth, MIN(started_at) AS oldest FROM workflow_runs WHERE type = 'embedded-job' AND status = 'running' GROUP BY job",
    ),
  );
  const embeddingRuns = lazily(() => db.prepare<[], { runs: number }>("SELECT COUNT(*) AS runs FROM workflow_runs WHERE type = 'workspace-embedding' AND status = 'running'"));
  metrics.gauge({
    name: "docuchat_workflow_runs",
    help: "Workflow runs of the embedded runner by workflow type and state.",
    labelNames: ["type", "state"],
    collect: (set) => {
      for (const type of ["ingestion", "workspace-embedding"]) for (const state of ["running", "failed"]) set({ type, state }, 0);
      for (const row of runsByState().all()) set({ type: row.type, state: row.status }, row.runs);
    },
  });
  metrics.gauge({
    name: "docuchat_job_queue_depth",
    help: "Jobs waiting or running, by job name.",
    labelNames: ["job"],
    collect: (set) => {
      for (const row of queuedJobs().all()) set({ job: row.job }, row.depth);
    },
  });
  metrics.gauge({
    name: "docuchat_job_queue_oldest_age_seconds",
    help: "Age of the oldest job not yet done, by job name (0 when none waits).",
    labelNames: ["job"],
    collect: (set) => {
      const now = Date.now();
      set({ job: "any" }, 0);
      let oldest = 0;
      for (const row of queuedJobs().all()) {
        const age = Math.max(0, (now - Date.parse(row.oldest)) / 1000);
        set({ job: row.job }, age);
        oldest = Math.max(oldest, age);
      }
      set({ job: "any" }, oldest);
    },
  });
  metrics.gauge({
    name: "docuchat_embedding_backlog_workspaces",
    help: "Workspaces whose documents are waiting to be embedded (running embedding runs).",
    labelNames: [],
    collect: (set) => set({}, embeddingRuns().get()?.runs ?? 0),
  });
}
