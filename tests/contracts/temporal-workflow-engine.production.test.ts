import { fileURLToPath } from "node:url";
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTemporalWorker, type TemporalWorkerHandle } from "#infrastructure/production/temporal/worker";
import { TemporalWorkflowEngine } from "#infrastructure/production/temporal/temporal-workflow-engine";
import { approvalWorkflow } from "#workflows/temporal/fixtures/approval-workflow";
import { serverFor, useServer } from "../support/server-availability";

/**
 * The Temporal engine and worker against a real Temporal server
 * (TEMPORAL_ADDRESS or Testcontainers): the test-only definition runs in
 * Temporal's real sandbox, with an activity, ctx.now and a signal wait.
 * Offline parts: workflows/temporal/*.test.ts.
 */
const plan = await serverFor("temporal");

describe.skipIf(plan.skip !== undefined)(`Temporal (${plan.skip ?? plan.source})`, () => {
  const server = plan.skip === undefined ? useServer(plan) : null;
  const taskQueue = `contract-${randomUUID()}`;
  let worker: TemporalWorkerHandle;
  let engine: TemporalWorkflowEngine;
  const greeted: unknown[] = [];

  beforeAll(async () => {
    if (!server) throw new Error("unreachable");
    worker = await createTemporalWorker({
      address: server().url,
      taskQueue,
      workflowsPath: fileURLToPath(new URL("../../workflows/temporal/fixtures/workflows.ts", import.meta.url)),
      activities: {
        greet: async (name) => {
          greeted.push(name);
          return `Hello, ${String(name)}`;
        },
      },
    });
    void worker.run();
    engine = await TemporalWorkflowEngine.connect({ address: server().url, taskQueue });
  }, 180_000);

  afterAll(async () => {
    await engine?.close();
    await worker?.shutdown();
  }, 60_000);

  it("runs a definition to the signal it waits for; the operator sees the step it waits on", async () => {
    const id = `test-approval-${randomUUID()}`;
    await engine.start(approvalWorkflow, id, { name: "Ada", waitMs: 3_600_000 });
    await engine.start(approvalWorkflow, id, { name: "ignored second start", waitMs: 1 });
    let info = await engine.describe(id);
    for (let i = 0; i < 100 && info?.currentStep !== "wait:approve"; i++) {
      await new Promise((r) => setTimeout(r, 100));
      info = await engine.describe(id);
    }
    expect(info).toMatchObject({ workflowId: id, type: "test-approval", status: "running", currentStep: "wait:approve" });
    expect(info?.nextWakeAt).not.toBeNull();
    await engine.signal(id, "approve", { by: "admin-1" });
    const done = await engine.waitForCompletion(id, 30_000);
    expect(done).toMatchObject({ status: "completed", result: { greeting: "Hello, Ada", decidedBy: "signal", payload: { by: "admin-1" } } });
    expect(greeted).toContain("Ada");
    expect(greeted).not.toContain("ignored second start");
  }, 60_000);

  it("answers the timer when no signal comes before the deadline, and lists the run", async () => {
    const id = `test-approval-${randomUUID()}`;
    await engine.start(approvalWorkflow, id, { name: "Grace", waitMs: 200 });
    const done = await engine.waitForCompletion(id, 30_000);
    expect(done).toMatchObject({ status: "completed", result: { decidedBy: "timer", payload: null } });
    expect(await engine.describe(`missing-${randomUUID()}`)).toBeNull();
  }, 60_000);
});
