import type { ProjectorLag } from "./operational-state";

/** A store the app cannot serve without, and the cheapest call that proves it answers. */
export interface StoreProbe {
  name: string;
  check(): Promise<unknown>;
}

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

/** /readyz: every store answers, no projector is further behind than allowed, the background process runs. */
export async function checkReadiness(sources: ReadinessSources): Promise<Readiness> {
  const checks: Record<string, string> = {};
  await Promise.all(
    sources.stores.map(async (store) => {
      try {
        await withTimeout(Promise.resolve().then(() => store.check()));
        checks[`store:${store.name}`] = "ok";
      } catch (error) {
        sources.onFailure?.(`store:${store.name}`, error);
        checks[`store:${store.name}`] = "unreachable";
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
  return { ready: Object.values(checks).every((value) => value === "ok"), checks };
}
