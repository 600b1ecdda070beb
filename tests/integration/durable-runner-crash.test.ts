import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { type Child, kill, startScript, until } from "../support/child-process";

/**
 * The embedded durable runner survives a real crash (ARCHITECTURE §4): a child
 * process is SIGKILLed mid-workflow, restarted on the same files, and the run
 * resumes at the first unfinished step with every effect present exactly once.
 */
const worker = fileURLToPath(new URL("./fixtures/durable-crash-worker.ts", import.meta.url));
const WORKFLOW_ID = "crash-test-1";
const HOUR = 60 * 60 * 1000;

const startWorker = (dataDir: string, env: Record<string, string> = {}) => startScript(worker, [dataDir], env);

function query<T>(dataDir: string, sql: string, ...params: unknown[]): T[] {
  const file = join(dataDir, "app.sqlite");
  if (!existsSync(file)) return [];
  const db = new Database(file);
  try {
    return db.prepare(sql).all(...params) as T[];
  } catch {
    return []; // tables not created yet
  } finally {
    db.close();
  }
}

const executions = (dir: string) =>
  Object.fromEntries(
    query<{ step: string; n: number }>(dir, "SELECT step, COUNT(*) AS n FROM executions GROUP BY step").map((r) => [
      r.step,
      r.n,
    ]),
  );
const effects = (dir: string) =>
  query<{ step: string }>(dir, "SELECT json_extract(data, '$.step') AS step FROM events ORDER BY position").map(
    (r) => r.step,
  );
const journaled = (dir: string) =>
  query<{ name: string; outcome: string }>(
    dir,
    "SELECT name, outcome FROM workflow_journal WHERE workflow_id = ? AND kind != 'now' ORDER BY seq",
    WORKFLOW_ID,
  );
const run = (dir: string) =>
  query<{ status: string; current_step: string | null; next_wake_at: number | null; result: string | null }>(
    dir,
    "SELECT status, current_step, next_wake_at, result FROM workflow_runs WHERE workflow_id = ?",
    WORKFLOW_ID,
  )[0];

describe("embedded durable runner crash recovery", () => {
  let dataDir: string;
  const children: Child[] = [];

  afterEach(async () => {
    for (const child of children) if (child.process.exitCode === null) await kill(child);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("resumes after SIGKILL at the first unfinished step, with every effect exactly once and overdue timers fired", async () => {
    dataDir = mkdtempSync(join(tmpdir(), "durable-crash-"));

    // 1. Die inside step 2, after its effect but before its outcome is journaled.
    const first = startWorker(dataDir, { CRASH_IN_STEP: "step-2" });
    children.push(first);
    await until("step-2 to hang", () => existsSync(join(dataDir, "hanging")), first);
    await kill(first);
    expect(journaled(dataDir).map((e) => e.name)).toEqual(["step-1"]);
    expect(effects(dataDir)).toEqual(["step-1", "step-2"]);

    // 2. Restart: step 1 is replayed, step 2 runs again (its effect is not doubled), then the 1-hour timer waits.
    const second = startWorker(dataDir);
    children.push(second);
    await until("the timer wait", () => run(dataDir)?.current_step === "wait:timer", second);
    await kill(second);
    const waiting = run(dataDir);
    expect(waiting?.status).toBe("running");
    expect(waiting?.next_wake_at).toBeGreaterThan(Date.now() + HOUR - 5 * 60_000);
    expect(executions(dataDir)).toEqual({ "step-1": 1, "step-2": 2 });

    // 3. Two hours pass while no process runs; the restarted worker fires the overdue timer at once.
    writeFileSync(join(dataDir, "clock-offset-ms"), String(2 * HOUR));
    const third = startWorker(dataDir);
    children.push(third);
    const code = await Promise.race([
      third.exited,
      new Promise<"timeout">((r) => setTimeout(() => r("timeout"), 20_000)),
    ]);
    expect(code, third.output()).toBe(0);

    const done = run(dataDir);
    expect(done?.status).toBe("completed");
    expect(JSON.parse(done?.result ?? "null")).toEqual([
      "step-1 done",
      "step-2 done",
      "timer:timer",
      "step-3 done",
      "step-4 done",
    ]);
    expect(journaled(dataDir).map((e) => e.name)).toEqual(["step-1", "step-2", "timer", "step-3", "step-4"]);
    // None lost, none doubled, though step 2 ran twice (at least once execution, exactly once effect).
    expect(effects(dataDir)).toEqual(["step-1", "step-2", "step-3", "step-4"]);
    expect(executions(dataDir)).toEqual({ "step-1": 1, "step-2": 2, "step-3": 1, "step-4": 1 });
  });
});
