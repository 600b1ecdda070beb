/**
 * The WorkflowContext inside Temporal's workflow sandbox (ARCHITECTURE §4, §5).
 * This module is bundled into the workflow isolate: it may import only
 * @temporalio/workflow and deterministic code (types from the ports are erased).
 *
 *   ctx.activity  -> proxyActivities (retry policy from ActivityOptions)
 *   ctx.waitUntil -> condition(..., timeout) on a queue filled by setHandler(defineSignal(name))
 *   ctx.now       -> Date.now(), which Temporal makes deterministic in workflows
 */
import {
  condition,
  defineQuery,
  defineSignal,
  proxyActivities,
  setHandler,
  sleep,
  workflowInfo,
} from "@temporalio/workflow";
import type { ActivityOptions, WaitOutcome, WorkflowContext } from "#application/ports/workflow";

/** What an operator (and TemporalWorkflowEngine.describe) can ask a running workflow. */
export interface TemporalRunStatus {
  currentStep: string | null;
  nextWakeAt: string | null;
}

export const statusQuery = defineQuery<TemporalRunStatus>("docuchat.status");

/** Upper bound for one activity attempt; activities are short, idempotent calls into the application. */
export const ACTIVITY_START_TO_CLOSE = "10 minutes";

export function activityRetryPolicy(options: ActivityOptions = {}) {
  return {
    maximumAttempts: options.maxAttempts ?? 5,
    initialInterval: options.initialBackoffMs ?? 1_000,
    backoffCoefficient: 2,
    maximumInterval: options.maxBackoffMs ?? 5 * 60_000,
  };
}

export function createTemporalContext(): WorkflowContext {
  const status: TemporalRunStatus = { currentStep: null, nextWakeAt: null };
  setHandler(statusQuery, () => status);

  /** Signals per name, oldest first. Registering the handler also delivers signals Temporal buffered before it. */
  const queues = new Map<string, unknown[]>();
  const queueFor = (signal: string): unknown[] => {
    let queue = queues.get(signal);
    if (!queue) {
      const created: unknown[] = [];
      queue = created;
      queues.set(signal, created);
      setHandler(defineSignal<[unknown?]>(signal), (payload?: unknown) => {
        created.push(payload ?? null);
      });
    }
    return queue;
  };

  return {
    workflowId: workflowInfo().workflowId,

    async activity<R = unknown>(name: string, input: unknown, options?: ActivityOptions): Promise<R> {
      const activities = proxyActivities({
        startToCloseTimeout: ACTIVITY_START_TO_CLOSE,
        retry: activityRetryPolicy(options),
      });
      status.currentStep = name;
      status.nextWakeAt = null;
      const result = (await activities[name](input)) as R;
      status.currentStep = null;
      return result;
    },

    async waitUntil(until: Date, options?: { signal?: string }): Promise<WaitOutcome> {
      const signal = options?.signal;
      const remaining = until.getTime() - Date.now();
      status.currentStep = signal ? `wait:${signal}` : "wait:timer";
      status.nextWakeAt = until.toISOString();
      try {
        if (!signal) {
          if (remaining > 0) await sleep(remaining);
          return { reason: "timer" };
        }
        const queue = queueFor(signal);
        if (queue.length === 0 && remaining > 0) await condition(() => queue.length > 0, remaining);
        // A signal that arrived before the deadline wins, as in the embedded runner.
        if (queue.length > 0) return { reason: "signal", payload: queue.shift() };
        return { reason: "timer" };
      } finally {
        status.currentStep = null;
        status.nextWakeAt = null;
      }
    },

    now(): Date {
      return new Date(Date.now());
    },
  };
}
