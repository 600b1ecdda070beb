import type { Client, Connection, WorkflowExecutionInfo, WorkflowExecutionStatusName } from "@temporalio/client";
import type {
  WorkflowDefinition,
  WorkflowEngine,
  WorkflowRunInfo,
  WorkflowStatus,
} from "#application/ports/workflow";

/** The query the workflow-side context answers (workflows/temporal/context.ts, statusQuery). */
const STATUS_QUERY = "docuchat.status";

export const DEFAULT_TASK_QUEUE = "docuchat";

/** The client library: imported when the engine connects, not with the server bundle (decision 253). */
type TemporalClientLibrary = typeof import("@temporalio/client");

export interface TemporalWorkflowEngineOptions {
  client: Client;
  taskQueue?: string;
}

export interface TemporalConnectOptions {
  /** host:port of the Temporal frontend (TEMPORAL_ADDRESS). */
  address: string;
  namespace?: string;
  taskQueue?: string;
}

function toStatus(name: WorkflowExecutionStatusName): WorkflowStatus {
  switch (name) {
    case "COMPLETED":
      return "completed";
    case "CANCELLED":
      return "cancelled";
    case "FAILED":
    case "TERMINATED":
    case "TIMED_OUT":
      return "failed";
    default:
      // RUNNING, CONTINUED_AS_NEW, PAUSED, ...: not finished.
      return "running";
  }
}

function errorText(temporal: TemporalClientLibrary, error: unknown): string {
  if (error instanceof temporal.WorkflowFailedError) {
    // The interesting message is the innermost cause (the activity's or workflow's own error).
    let cause: unknown = error.cause;
    while (cause instanceof Error && cause.cause instanceof Error) cause = cause.cause;
    return cause instanceof Error ? cause.message : error.message;
  }
  return error instanceof Error ? error.message : String(error);
}

function isStatus(value: unknown): value is { currentStep: string | null; nextWakeAt: string | null } {
  return typeof value === "object" && value !== null && "currentStep" in value && "nextWakeAt" in value;
}

/**
 * The WorkflowEngine port on Temporal (ARCHITECTURE §4, `TEMPORAL_ADDRESS`).
 * The workflow id the application chooses (e.g. `account-deletion-<userId>`)
 * is Temporal's workflow id, so operators find runs by it in Temporal's UI.
 * Workers (scripts/worker.ts) run the definitions; this side only starts,
 * signals and describes them.
 */
export class TemporalWorkflowEngine implements WorkflowEngine {
  readonly client: Client;
  readonly taskQueue: string;
  private connection: Connection | null = null;

  private constructor(
    private readonly temporal: TemporalClientLibrary,
    options: TemporalWorkflowEngineOptions,
  ) {
    this.client = options.client;
    this.taskQueue = options.taskQueue ?? DEFAULT_TASK_QUEUE;
  }

  static async connect(options: TemporalConnectOptions): Promise<TemporalWorkflowEngine> {
    const temporal = await import("@temporalio/client");
    const connection = await temporal.Connection.connect({ address: options.address });
    const engine = new TemporalWorkflowEngine(temporal, {
      client: new temporal.Client({ connection, namespace: options.namespace ?? "default" }),
      taskQueue: options.taskQueue,
    });
    engine.connection = connection;
    return engine;
  }

  async start<I>(definition: WorkflowDefinition<I>, workflowId: string, input: I): Promise<void> {
    try {
      await this.client.workflow.start(definition.name, {
        taskQueue: this.taskQueue,
        workflowId,
        args: [input],
        // A workflow id names one run for good, as in the embedded runner: starting it again is a no-op.
        workflowIdReusePolicy: "REJECT_DUPLICATE",
      });
    } catch (error) {
      if (error instanceof this.temporal.WorkflowExecutionAlreadyStartedError) return;
      throw error;
    }
  }

  async signal(workflowId: string, signal: string, payload?: unknown): Promise<void> {
    try {
      await this.client.workflow.getHandle(workflowId).signal(signal, payload ?? null);
    } catch (error) {
      // The embedded runner ignores signals to finished or unknown runs; so do we.
      if (error instanceof this.temporal.WorkflowNotFoundError) return;
      throw error;
    }
  }

  async describe(workflowId: string): Promise<WorkflowRunInfo | null> {
    const handle = this.client.workflow.getHandle(workflowId);
    let info: Pick<WorkflowExecutionInfo, "workflowId" | "type" | "status" | "startTime" | "closeTime">;
    try {
      info = await handle.describe();
    } catch (error) {
      if (error instanceof this.temporal.WorkflowNotFoundError) return null;
      throw error;
    }
    const base = this.toRunInfo(info);
    if (base.status === "running") {
      const status = await handle.query<unknown>(STATUS_QUERY).catch(() => null);
      if (isStatus(status)) return { ...base, currentStep: status.currentStep, nextWakeAt: status.nextWakeAt };
      return base;
    }
    try {
      return { ...base, result: (await handle.result()) ?? null };
    } catch (error) {
      return { ...base, result: null, lastError: errorText(this.temporal, error) };
    }
  }

  async list(options: { status?: WorkflowStatus; limit?: number } = {}): Promise<WorkflowRunInfo[]> {
    const limit = options.limit ?? 100;
    const clauses = [`TaskQueue = '${this.taskQueue}'`];
    const statusNames: Record<WorkflowStatus, string[]> = {
      running: ["Running"],
      completed: ["Completed"],
      failed: ["Failed", "Terminated", "TimedOut"],
      cancelled: ["Canceled"],
    };
    if (options.status) {
      clauses.push(`(${statusNames[options.status].map((s) => `ExecutionStatus = '${s}'`).join(" OR ")})`);
    }
    const runs: WorkflowRunInfo[] = [];
    for await (const info of this.client.workflow.list({ query: clauses.join(" AND "), pageSize: Math.min(limit, 1000) })) {
      runs.push(this.toRunInfo(info));
      if (runs.length >= limit) break;
    }
    return runs;
  }

  async waitForCompletion(workflowId: string, timeoutMs: number): Promise<WorkflowRunInfo | null> {
    const handle = this.client.workflow.getHandle(workflowId);
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, timeoutMs);
    });
    try {
      await Promise.race([handle.result().then(() => undefined, () => undefined), timeout]);
    } finally {
      clearTimeout(timer);
    }
    return this.describe(workflowId);
  }

  async close(): Promise<void> {
    await this.connection?.close();
    this.connection = null;
  }

  private toRunInfo(info: Pick<WorkflowExecutionInfo, "workflowId" | "type" | "status" | "startTime" | "closeTime">): WorkflowRunInfo {
    const startedAt = info.startTime.toISOString();
    return {
      workflowId: info.workflowId,
      type: info.type,
      status: toStatus(info.status.name),
      currentStep: null,
      nextWakeAt: null,
      lastError: null,
      result: null,
      startedAt,
      updatedAt: info.closeTime?.toISOString() ?? startedAt,
    };
  }
}
