import type { EventStore, RecordedEvent, Subscription } from "#application/ports/event-store";
import type { Projector, ProjectionWaiter } from "#application/ports/projection";
import type { ReadModelStore } from "#application/ports/read-model-store";
import { noTracing, type Tracing } from "#application/ports/tracing";

export const CHECKPOINT_COLLECTION = "projection_checkpoints";

export interface ProjectionCheckpoint {
  id: string;
  position: number;
}

export interface ProjectionLogger {
  info(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export interface ProjectorStatus {
  name: string;
  position: number;
  error: string | null;
}

export interface ProjectionRunnerOptions {
  /** First retry delay after a projector fails; doubles per consecutive failure. */
  retryBaseMs?: number;
  retryMaxMs?: number;
  /**
   * Projectors write read models: their writes and the checkpoint commit in one
   * transaction. Reactors (false) act outside it (start a workflow, append to
   * another stream) and store the checkpoint after: at least once, so they are idempotent.
   */
  transactional?: boolean;
  /** Each event that carries a trace context is projected in a span of that trace. */
  tracing?: Tracing;
}

const silentLogger: ProjectionLogger = { info: () => undefined, error: () => undefined };

interface RunningProjector {
  projector: Projector;
  position: number;
  error: string | null;
  failures: number;
  subscription: Subscription | null;
  retryTimer: ReturnType<typeof setTimeout> | null;
}

interface PositionWaiter {
  position: number;
  resolve(reached: boolean): void;
}

function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Keeps every projector subscribed to the log from its stored checkpoint.
 * Uses only the ports, so it serves any EventStore + ReadModelStore pair.
 */
export class ProjectionRunner implements ProjectionWaiter {
  private readonly running = new Map<string, RunningProjector>();
  private readonly waiters = new Set<PositionWaiter>();
  private readonly retryBaseMs: number;
  private readonly retryMaxMs: number;
  private readonly transactional: boolean;
  private readonly tracing: Tracing;
  private stopped = false;

  constructor(
    private readonly eventStore: EventStore,
    private readonly readModelStore: ReadModelStore,
    private readonly projectors: Projector[],
    private readonly logger: ProjectionLogger = silentLogger,
    options: ProjectionRunnerOptions = {},
  ) {
    this.retryBaseMs = options.retryBaseMs ?? 500;
    this.retryMaxMs = options.retryMaxMs ?? 30_000;
    this.transactional = options.transactional ?? true;
    this.tracing = options.tracing ?? noTracing;
    const names = new Set<string>();
    for (const projector of projectors) {
      if (names.has(projector.name)) throw new Error(`Duplicate projector name: ${projector.name}`);
      names.add(projector.name);
    }
  }

  private get checkpoints() {
    return this.readModelStore.collection<ProjectionCheckpoint>(CHECKPOINT_COLLECTION);
  }

  /**
   * Sets every projector up, then lets them catch up. Every set-up comes first: one projector's
   * catch-up of a long log keeps the event loop busy, and the others' read models (and
   * `onPrepared`, where the supervisor starts the web processes) would wait for it.
   */
  async start(onPrepared?: () => void): Promise<void> {
    this.stopped = false;
    const prepared: RunningProjector[] = [];
    for (const projector of this.projectors) {
      const state: RunningProjector = { projector, position: 0, error: null, failures: 0, subscription: null, retryTimer: null };
      this.running.set(projector.name, state);
      if (await this.prepare(state)) prepared.push(state);
    }
    onPrepared?.();
    for (const state of prepared) this.subscribe(state);
  }

  private async launch(state: RunningProjector): Promise<void> {
    if (await this.prepare(state)) this.subscribe(state);
  }

  /** The projector's read models set up and its checkpoint read; false when it failed (and a retry is scheduled). */
  private async prepare(state: RunningProjector): Promise<boolean> {
    if (this.stopped) return false;
    try {
      await state.projector.setup?.(this.readModelStore);
      state.position = (await this.checkpoints.get(state.projector.name))?.position ?? 0;
      return true;
    } catch (error) {
      this.fail(state, error);
      return false;
    }
  }

  private subscribe(state: RunningProjector): void {
    if (this.stopped) return;
    this.logger.info({ projector: state.projector.name, position: state.position }, "projector started");
    state.subscription = this.eventStore.subscribeToAll({
      fromPosition: state.position,
      onEvent: (event) => this.apply(state, event),
      onError: (error) => this.fail(state, error),
    });
    this.notifyWaiters();
  }

  private async apply(state: RunningProjector, event: RecordedEvent): Promise<void> {
    // A redelivery (e.g. after a restart racing a checkpoint) is skipped; projectors are idempotent anyway.
    if (event.position <= state.position) return;
    const { traceparent, tracestate } = event.metadata;
    if (!this.tracing.enabled || !traceparent) return this.project(state, event);
    // Projectors run in the background process: the trace continues from the append that wrote the event.
    const attributes = { "docuchat.projector": state.projector.name, "docuchat.event": event.type, "docuchat.position": event.position };
    return this.tracing.inSpan(`project ${state.projector.name}`, { kind: "consumer", parent: { traceparent, tracestate }, attributes }, () => this.project(state, event));
  }

  private async project(state: RunningProjector, event: RecordedEvent): Promise<void> {
    const { projector } = state;
    if (this.transactional) {
      // The projector's writes and its checkpoint commit together: a crash leaves both or neither.
      await this.readModelStore.transaction(async () => {
        await projector.handle(event, this.readModelStore);
        await this.checkpoints.upsert({ id: projector.name, position: event.position });
      });
    } else {
      await projector.handle(event, this.readModelStore);
      await this.checkpoints.upsert({ id: projector.name, position: event.position });
    }
    state.position = event.position;
    if (state.error !== null) this.logger.info({ projector: projector.name, position: event.position }, "projector recovered");
    state.error = null;
    state.failures = 0;
    this.notifyWaiters();
  }

  /** Stops the failing projector and retries it later with exponential backoff, so a poison event cannot spin. */
  private fail(state: RunningProjector, error: unknown): void {
    state.error = describeError(error);
    state.failures += 1;
    state.subscription = null;
    const delay = Math.min(this.retryMaxMs, this.retryBaseMs * 2 ** (state.failures - 1));
    this.logger.error(
      { projector: state.projector.name, position: state.position, err: error, retryInMs: delay },
      "projector failed",
    );
    if (this.stopped) return;
    state.retryTimer = setTimeout(() => {
      state.retryTimer = null;
      void this.launch(state);
    }, delay);
    state.retryTimer.unref();
  }

  async waitForPosition(position: number, timeoutMs = 5000): Promise<boolean> {
    if (this.reached(position)) return true;
    return new Promise<boolean>((resolve) => {
      const waiter: PositionWaiter = {
        position,
        resolve: (reached) => {
          clearTimeout(timer);
          this.waiters.delete(waiter);
          resolve(reached);
        },
      };
      const timer = setTimeout(() => waiter.resolve(false), timeoutMs);
      this.waiters.add(waiter);
    });
  }

  private reached(position: number): boolean {
    if (this.projectors.length === 0) return true;
    for (const projector of this.projectors) {
      const state = this.running.get(projector.name);
      if (!state || state.position < position) return false;
    }
    return true;
  }

  private notifyWaiters(): void {
    for (const waiter of this.waiters) if (this.reached(waiter.position)) waiter.resolve(true);
  }

  status(): ProjectorStatus[] {
    return this.projectors.map((projector) => {
      const state = this.running.get(projector.name);
      return { name: projector.name, position: state?.position ?? 0, error: state?.error ?? null };
    });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    const stopping: Promise<void>[] = [];
    for (const state of this.running.values()) {
      if (state.retryTimer) clearTimeout(state.retryTimer);
      state.retryTimer = null;
      if (state.subscription) stopping.push(state.subscription.stop());
      state.subscription = null;
    }
    await Promise.all(stopping);
    for (const waiter of this.waiters) waiter.resolve(false);
  }
}

/**
 * Drops each projector's collections and checkpoint and replays the whole log
 * into them, one transaction per batch. Stop any live runner of these
 * projectors first.
 */
export async function rebuildProjections(
  eventStore: EventStore,
  readModelStore: ReadModelStore,
  projectors: Projector[],
  options: { batchSize?: number } = {},
): Promise<{ events: number; ms: number }> {
  const started = performance.now();
  const batchSize = options.batchSize ?? 1000;
  const checkpoints = readModelStore.collection<ProjectionCheckpoint>(CHECKPOINT_COLLECTION);

  const owned = new Set(projectors.flatMap((p) => p.collections));
  for (const name of owned) {
    const existing = await readModelStore.listCollections();
    // dropCollections works by prefix: drop exactly `name` only when no foreign collection shares the prefix.
    const sharesPrefix = existing.some((c) => c !== name && c.startsWith(name) && !owned.has(c));
    if (sharesPrefix) await readModelStore.collection<{ id: string }>(name).deleteMany({});
    else await readModelStore.dropCollections(name);
  }
  for (const projector of projectors) {
    await checkpoints.delete(projector.name);
    await projector.setup?.(readModelStore);
  }

  let position = 0;
  let events = 0;
  for (;;) {
    const batch = await eventStore.readAll(position, batchSize);
    if (batch.length === 0) break;
    const last = batch[batch.length - 1].position;
    await readModelStore.transaction(async () => {
      for (const event of batch) {
        for (const projector of projectors) await projector.handle(event, readModelStore);
      }
      for (const projector of projectors) await checkpoints.upsert({ id: projector.name, position: last });
    });
    position = last;
    events += batch.length;
  }
  return { events, ms: performance.now() - started };
}
