import { NativeConnection, Worker, type Logger as TemporalLogger } from "@temporalio/worker";
import type { ActivityRegistry } from "#application/ports/workflow";
import { temporalActivities, type ActivityLogger } from "./activities";
import { workflowBundleOptions, workflowsPath as defaultWorkflowsPath } from "./bundler-options";
import { DEFAULT_TASK_QUEUE } from "./temporal-workflow-engine";

export interface TemporalWorkerOptions {
  address: string;
  namespace?: string;
  taskQueue?: string;
  activities: ActivityRegistry;
  /** Workflow entry module (default workflows/temporal/index.ts, every definition of allWorkflows). */
  workflowsPath?: string;
  logger?: ActivityLogger;
}

export interface TemporalWorkerHandle {
  worker: Worker;
  /** Polls until shutdown() is called (or the worker fails). */
  run(): Promise<void>;
  shutdown(): Promise<void>;
}

/**
 * The Temporal worker (`npm run worker`): bundles the workflow definitions of
 * workflows/ (the ones the embedded runner uses) for Temporal's sandbox and
 * runs them with the application's activities.
 */
export async function createTemporalWorker(options: TemporalWorkerOptions): Promise<TemporalWorkerHandle> {
  const connection = await NativeConnection.connect({ address: options.address });
  const worker = await Worker.create({
    connection,
    namespace: options.namespace ?? "default",
    taskQueue: options.taskQueue ?? DEFAULT_TASK_QUEUE,
    activities: temporalActivities(options.activities, options.logger),
    bundlerOptions: { webpackConfigHook: workflowBundleOptions().webpackConfigHook },
    workflowsPath: options.workflowsPath ?? defaultWorkflowsPath,
  });
  let running: Promise<void> | null = null;
  return {
    worker,
    run: () => {
      running ??= worker.run().finally(() => connection.close());
      return running;
    },
    shutdown: async () => {
      if (worker.getState() === "RUNNING") worker.shutdown();
      await running;
    },
  };
}

export type { TemporalLogger };
