import { MockActivityEnvironment } from "@temporalio/testing";
import { DefaultLogger } from "@temporalio/worker";
import { ApplicationFailure } from "@temporalio/activity";
import { describe, expect, it } from "vitest";
import { temporalActivities } from "#infrastructure/production/temporal/activities";

/** Activities run offline in Temporal's MockActivityEnvironment: a real activity Context, no server. */
describe("Temporal activities (MockActivityEnvironment)", () => {
  // The environment logs failed attempts itself; the tests look at outcomes instead.
  const opts = { logger: new DefaultLogger("ERROR") };
  const logs: { level: string; details: object }[] = [];
  const logger = {
    info: (details: object) => void logs.push({ level: "info", details }),
    warn: (details: object) => void logs.push({ level: "warn", details }),
  };

  it("runs the application's activity with its input and returns its result", async () => {
    const seen: unknown[] = [];
    const activities = temporalActivities({
      "library.markReady": async (input) => {
        seen.push(input);
        return { documentId: "d1", status: "ready" };
      },
    });
    const env = new MockActivityEnvironment({ attempt: 1 }, opts);
    const result = await env.run(activities["library.markReady"], { documentId: "d1" });
    expect(result).toEqual({ documentId: "d1", status: "ready" });
    expect(seen).toEqual([{ documentId: "d1" }]);
  });

  it("returns null for an activity that returns nothing (Temporal payloads cannot carry undefined)", async () => {
    const activities = temporalActivities({ "mail.send": async () => undefined });
    expect(await new MockActivityEnvironment(undefined, opts).run(activities["mail.send"], {})).toBeNull();
  });

  it("lets an ordinary failure through, so Temporal retries it, and logs the attempt with the workflow id", async () => {
    logs.length = 0;
    const activities = temporalActivities(
      {
        "library.extract": async () => {
          throw new Error("storage timeout");
        },
      },
      logger,
    );
    const env = new MockActivityEnvironment({
      attempt: 2,
      workflowExecution: { workflowId: "ingestion-d1", runId: "r1" },
    }, opts);
    const error = await env.run(activities["library.extract"], {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(ApplicationFailure);
    expect((error as Error).message).toBe("storage timeout");
    expect(logs).toEqual([
      { level: "warn", details: expect.objectContaining({ activity: "library.extract", workflowId: "ingestion-d1", attempt: 2 }) },
    ]);
  });

  it("turns an error the application marks permanent into a non-retryable ApplicationFailure", async () => {
    class DocumentGone extends Error {
      readonly retryable = false;
      constructor() {
        super("document d1 was deleted");
        this.name = "DocumentGone";
      }
    }
    const activities = temporalActivities({
      "library.extract": async () => {
        throw new DocumentGone();
      },
    });
    const error = await new MockActivityEnvironment(undefined, opts).run(activities["library.extract"], {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApplicationFailure);
    expect((error as ApplicationFailure).nonRetryable).toBe(true);
    expect((error as ApplicationFailure).type).toBe("DocumentGone");
    expect((error as ApplicationFailure).message).toBe("document d1 was deleted");
  });
});
