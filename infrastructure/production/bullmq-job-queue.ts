import type { ConnectionOptions, Job, Queue, Worker } from "bullmq";
import type { JobHandlerRegistry, JobQueue } from "#application/ports/workflow";

/** What a job carries in Redis: the payload, wrapped so a bare `null` or number is still a valid job. */
export interface JobData {
  payload: unknown;
}

export interface BullmqOptions {
  connection: ConnectionOptions;
  /** Queue name (default "docuchat-jobs"); producers and workers must agree. */
  queueName?: string;
  /** Redis key prefix (default "bull"). */
  prefix?: string;
}

export interface BullmqJobQueueOptions extends BullmqOptions {
  /** Attempts when the caller gives none (default 5, as the embedded runner). */
  defaultMaxAttempts?: number;
  /** First retry delay, doubled per attempt (default 1000 ms, as the embedded runner). */
  backoffMs?: number;
  /**
   * How long finished jobs stay in Redis. While a job is kept, enqueueing its
   * jobId again is a no-op; after that it would run again. Default 30 days.
   */
  keepFinishedSeconds?: number;
}

const DEFAULT_QUEUE = "docuchat-jobs";

/** `redis://[:password@]host:port[/db]` (or rediss://) to BullMQ connection options. */
export function redisConnectionFromUrl(url: string): ConnectionOptions {
  const parsed = new URL(url);
  const db = parsed.pathname.replace(/^\//, "");
  return {
    host: parsed.hostname,
    port: parsed.port ? Number(parsed.port) : 6379,
    ...(parsed.username ? { username: decodeURIComponent(parsed.username) } : {}),
    ...(parsed.password ? { password: decodeURIComponent(parsed.password) } : {}),
    ...(db ? { db: Number(db) } : {}),
    ...(parsed.protocol === "rediss:" ? { tls: {} } : {}),
    // Required by BullMQ workers (blocking commands must not time out).
    maxRetriesPerRequest: null,
  };
}

/**
 * The BullMQ job id of job `name`/`jobId`: `job-<name>-<jobId>`, the same id the
 * embedded runner gives the run, readable by an operator. BullMQ refuses ':'
 * in custom ids, so each part is URI-encoded.
 */
export function bullmqJobId(name: string, jobId: string): string {
  return `job-${encodeURIComponent(name)}-${encodeURIComponent(jobId)}`;
}

/**
 * The JobQueue port on BullMQ (ARCHITECTURE §4, `REDIS_URL`). Enqueueing with a
 * jobId is idempotent because BullMQ ignores an add whose job id it already
 * holds; finished jobs are therefore kept (keepFinishedSeconds).
 */
export class BullmqJobQueue implements JobQueue {
  readonly queue: Queue<JobData>;
  private readonly defaultMaxAttempts: number;
  private readonly backoffMs: number;
  private readonly keepFinishedSeconds: number;

  private constructor(queue: Queue<JobData>, options: BullmqJobQueueOptions) {
    this.queue = queue;
    this.defaultMaxAttempts = options.defaultMaxAttempts ?? 5;
    this.backoffMs = options.backoffMs ?? 1_000;
    this.keepFinishedSeconds = options.keepFinishedSeconds ?? 30 * 24 * 3600;
  }

  /** BullMQ is imported here, not with the server bundle: an installation without Redis never loads it (decision 253). */
  static async open(options: BullmqJobQueueOptions): Promise<BullmqJobQueue> {
    const { Queue } = await import("bullmq");
    const queue = new Queue<JobData>(options.queueName ?? DEFAULT_QUEUE, {
      connection: options.connection,
      ...(options.prefix ? { prefix: options.prefix } : {}),
    });
    return new BullmqJobQueue(queue, options);
  }

  async enqueue(name: string, payload: unknown, options?: { jobId?: string; maxAttempts?: number }): Promise<void> {
    const attempts = Math.max(1, options?.maxAttempts ?? this.defaultMaxAttempts);
    await this.queue.add(name, { payload }, {
      ...(options?.jobId !== undefined ? { jobId: bullmqJobId(name, options.jobId) } : {}),
      attempts,
      backoff: { type: "exponential", delay: this.backoffMs },
      removeOnComplete: { age: this.keepFinishedSeconds },
      removeOnFail: { age: this.keepFinishedSeconds },
    });
  }

  async close(): Promise<void> {
    await this.queue.close();
  }
}

export interface BullmqJobWorkerOptions extends BullmqOptions {
  handlers: JobHandlerRegistry;
  /** Jobs processed at once by this worker (default 4). */
  concurrency?: number;
  logger?: { error(details: object, message?: string): void };
}

/**
 * Runs the registered job handlers (the same JobHandlerRegistry the embedded
 * runner uses). A job without a handler fails at once, without retries.
 */
export class BullmqJobWorker {
  readonly worker: Worker<JobData>;

  private constructor(worker: Worker<JobData>, logger: BullmqJobWorkerOptions["logger"]) {
    this.worker = worker;
    this.worker.on("failed", (job, error) => {
      logger?.error({ job: job?.id, name: job?.name, attempt: job?.attemptsMade, err: error }, "job attempt failed");
    });
    // Without a listener an 'error' event (e.g. Redis went away) would crash the process.
    this.worker.on("error", (error) => logger?.error({ err: error }, "job worker error"));
  }

  /** Imports BullMQ (as BullmqJobQueue.open) and starts taking jobs. */
  static async start(options: BullmqJobWorkerOptions): Promise<BullmqJobWorker> {
    const { handlers, logger } = options;
    const { UnrecoverableError, Worker } = await import("bullmq");
    const worker = new Worker<JobData>(
      options.queueName ?? DEFAULT_QUEUE,
      async (job: Job<JobData>) => {
        const handler = Object.hasOwn(handlers, job.name) ? handlers[job.name] : undefined;
        if (!handler) throw new UnrecoverableError(`No handler registered for job ${job.name}`);
        await handler(job.data.payload);
      },
      {
        connection: options.connection,
        concurrency: options.concurrency ?? 4,
        ...(options.prefix ? { prefix: options.prefix } : {}),
      },
    );
    return new BullmqJobWorker(worker, logger);
  }

  async close(): Promise<void> {
    await this.worker.close();
  }
}
