// The Temporal worker (`npm run worker`): runs the workflow definitions of
// workflows/ (workflows/temporal/index.ts, the same definitions the embedded
// runner uses) and the application's activities on the task queue the app
// starts them on. Needs TEMPORAL_ADDRESS (host:port); TEMPORAL_NAMESPACE and
// TEMPORAL_TASK_QUEUE are optional.
import "reflect-metadata";
import { loadConfig } from "#infrastructure/config/config";
import { createRuntime } from "#infrastructure/container";
import { createLogger } from "#infrastructure/logging/logger";
import { createTemporalWorker } from "#infrastructure/production/temporal/worker";

const config = loadConfig();
const logger = createLogger(config.logLevel, { role: "worker" });
const address = config.raw.TEMPORAL_ADDRESS;
if (!address) {
  console.error("TEMPORAL_ADDRESS is not set: the worker runs workflows on a Temporal server (see docker/README.md).");
  process.exit(1);
}

// The application's activities (idempotent calls into the application layer),
// the same registry the embedded runner uses.
const runtime = await createRuntime(config, { role: "worker", logger });
const activities = runtime.activities;

const worker = await createTemporalWorker({
  address,
  namespace: config.raw.TEMPORAL_NAMESPACE,
  taskQueue: config.raw.TEMPORAL_TASK_QUEUE,
  activities,
  logger,
});
logger.info({ address, taskQueue: config.raw.TEMPORAL_TASK_QUEUE, activities: Object.keys(activities) }, "temporal worker started");
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    logger.info({ signal }, "temporal worker shutting down");
    void worker.shutdown();
  });
}
await worker.run();
await runtime.stop();
logger.info({}, "temporal worker stopped");
