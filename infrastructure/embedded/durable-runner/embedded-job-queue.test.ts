import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { EmbeddedJobQueue } from "./embedded-job-queue";
import { EmbeddedWorkflowEngine } from "./embedded-workflow-engine";
import { jobActivities } from "./job-workflow";
import { ManualClock } from "#infrastructure/embedded/system-clock";

describe("EmbeddedJobQueue", () => {
  let db: Database.Database;
  let clock: ManualClock;
  let engine: EmbeddedWorkflowEngine;
  let sent: unknown[];
  let failuresLeft: number;

  beforeEach(() => {
    db = new Database(":memory:");
    clock = new ManualClock();
    sent = [];
    failuresLeft = 0;
    const handlers = {
      "send-mail": async (payload: unknown) => {
        if (failuresLeft > 0) {
          failuresLeft--;
          throw new Error("smtp down");
        }
        sent.push(payload);
      },
    };
    engine = new EmbeddedWorkflowEngine(db, {
      activities: jobActivities(handlers),
      definitions: [],
      clock,
      tickMs: 60_000,
    });
  });

  afterEach(async () => {
    await engine.stop();
    db.close();
  });

  it("runs an enqueued job as the run job-<name>-<jobId>", async () => {
    const queue = new EmbeddedJobQueue(engine);
    await queue.enqueue("send-mail", { to: "a@example.com" }, { jobId: "m1" });
    const info = await engine.waitForCompletion("job-send-mail-m1", 2_000);
    expect(info).toMatchObject({ status: "completed", type: "embedded-job" });
    expect(sent).toEqual([{ to: "a@example.com" }]);
  });

  it("is idempotent by jobId", async () => {
    const queue = new EmbeddedJobQueue(engine);
    await queue.enqueue("send-mail", 1, { jobId: "same" });
    await queue.enqueue("send-mail", 2, { jobId: "same" });
    await engine.runDue();
    expect(sent).toEqual([1]);
  });

  it("retries a failing job and fails it after maxAttempts", async () => {
    const queue = new EmbeddedJobQueue(engine);
    failuresLeft = 1;
    await queue.enqueue("send-mail", "retried", { jobId: "r" });
    await engine.runDue();
    clock.advance(60_000);
    await engine.runDue();
    expect(sent).toEqual(["retried"]);

    failuresLeft = 10;
    await queue.enqueue("send-mail", "never", { jobId: "f", maxAttempts: 2 });
    await engine.runDue();
    clock.advance(60_000);
    await engine.runDue();
    const info = await engine.describe("job-send-mail-f");
    expect(info?.status).toBe("failed");
    expect(info?.lastError).toContain("smtp down");
  });

  it("fails a job without a handler", async () => {
    const queue = new EmbeddedJobQueue(engine);
    await queue.enqueue("unknown-job", null, { jobId: "x" });
    const info = await engine.waitForCompletion("job-unknown-job-x", 2_000);
    expect(info?.status).toBe("failed");
  });
});
