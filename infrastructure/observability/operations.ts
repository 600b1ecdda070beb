import { writeFile } from "node:fs/promises";
import path from "node:path";
import type Database from "better-sqlite3";
import type { Logger } from "pino";
import type { BlobStore } from "#application/ports/blob-store";
import type { EventStore } from "#application/ports/event-store";
import type { ReadModelStore } from "#application/ports/read-model-store";
import { CHECKPOINT_COLLECTION } from "../embedded/projection-runner";
import { measureIngestionFromLog } from "./ingestion-metrics";
import { projectorLags, registerBackgroundState } from "./operational-state";
import { buildInfo } from "./build-info";
import { type ProcessRole, PrometheusMetrics } from "./prometheus-metrics";
import type { ReadinessSources, StoreProbe } from "./readiness";

export interface Operations {
  metrics: PrometheusMetrics;
  /** What /readyz checks in this process (the background process's liveness is asked of the primary). */
  readinessSources: Omit<ReadinessSources, "backgroundAlive" | "onFailure">;
  stop(): Promise<void>;
}

export interface OperationsSources {
  role: ProcessRole;
  /** Its place among its role's processes (the supervisor's DOCUCHAT_PROCESS_INDEX; 0 when alone). */
  processIndex: number;
  /** SOURCE_COMMIT, if given. */
  sourceCommit: string | null;
  logger: Logger;
  contextOf(streamId: string): string;
  events: EventStore;
  readModels: ReadModelStore;
  blobs: BlobStore;
  /** Every embedded SQLite database the process opened (probed with a pragma). */
  sqliteDatabases: () => { name: string; db: Database.Database }[];
  workflowsDb: Database.Database | null;
  dataDir: string;
  lastBackupFile: string | null;
  /** The projectors' and reactors' checkpoints, whose lag /metrics and /readyz report. */
  checkpointNames: () => readonly string[];
  maxProjectorLagSeconds: number;
}

/**
 * Metrics and readiness for one process (issue 32). Every process counts what
 * it serves and decides; only the one that runs the background work reports
 * its state (projector lag, workflow runs, the job queue) and measures
 * ingestion from the log, so the cluster's sum counts each once.
 */
export function startOperations(sources: OperationsSources): Operations {
  const metrics = new PrometheusMetrics({ role: sources.role, index: sources.processIndex }, sources.contextOf, buildInfo(sources.sourceCommit));
  const runsBackgroundWork = sources.role === "app" || sources.role === "background";
  if (sources.role === "web" || sources.role === "background") metrics.reportToPrimary();
  const lags = () => projectorLags(sources.events, sources.readModels, sources.checkpointNames());
  let ingestion: { stop(): Promise<void> } | null = null;
  if (runsBackgroundWork) {
    registerBackgroundState(metrics, { events: sources.events, readModels: sources.readModels, checkpointNames: sources.checkpointNames, workflowsDb: sources.workflowsDb, dataDir: sources.dataDir, lastBackupFile: sources.lastBackupFile });
    ingestion = measureIngestionFromLog(sources.events, metrics, sources.logger);
  }
  return {
    metrics,
    readinessSources: { stores: storeProbes(sources), projectorLags: lags, maxProjectorLagSeconds: sources.maxProjectorLagSeconds },
    async stop() {
      await ingestion?.stop();
    },
  };
}

/**
 * What /readyz asks of the stores. Where a write is cheap it writes (issue 42 item 6): a read-only
 * data folder, blob folder or database answers reads while every upload and sign-in fails.
 */
export function storeProbes(sources: Pick<OperationsSources, "events" | "readModels" | "blobs" | "sqliteDatabases" | "dataDir">): StoreProbe[] {
  const written = () => Buffer.from(new Date().toISOString());
  return [
    { name: "events", check: () => sources.events.headPosition() },
    { name: "read-models", check: () => sources.readModels.collection(CHECKPOINT_COLLECTION).get("readiness") },
    { name: "data-folder", check: () => writeFile(path.join(sources.dataDir, READINESS_PROBE), written()), failure: "not writable" },
    { name: "blobs", check: () => sources.blobs.put("readiness/probe", written(), { contentType: "text/plain" }), failure: "not writable" },
    ...sources.sqliteDatabases().map(({ name, db }) => ({ name, check: async () => writeProbe(db), failure: "not writable" })),
  ];
}

const READINESS_PROBE = ".readiness-probe";

/**
 * One row written in a table of its own. Another writer holding the lock proves the database takes
 * writes: the probe does not wait for it (a web process's event loop would wait with it).
 */
function writeProbe(db: Database.Database): void {
  const waited = db.pragma("busy_timeout", { simple: true }) as number;
  db.pragma("busy_timeout = 0");
  try {
    db.exec(`CREATE TABLE IF NOT EXISTS readiness_probe (id INTEGER PRIMARY KEY, written_at TEXT NOT NULL)`);
    db.prepare(`INSERT OR REPLACE INTO readiness_probe (id, written_at) VALUES (1, ?)`).run(new Date().toISOString());
  } catch (error) {
    if ((error as { code?: string }).code !== "SQLITE_BUSY") throw error;
  } finally {
    db.pragma(`busy_timeout = ${waited}`);
  }
}
