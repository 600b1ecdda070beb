import type { ProjectorLag } from "./operational-state";

/** A store the app cannot serve without, and the cheapest call that proves it answers (a write, where one is cheap). */
export interface StoreProbe {
  name: string;
  check(): Promise<unknown>;
  /** What a failed check says: "unreachable" unless the probe writes ("not writable"). */
  failure?: string;
}

/**
 * Reported, not counted: the web processes serve pages while the background process restarts
 * or its projectors catch up (issue 42 item 6); operators watch these apart, and alerts on them.
 */
const BACKGROUND_HEALTH = new Set(["projectors", "background"]);

export interface ReadinessSources {
  stores: readonly StoreProbe[];
  projectorLags(): Promise<ProjectorLag[]>;
  maxProjectorLagSeconds: number;
  /** Whether the process that runs projectors, workflows and jobs is up (always, in one process). */
  backgroundAlive(): Promise<boolean>;
  onFailure?(check: string, error: unknown): void;
}

export interface Readiness {
  ready: boolean;
  /** Each check by name: "ok", or what is wrong, in words that name no path, user or secret. */
  checks: Record<string, string>;
}

const PROBE_TIMEOUT_MS = 2_000;

function withTimeout<T>(work: Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer in ${PROBE_TIMEOUT_MS} ms`)), PROBE_TIMEOUT_MS);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/**
 * /readyz: ready when this process can serve, that is every store answers and accepts writes.
 * How far the projectors are behind and whether the background process runs are reported beside.
 */
export async function checkReadiness(sources: ReadinessSources): Promise<Readiness> {
  const checks: Record<string, string> = {};
  await Promise.all(
    sources.stores.map(async (store) => {
      try {
        await withTimeout(Promise.resolve().then(() => store.check()));
        checks[`store:${store.name}`] = "ok";
      } catch (error) {
        sources.onFailure?.(`store:${store.name}`, error);
        checks[`store:${store.name}`] = store.failure ?? "unreachable";
      }
    }),
  );
  try {
    const behind = (await withTimeout(sources.projectorLags())).filter((lag) => lag.seconds > sources.maxProjectorLagSeconds);
    checks.projectors = behind.length === 0 ? "ok" : `behind: ${behind.map((lag) => `${lag.name} ${Math.round(lag.seconds)} s`).join(", ")}`;
  } catch (error) {
    sources.onFailure?.("projectors", error);
    checks.projectors = "unknown";
  }
  checks.background = (await sources.backgroundAlive().catch(() => false)) ? "ok" : "down";
  return { ready: Object.entries(checks).every(([check, value]) => value === "ok" || BACKGROUND_HEALTH.has(check)), checks };
}
