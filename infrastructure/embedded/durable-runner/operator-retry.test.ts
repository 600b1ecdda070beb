import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import type { WorkflowDefinition } from "#application/ports/workflow";
import { ManualClock } from "#infrastructure/embedded/system-clock";
import { EmbeddedWorkflowEngine } from "./embedded-workflow-engine";

/** The operators' page (decision 106): a failed run shows its attempts and last error, and a retry runs the failed step again. */
describe("an operator's retry of a failed run", () => {
  const db = new Database(":memory:");
  const clock = new ManualClock();
  let engine: EmbeddedWorkflowEngine;
  afterEach(async () => {
    await engine.stop();
  });

  it("re-runs the failed step (not the steps before it) and completes", async () => {
    const calls: string[] = [];
    let broken = true;
    const flow: WorkflowDefinition<null, string> = {
      name: "two-steps",
      async run(ctx) {
        const first = await ctx.activity<string>("first", null);
        const second = await ctx.activity<string>("second", null, { maxAttempts: 2, initialBackoffMs: 0 });
        return `${first}+${second}`;
      },
    };
    engine = new EmbeddedWorkflowEngine(db, {
      activities: {
        first: async () => (calls.push("first"), "a"),
        second: async () => {
          calls.push("second");
          if (broken) throw new Error("the mail server is down");
          return "b";
        },
      },
      definitions: [flow],
      clock,
      tickMs: 60_000,
    });
    await engine.start(flow, "run-1", null);
    await engine.runDue();
    expect(await engine.describe("run-1")).toMatchObject({ status: "failed", attempts: 2, lastError: expect.stringContaining("the mail server is down") });
    expect(await engine.retry("run-2-missing")).toBe(false);

    broken = false;
    expect(await engine.retry("run-1")).toBe(true);
    await engine.waitForCompletion("run-1", 5000);
    expect(await engine.describe("run-1")).toMatchObject({ status: "completed", result: "a+b", attempts: 0 });
    expect(calls).toEqual(["first", "second", "second", "second"]);
    // Only a failed run can be retried.
    expect(await engine.retry("run-1")).toBe(false);
  });
});
