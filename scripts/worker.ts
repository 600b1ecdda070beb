// The Temporal worker (`npm run worker`): runs the workflow definitions of
// workflows/ (workflows/temporal/index.ts, the same definitions the embedded
// runner uses) and the application's activities on the task queue the app
// starts them on. Needs TEMPORAL_ADDRESS (host:port); TEMPORAL_NAMESPACE and
// TEMPORAL_TASK_QUEUE are optional.
import "reflect-metadata";
import type { ActivityRegistry } from "#application/ports/workflow";
import { loadConfig } from "#infrastructure/config/config";
import { createLogger } from "#infrastructure/logging/logger";
import { createTemporalWorker } from "#infrastructure/production/temporal/worker";

const config = loadConfig();
const logger = createLogger(config.logLevel);
const address = config.raw.TEMPORAL_ADDRESS;
if (!address) {
  console.error("TEMPORAL_ADDRESS is not set: the worker runs workflows on a Temporal server (see docker/README.md).");
  process.exit(1);
}

/**
 * The application's activities (idempotent calls into the application layer).
 * Workflows and their activities arrive with their slices (ingestion,
 * workspace launch, account deletion, impersonation expiry); each adds its
 * registry here, as it does to the embedded runner's in infrastructure/container.ts.
 */
const activities: ActivityRegistry = {};

const worker = await createTemporalWorker({
  address,
  namespace: process.env.TEMPORAL_NAMESPACE,
  taskQueue: process.env.TEMPORAL_TASK_QUEUE,
  activities,
  logger,
});
logger.info({ address, taskQueue: process.env.TEMPORAL_TASK_QUEUE ?? "docuchat", activities: Object.keys(activities) }, "temporal worker started");
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    logger.info({ signal }, "temporal worker shutting down");
    void worker.shutdown();
  });
}
await worker.run();
logger.info({}, "temporal worker stopped");
