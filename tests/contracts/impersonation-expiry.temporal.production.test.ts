import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTemporalWorker, type TemporalWorkerHandle } from "#infrastructure/production/temporal/worker";
import { TemporalWorkflowEngine } from "#infrastructure/production/temporal/temporal-workflow-engine";
import { impersonationExpiryWorkflow, impersonationExpiryWorkflowId } from "#workflows/impersonation-expiry";
import { serverFor, useServer } from "../support/server-availability";

/**
 * The impersonation expiry definition the embedded runner runs
 * (tests/integration/administration.test.ts moves its clock past the hour),
 * in Temporal's real sandbox from the production bundle (decision 050):
 * at the deadline it calls the expiry activity once; an earlier end
 * (signal 'ended') finishes it without. Needs a Temporal server
 * (TEMPORAL_ADDRESS or Testcontainers); reported skipped otherwise.
 */
const plan = await serverFor("temporal");

describe.skipIf(plan.skip !== undefined)(`impersonation expiry on Temporal (${plan.skip ?? plan.source})`, () => {
  const server = plan.skip === undefined ? useServer(plan) : null;
  const taskQueue = `impersonation-${randomUUID()}`;
  let worker: TemporalWorkerHandle;
  let engine: TemporalWorkflowEngine;
  const expired: string[] = [];

  beforeAll(async () => {
    if (!server) throw new Error("unreachable");
    worker = await createTemporalWorker({
      address: server().url,
      taskQueue,
      activities: {
        "administration.expireImpersonation": async (input) => {
          expired.push((input as { impersonationId: string }).impersonationId);
          return { expired: true };
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

  it("ends the impersonation at its deadline, once", async () => {
    const impersonationId = randomUUID();
    const id = impersonationExpiryWorkflowId(impersonationId);
    await engine.start(impersonationExpiryWorkflow, id, { impersonationId, deadline: new Date(Date.now() + 500).toISOString() });
    await engine.start(impersonationExpiryWorkflow, id, { impersonationId, deadline: new Date(Date.now() + 1).toISOString() });
    expect(await engine.waitForCompletion(id, 30_000)).toMatchObject({ status: "completed", result: { expired: true } });
    expect(expired.filter((e) => e === impersonationId)).toHaveLength(1);
  }, 60_000);

  it("finishes without ending anything when the admin ended it first", async () => {
    const impersonationId = randomUUID();
    const id = impersonationExpiryWorkflowId(impersonationId);
    await engine.start(impersonationExpiryWorkflow, id, { impersonationId, deadline: new Date(Date.now() + 3_600_000).toISOString() });
    await engine.signal(id, "ended", { at: new Date().toISOString() });
    expect(await engine.waitForCompletion(id, 30_000)).toMatchObject({ status: "completed", result: { expired: false } });
    expect(expired).not.toContain(impersonationId);
  }, 60_000);
});
