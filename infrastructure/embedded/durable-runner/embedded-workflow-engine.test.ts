import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { ActivityRegistry, WorkflowDefinition } from "#application/ports/workflow";
import { EmbeddedWorkflowEngine, type AnyWorkflowDefinition, type EmbeddedWorkflowEngineOptions } from "./embedded-workflow-engine";
import { ActivityFailedError } from "./replay-context";
import { ManualClock, systemClock } from "#infrastructure/embedded/system-clock";
import { openDatabase } from "#infrastructure/embedded/sqlite/open-database";

const DAY = 24 * 60 * 60 * 1000;

describe("EmbeddedWorkflowEngine", () => {
  let db: Database.Database;
  let clock: ManualClock;
  let engines: EmbeddedWorkflowEngine[];

  beforeEach(() => {
    db = new Database(":memory:");
    clock = new ManualClock();
    engines = [];
  });

  afterEach(async () => {
    for (const engine of engines) await engine.stop();
    db.close();
  });

  function makeEngine(activities: ActivityRegistry, definitions: AnyWorkflowDefinition[], options: Partial<EmbeddedWorkflowEngineOptions> = {}) {
    // A long tick keeps the scheduler out of the way; tests drive it with runDue().
    const engine = new EmbeddedWorkflowEngine(db, { activities, definitions, clock, tickMs: 60_000, ...options });
    engines.push(engine);
    return engine;
  }

  function journal(workflowId: string) {
    return db
      .prepare("SELECT seq, kind, name FROM workflow_journal WHERE workflow_id = ? ORDER BY seq")
      .all(workflowId) as { seq: number; kind: string; name: string }[];
  }

  it("runs steps in order and replays journaled results instead of re-running them", async () => {
    const calls: string[] = [];
    const activities: ActivityRegistry = {
      a: async (input) => (calls.push("a"), { got: input }),
      b: async (input) => (calls.push("b"), `b(${JSON.stringify(input)})`),
      c: async () => (calls.push("c"), 3),
    };
    const seen: unknown[] = [];
    const flow: WorkflowDefinition<{ n: number }, unknown> = {
      name: "ordered",
      async run(ctx, input) {
        const a = await ctx.activity<{ got: unknown }>("a", input.n);
        seen.push(a);
        const b = await ctx.activity<string>("b", a);
        const started = ctx.now();
        await ctx.waitUntil(new Date(started.getTime() + 60_000));
        const c = await ctx.activity<number>("c", null);
        return { a, b, c, started: started.toISOString() };
      },
    };
    const engine = makeEngine(activities, [flow]);
    await engine.start(flow, "wf-1", { n: 7 });
    await engine.runDue();

    expect(calls).toEqual(["a", "b"]);
    const waiting = await engine.describe("wf-1");
    expect(waiting).toMatchObject({ status: "running", currentStep: "wait:timer" });
    expect(waiting?.nextWakeAt).toBe(new Date(clock.now().getTime() + 60_000).toISOString());

    const startedAt = clock.now().toISOString();
    clock.advance(60_000);
    await engine.runDue();

    expect(calls).toEqual(["a", "b", "c"]);
    // The replayed result is the journaled JSON, equal to the live one.
    expect(seen).toEqual([{ got: 7 }, { got: 7 }]);
    const done = await engine.describe("wf-1");
    expect(done).toMatchObject({ status: "completed", currentStep: null, nextWakeAt: null });
    // ctx.now() is replayed too: the second execution saw the first one's time.
    expect(done?.result).toEqual({ a: { got: 7 }, b: 'b({"got":7})', c: 3, started: startedAt });
    expect(journal("wf-1").map((e) => `${e.seq}:${e.kind}:${e.name}`)).toEqual([
      "0:activity:a",
      "1:activity:b",
      "2:now:now",
      "3:wait:timer",
      "4:activity:c",
    ]);
  });

  it("retries a failing activity with exponential backoff on the clock, then succeeds", async () => {
    let attempts = 0;
    const flaky: ActivityRegistry = {
      flaky: async () => {
        attempts++;
        if (attempts < 3) throw new Error(`boom ${attempts}`);
        return "ok";
      },
    };
    const flow: WorkflowDefinition<null, string> = {
      name: "retrying",
      run: (ctx) => ctx.activity<string>("flaky", null, { maxAttempts: 5, initialBackoffMs: 1_000 }),
    };
    const engine = makeEngine(flaky, [flow]);
    const t0 = clock.now().getTime();
    await engine.start(flow, "wf-retry", null);
    await engine.runDue();

    expect(attempts).toBe(1);
    let info = await engine.describe("wf-retry");
    expect(info).toMatchObject({ status: "running", lastError: "boom 1", currentStep: "flaky" });
    expect(info?.nextWakeAt).toBe(new Date(t0 + 1_000).toISOString());

    // The retry wait is durable and honoured: not due yet, nothing runs.
    clock.advance(999);
    await engine.runDue();
    expect(attempts).toBe(1);

    clock.advance(1);
    await engine.runDue();
    expect(attempts).toBe(2);
    info = await engine.describe("wf-retry");
    // Second delay doubles.
    expect(info?.nextWakeAt).toBe(new Date(t0 + 1_000 + 2_000).toISOString());
    expect(info?.lastError).toBe("boom 2");

    clock.advance(2_000);
    await engine.runDue();
    expect(attempts).toBe(3);
    info = await engine.describe("wf-retry");
    expect(info).toMatchObject({ status: "completed", result: "ok" });
  });

  it("caps the backoff at maxBackoffMs", async () => {
    const flow: WorkflowDefinition<null, unknown> = {
      name: "capped",
      run: (ctx) => ctx.activity("fail", null, { maxAttempts: 10, initialBackoffMs: 1_000, maxBackoffMs: 1_500 }),
    };
    const engine = makeEngine({ fail: () => Promise.reject(new Error("no")) }, [flow]);
    await engine.start(flow, "wf-cap", null);
    await engine.runDue();
    clock.advance(1_000);
    await engine.runDue();
    const info = await engine.describe("wf-cap");
    expect(info?.nextWakeAt).toBe(new Date(clock.now().getTime() + 1_500).toISOString());
  });

  it("marks the run failed with last_error after maxAttempts", async () => {
    let attempts = 0;
    const flow: WorkflowDefinition<null, unknown> = {
      name: "doomed",
      async run(ctx) {
        await ctx.activity("ok", null);
        return ctx.activity("broken", null, { maxAttempts: 3, initialBackoffMs: 10 });
      },
    };
    const engine = makeEngine(
      {
        ok: async () => "fine",
        broken: async () => {
          attempts++;
          throw new Error("disk on fire");
        },
      },
      [flow],
    );
    await engine.start(flow, "wf-doomed", null);
    for (let i = 0; i < 5; i++) {
      await engine.runDue();
      clock.advance(1_000);
    }
    expect(attempts).toBe(3);
    const info = await engine.waitForCompletion("wf-doomed", 1_000);
    expect(info).toMatchObject({ status: "failed", currentStep: null, nextWakeAt: null });
    expect(info?.lastError).toContain("disk on fire");
    expect(await engine.list({ status: "failed" })).toHaveLength(1);
  });

  it("lets the workflow catch a permanent activity failure (compensation), replaying it as the same error", async () => {
    const compensations: string[] = [];
    const flow: WorkflowDefinition<null, string> = {
      name: "compensating",
      async run(ctx) {
        try {
          await ctx.activity("broken", null, { maxAttempts: 1 });
          return "unreachable";
        } catch (error) {
          if (!(error instanceof ActivityFailedError)) throw error;
          await ctx.waitUntil(new Date(ctx.now().getTime() + 1_000));
          await ctx.activity("compensate", error.message);
          return "compensated";
        }
      },
    };
    const engine = makeEngine(
      {
        broken: () => Promise.reject(new Error("nope")),
        compensate: async (why) => void compensations.push(String(why)),
      },
      [flow],
    );
    await engine.start(flow, "wf-comp", null);
    await engine.runDue();
    clock.advance(1_000);
    await engine.runDue();
    expect(await engine.describe("wf-comp")).toMatchObject({ status: "completed", result: "compensated" });
    expect(compensations).toEqual(["Activity broken failed after 1 attempt(s): nope"]);
  });

  it("fires a 7-day timer when the test clock moves past it", async () => {
    const purged: string[] = [];
    const deletion: WorkflowDefinition<{ userId: string }, string> = {
      name: "account-deletion",
      async run(ctx, { userId }) {
        const outcome = await ctx.waitUntil(new Date(ctx.now().getTime() + 7 * DAY), { signal: "retrieved" });
        if (outcome.reason === "signal") return "cancelled";
        await ctx.activity("purge", userId);
        return "purged";
      },
    };
    const engine = makeEngine({ purge: async (id) => void purged.push(String(id)) }, [deletion]);
    await engine.start(deletion, "deletion-u1", { userId: "u1" });
    await engine.runDue();
    expect(await engine.describe("deletion-u1")).toMatchObject({ status: "running", currentStep: "wait:retrieved" });

    clock.advance(7 * DAY - 1);
    await engine.runDue();
    expect(purged).toEqual([]);

    clock.advance(1);
    await engine.runDue();
    expect(purged).toEqual(["u1"]);
    expect(await engine.describe("deletion-u1")).toMatchObject({ status: "completed", result: "purged" });
  });

  describe("signals", () => {
    const purged: string[] = [];
    const deletion: WorkflowDefinition<{ userId: string }, unknown> = {
      name: "account-deletion",
      async run(ctx, { userId }) {
        const outcome = await ctx.waitUntil(new Date(ctx.now().getTime() + 7 * DAY), { signal: "retrieved" });
        if (outcome.reason === "signal") return { cancelled: true, by: outcome.payload };
        await ctx.activity("purge", userId);
        return { cancelled: false };
      },
    };
    const activities: ActivityRegistry = { purge: async (id) => void purged.push(String(id)) };

    beforeEach(() => {
      purged.length = 0;
    });

    it("a signal before the deadline wins and wakes the waiting run at once", async () => {
      const engine = makeEngine(activities, [deletion]);
      await engine.start(deletion, "deletion-u2", { userId: "u2" });
      await engine.runDue();
      clock.advance(3 * DAY);
      await engine.signal("deletion-u2", "retrieved", { via: "login" });
      // No clock move, no runDue: the signal itself schedules the run.
      const info = await engine.waitForCompletion("deletion-u2", 2_000);
      expect(info).toMatchObject({ status: "completed", result: { cancelled: true, by: { via: "login" } } });

      clock.advance(30 * DAY);
      await engine.runDue();
      expect(purged).toEqual([]);
    });

    it("a signal sent before the run reaches its wait is kept and consumed there", async () => {
      const engine = makeEngine(activities, [deletion]);
      await engine.signal("deletion-u3", "retrieved", "early");
      await engine.start(deletion, "deletion-u3", { userId: "u3" });
      await engine.runDue();
      expect(await engine.describe("deletion-u3")).toMatchObject({
        status: "completed",
        result: { cancelled: true, by: "early" },
      });
    });

    it("a signal that arrives after the deadline does not cancel the timer", async () => {
      const engine = makeEngine(activities, [deletion]);
      await engine.start(deletion, "deletion-u4", { userId: "u4" });
      await engine.runDue();
      await engine.stop(); // the process is down while the deadline passes
      clock.advance(8 * DAY);
      const restarted = makeEngine(activities, [deletion]);
      await restarted.signal("deletion-u4", "retrieved", "too late");
      await restarted.runDue();
      expect(await restarted.describe("deletion-u4")).toMatchObject({ result: { cancelled: false } });
      expect(purged).toEqual(["u4"]);
    });

    it("ignores signals of other names", async () => {
      const engine = makeEngine(activities, [deletion]);
      await engine.start(deletion, "deletion-u5", { userId: "u5" });
      await engine.runDue();
      await engine.signal("deletion-u5", "something-else");
      await engine.runDue();
      expect(await engine.describe("deletion-u5")).toMatchObject({ status: "running", currentStep: "wait:retrieved" });
    });
  });

  it("starting the same workflowId twice gives one run", async () => {
    let runs = 0;
    const flow: WorkflowDefinition<{ v: number }, number> = {
      name: "once",
      run: async (ctx, input) => ctx.activity<number>("count", input.v),
    };
    const engine = makeEngine({ count: async (v) => (runs++, v) }, [flow]);
    await Promise.all([engine.start(flow, "wf-once", { v: 1 }), engine.start(flow, "wf-once", { v: 2 })]);
    await engine.runDue();
    await engine.start(flow, "wf-once", { v: 3 });
    await engine.runDue();
    expect(runs).toBe(1);
    expect(await engine.describe("wf-once")).toMatchObject({ status: "completed", result: 1 });
    expect(await engine.list()).toHaveLength(1);
  });

  it("never executes one run twice at the same time", async () => {
    let concurrent = 0;
    let maxConcurrent = 0;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const flow: WorkflowDefinition<null, unknown> = {
      name: "slow",
      run: (ctx) => ctx.activity("slow", null),
    };
    const engine = makeEngine(
      {
        slow: async () => {
          concurrent++;
          maxConcurrent = Math.max(maxConcurrent, concurrent);
          await gate;
          concurrent--;
          return "done";
        },
      },
      [flow],
    );
    await engine.start(flow, "wf-slow", null);
    await engine.resume();
    await engine.signal("wf-slow", "poke");
    const draining = engine.runDue();
    release();
    await draining;
    expect(maxConcurrent).toBe(1);
    expect(await engine.describe("wf-slow")).toMatchObject({ status: "completed" });
  });

  it("resumes unfinished runs on a new engine (restart) at the first unfinished step", async () => {
    const calls: string[] = [];
    const activities: ActivityRegistry = {
      one: async () => void calls.push("one"),
      two: async () => void calls.push("two"),
    };
    const flow: WorkflowDefinition<null, string> = {
      name: "two-steps",
      async run(ctx) {
        await ctx.activity("one", null);
        await ctx.waitUntil(new Date(ctx.now().getTime() + DAY));
        await ctx.activity("two", null);
        return "done";
      },
    };
    const first = makeEngine(activities, [flow]);
    await first.start(flow, "wf-restart", null);
    await first.runDue();
    await first.stop();
    clock.advance(2 * DAY);

    const second = makeEngine(activities, [flow]);
    await second.resume();
    const info = await second.waitForCompletion("wf-restart", 2_000);
    expect(info).toMatchObject({ status: "completed", result: "done" });
    expect(calls).toEqual(["one", "two"]);
  });

  it("keeps the retry count across a restart", async () => {
    let attempts = 0;
    const activities: ActivityRegistry = {
      broken: async () => {
        attempts++;
        throw new Error(`attempt ${attempts}`);
      },
    };
    const flow: WorkflowDefinition<null, unknown> = {
      name: "restart-retry",
      run: (ctx) => ctx.activity("broken", null, { maxAttempts: 2, initialBackoffMs: 5_000 }),
    };
    const first = makeEngine(activities, [flow]);
    await first.start(flow, "wf-rr", null);
    await first.runDue();
    await first.stop();
    expect(attempts).toBe(1);

    const second = makeEngine(activities, [flow]);
    await second.runDue();
    expect(attempts).toBe(1); // backoff not over yet
    clock.advance(5_000);
    await second.runDue();
    expect(attempts).toBe(2);
    expect(await second.describe("wf-rr")).toMatchObject({ status: "failed", lastError: expect.stringContaining("attempt 2") });
  });

  it("runs parallel activities, each journaled once, retrying only the failed one", async () => {
    const calls: Record<string, number> = { left: 0, right: 0 };
    const activities: ActivityRegistry = {
      left: async () => (calls.left++, "L"),
      right: async () => {
        calls.right++;
        if (calls.right === 1) throw new Error("transient");
        return "R";
      },
    };
    const flow: WorkflowDefinition<null, string[]> = {
      name: "parallel",
      run: (ctx) =>
        Promise.all([
          ctx.activity<string>("left", null),
          ctx.activity<string>("right", null, { initialBackoffMs: 100 }),
        ]),
    };
    const engine = makeEngine(activities, [flow]);
    await engine.start(flow, "wf-par", null);
    await engine.runDue();
    clock.advance(100);
    await engine.runDue();
    expect(await engine.describe("wf-par")).toMatchObject({ status: "completed", result: ["L", "R"] });
    expect(calls).toEqual({ left: 1, right: 2 });
  });

  it("fails a run whose code no longer matches its journal (non-determinism)", async () => {
    let variant = "a";
    const flow: WorkflowDefinition<null, unknown> = {
      name: "changing",
      async run(ctx) {
        await ctx.activity(variant, null);
        await ctx.waitUntil(new Date(ctx.now().getTime() + 1_000));
        return "done";
      },
    };
    const engine = makeEngine({ a: async () => 1, b: async () => 2 }, [flow]);
    await engine.start(flow, "wf-nd", null);
    await engine.runDue();
    variant = "b";
    clock.advance(1_000);
    await engine.runDue();
    const info = await engine.describe("wf-nd");
    expect(info?.status).toBe("failed");
    expect(info?.lastError).toMatch(/Non-deterministic/);
  });

  it("fails a run whose activity is not registered, without retrying", async () => {
    const flow: WorkflowDefinition<null, unknown> = { name: "missing", run: (ctx) => ctx.activity("nowhere", null) };
    const engine = makeEngine({}, [flow]);
    await engine.start(flow, "wf-missing", null);
    await engine.runDue();
    const info = await engine.describe("wf-missing");
    expect(info?.status).toBe("failed");
    expect(info?.lastError).toContain('No activity registered as "nowhere"');
  });

  it("waitForCompletion returns null for an unknown run and the running run on timeout", async () => {
    const flow: WorkflowDefinition<null, unknown> = {
      name: "sleepy",
      run: (ctx) => ctx.waitUntil(new Date(ctx.now().getTime() + DAY)),
    };
    const engine = makeEngine({}, [flow]);
    expect(await engine.waitForCompletion("nope", 30)).toBeNull();
    await engine.start(flow, "wf-sleepy", null);
    expect(await engine.waitForCompletion("wf-sleepy", 30)).toMatchObject({ status: "running" });
  });

  it("keeps ticking when the wall clock steps back, and fires a timer once the clock reaches it again", async () => {
    const flow: WorkflowDefinition<null, string> = {
      name: "deadline",
      async run(ctx) {
        await ctx.waitUntil(new Date(ctx.now().getTime() + 60 * 60_000));
        return "fired";
      },
    };
    const engine = new EmbeddedWorkflowEngine(db, { activities: {}, definitions: [flow], clock, tickMs: 20 });
    engines.push(engine);
    await engine.start(flow, "wf-step", null);
    await expect.poll(async () => (await engine.describe("wf-step"))?.nextWakeAt).toBeTruthy();
    try {
      // NTP steps the machine's clock back 30 days: the scheduler must go on ticking.
      vi.useFakeTimers({ toFake: ["Date"] });
      vi.setSystemTime(Date.now() - 30 * DAY);
      clock.advance(-30 * DAY);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(await engine.describe("wf-step")).toMatchObject({ status: "running" });
      // Then the clock port passes the deadline: the next tick reads the due time again and fires.
      clock.advance(30 * DAY + 60 * 60_000);
      expect(await engine.waitForCompletion("wf-step", 5_000)).toMatchObject({ status: "completed", result: "fired" });
    } finally {
      vi.useRealTimers();
    }
  });

  it("stop() waits for the execution in flight", async () => {
    let finished = false;
    const flow: WorkflowDefinition<null, unknown> = {
      name: "stopping",
      run: (ctx) => ctx.activity("work", null),
    };
    const engine = makeEngine(
      {
        work: async () => {
          await new Promise((r) => setTimeout(r, 50));
          finished = true;
        },
      },
      [flow],
    );
    await engine.start(flow, "wf-stop", null);
    await engine.stop();
    expect(finished).toBe(true);
    expect(await engine.describe("wf-stop")).toMatchObject({ status: "completed" });
  });

  it("retries an activity cut by a stop after the restart without spending an attempt, however many restarts come", async () => {
    const flow: WorkflowDefinition<null, unknown> = { name: "embedding", run: (ctx) => ctx.activity("embed", null, { maxAttempts: 2 }) };
    const outcomes: string[] = [];
    let cut: ((error: Error) => void) | null = null;
    let calls = 0;
    const embed = () => {
      calls++;
      // Like the embedding model: the work in progress gives up when the process stops.
      return calls > 5 ? Promise.resolve("embedded") : new Promise((_, reject) => (cut = reject));
    };
    for (let restart = 0; restart < 5; restart++) {
      const shutdown = new AbortController();
      const engine = makeEngine({ embed }, [flow], { stopping: shutdown.signal, onActivityAttempt: (_, outcome) => void outcomes.push(outcome) });
      if (restart === 0) await engine.start(flow, "wf-cut", null);
      else await engine.resume();
      await expect.poll(() => cut).not.toBeNull();
      shutdown.abort();
      cut!(new Error("The server is stopping; embedding resumes after the restart."));
      cut = null;
      await engine.stop();
      expect(await engine.describe("wf-cut")).toMatchObject({ status: "running", attempts: 0 });
    }
    const restarted = new EmbeddedWorkflowEngine(db, { activities: { embed }, definitions: [flow], clock, tickMs: 60_000 });
    engines.push(restarted);
    await restarted.resume();
    expect(await restarted.waitForCompletion("wf-cut", 5_000)).toMatchObject({ status: "completed", result: "embedded" });
    expect(outcomes).toEqual(["cancelled", "cancelled", "cancelled", "cancelled", "cancelled"]);
  });
});

describe("EmbeddedWorkflowEngine across processes (a web process records, the background process executes)", () => {
  let dir: string;
  const opened: Database.Database[] = [];
  const engines: EmbeddedWorkflowEngine[] = [];

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "runner-processes-"));
  });

  afterEach(async () => {
    for (const engine of engines.splice(0)) await engine.stop();
    for (const db of opened.splice(0)) db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Each "process" has its own connection to the same file, as the web and background processes do. */
  function engineOnFile(options: { executes: boolean; activities?: ActivityRegistry; definitions: AnyWorkflowDefinition[] }) {
    const db = openDatabase(join(dir, "workflows.db"));
    opened.push(db);
    // A tick far beyond the test's timeout: only the watch for other processes' writes can pick the run up.
    const engine = new EmbeddedWorkflowEngine(db, { activities: options.activities ?? {}, definitions: options.definitions, clock: systemClock, tickMs: 60 * 60_000, changeCheckMs: 5, executes: options.executes });
    engines.push(engine);
    return engine;
  }

  it("runs what another process started and wakes on its signal; the recording process never executes", async () => {
    const ranIn: string[] = [];
    const flow: WorkflowDefinition<{ n: number }, unknown> = {
      name: "greeting",
      async run(ctx, input) {
        const first = await ctx.activity<number>("double", input.n);
        const outcome = await ctx.waitUntil(new Date(Date.now() + 60 * 60_000), { signal: "proceed" });
        return { first, outcome };
      },
    };
    const web = engineOnFile({ executes: false, activities: { double: async (n) => (ranIn.push("web"), (n as number) * 2) }, definitions: [flow] });
    const background = engineOnFile({ executes: true, activities: { double: async (n) => (ranIn.push("background"), (n as number) * 2) }, definitions: [flow] });
    await background.resume();

    await web.start(flow, "wf-across", { n: 21 });
    const waiting = await web.waitForCompletion("wf-across", 200);
    expect(waiting).toMatchObject({ status: "running", currentStep: "wait:proceed" });

    await web.signal("wf-across", "proceed", { ok: true });
    const done = await web.waitForCompletion("wf-across", 10_000);
    expect(done).toMatchObject({ status: "completed", result: { first: 42, outcome: { reason: "signal", payload: { ok: true } } } });
    expect(ranIn).toEqual(["background"]);
  });
});
