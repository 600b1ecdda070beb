import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

/**
 * The mapping of WorkflowContext onto Temporal's workflow API, checked against
 * a stand-in for @temporalio/workflow (its functions only work inside a worker's
 * sandbox, which needs a server). The real sandbox runs it in the Temporal
 * engine test when a server is available, and bundle.test.ts proves it bundles.
 */
const temporal = vi.hoisted(() => {
  const state = {
    signalHandlers: new Map<string, (payload?: unknown) => void>(),
    queryHandlers: new Map<string, () => unknown>(),
    proxyOptions: [] as unknown[],
    activityCalls: [] as { name: string; input: unknown }[],
    sleeps: [] as number[],
    conditions: [] as number[],
    /** What happens while condition() waits: deliver a signal, or let the timer win. */
    duringCondition: null as null | (() => void),
    /** The workflow clock at the start of each test (Date is faked: Temporal makes it deterministic in workflows). */
    start: Date.parse("2030-01-01T00:00:00.000Z"),
  };
  return state;
});

vi.mock("@temporalio/workflow", () => ({
  workflowInfo: () => ({ workflowId: "wf-1", workflowType: "test-approval" }),
  defineSignal: (name: string) => ({ type: "signal", name }),
  defineQuery: (name: string) => ({ type: "query", name }),
  setHandler: (def: { type: string; name: string }, handler: (payload?: unknown) => unknown) => {
    if (def.type === "signal") temporal.signalHandlers.set(def.name, handler);
    else temporal.queryHandlers.set(def.name, handler as () => unknown);
  },
  proxyActivities: (options: unknown) => {
    temporal.proxyOptions.push(options);
    return new Proxy(
      {},
      {
        get: (_target, name: string) => async (input: unknown) => {
          temporal.activityCalls.push({ name, input });
          return `result of ${name}`;
        },
      },
    );
  },
  sleep: async (ms: number) => {
    temporal.sleeps.push(ms);
    vi.setSystemTime(Date.now() + ms);
  },
  condition: async (fn: () => boolean, timeout: number) => {
    temporal.conditions.push(timeout);
    temporal.duringCondition?.();
    if (fn()) return true;
    vi.setSystemTime(Date.now() + timeout);
    return false;
  },
  ApplicationFailure: { nonRetryable: (message: string) => new Error(message) },
}));

const { createTemporalContext, statusQuery } = await import("./context");
const { approvalWorkflow } = await import("./fixtures/approval-workflow");
const { workflowDispatcher } = await import("./definitions");

describe("WorkflowContext on Temporal", () => {
  beforeEach(() => {
    temporal.signalHandlers.clear();
    temporal.queryHandlers.clear();
    temporal.proxyOptions.length = 0;
    temporal.activityCalls.length = 0;
    temporal.sleeps.length = 0;
    temporal.conditions.length = 0;
    temporal.duringCondition = null;
    vi.useFakeTimers({ now: temporal.start, toFake: ["Date"] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("maps ctx.activity onto proxyActivities with the retry policy of ActivityOptions", async () => {
    const ctx = createTemporalContext();
    expect(ctx.workflowId).toBe("wf-1");
    expect(await ctx.activity("library.extract", { documentId: "d1" }, { maxAttempts: 3, initialBackoffMs: 250, maxBackoffMs: 4000 })).toBe(
      "result of library.extract",
    );
    await ctx.activity("library.index", null);
    expect(temporal.activityCalls).toEqual([
      { name: "library.extract", input: { documentId: "d1" } },
      { name: "library.index", input: null },
    ]);
    expect(temporal.proxyOptions[0]).toMatchObject({
      retry: { maximumAttempts: 3, initialInterval: 250, backoffCoefficient: 2, maximumInterval: 4000 },
    });
    // The port's defaults: 5 attempts in all, from 1 s.
    expect(temporal.proxyOptions[1]).toMatchObject({ retry: { maximumAttempts: 5, initialInterval: 1000 } });
  });

  it("maps a plain ctx.waitUntil onto a durable timer for the time left", async () => {
    const ctx = createTemporalContext();
    const outcome = await ctx.waitUntil(new Date(Date.now() + 60_000));
    expect(outcome).toEqual({ reason: "timer" });
    expect(temporal.sleeps).toEqual([60_000]);
    // A deadline already past does not wait at all.
    expect(await ctx.waitUntil(new Date(Date.now() - 1))).toEqual({ reason: "timer" });
    expect(temporal.sleeps).toHaveLength(1);
  });

  it("maps a signal wait onto condition + setHandler(defineSignal): the signal wins before the deadline", async () => {
    const ctx = createTemporalContext();
    temporal.duringCondition = () => temporal.signalHandlers.get("approve")?.({ by: "admin-1" });
    const outcome = await ctx.waitUntil(new Date(Date.now() + 3_600_000), { signal: "approve" });
    expect(outcome).toEqual({ reason: "signal", payload: { by: "admin-1" } });
    expect(temporal.conditions).toEqual([3_600_000]);
  });

  it("answers the timer when no signal came before the deadline", async () => {
    const ctx = createTemporalContext();
    expect(await ctx.waitUntil(new Date(Date.now() + 1_000), { signal: "approve" })).toEqual({ reason: "timer" });
  });

  it("keeps signals that arrived before the wait, one per wait, oldest first", async () => {
    const ctx = createTemporalContext();
    // First wait registers the handler (Temporal then delivers buffered signals into it).
    temporal.duringCondition = () => {
      const deliver = temporal.signalHandlers.get("exit");
      deliver?.("first");
      deliver?.("second");
    };
    expect(await ctx.waitUntil(new Date(Date.now() + 1_000), { signal: "exit" })).toEqual({ reason: "signal", payload: "first" });
    temporal.duringCondition = null;
    expect(await ctx.waitUntil(new Date(Date.now() + 1_000), { signal: "exit" })).toEqual({ reason: "signal", payload: "second" });
    // The queued signal answered without waiting.
    expect(temporal.conditions).toHaveLength(1);
  });

  it("ctx.now reads the workflow clock, and the status query tells the current step and next wake-up", async () => {
    const ctx = createTemporalContext();
    expect(ctx.now().toISOString()).toBe("2030-01-01T00:00:00.000Z");
    const status = temporal.queryHandlers.get(statusQuery.name);
    expect(status?.()).toEqual({ currentStep: null, nextWakeAt: null });
    temporal.duringCondition = () => {
      expect(status?.()).toEqual({ currentStep: "wait:approve", nextWakeAt: "2030-01-01T00:00:05.000Z" });
    };
    await ctx.waitUntil(new Date(Date.now() + 5_000), { signal: "approve" });
    expect(status?.()).toEqual({ currentStep: null, nextWakeAt: null });
  });

  it("runs a definition as the workflow type of its name", async () => {
    const run = workflowDispatcher([approvalWorkflow as never]);
    temporal.duringCondition = () => temporal.signalHandlers.get("approve")?.("ok");
    const result = await run({ name: "Ada", waitMs: 10_000 });
    expect(result).toEqual({
      greeting: "result of greet",
      decidedBy: "signal",
      payload: "ok",
      waitedFrom: "2030-01-01T00:00:00.000Z",
    });
  });
});
