import { afterEach, describe, expect, it } from "vitest";
import type { JobHandlerRegistry, JobQueue } from "#application/ports/workflow";

export interface JobQueueFixture {
  queue: JobQueue;
  /** Resolves once every enqueued job has finished: succeeded, or failed for good after its retries. */
  settle(): Promise<void>;
  cleanup(): Promise<void>;
}

/**
 * Shared guarantees of every JobQueue adapter (embedded durable runner, BullMQ).
 * Handlers are registered by name when the queue's runner is built, so the
 * factory receives them.
 */
export function jobQueueContract(name: string, makeQueue: (handlers: JobHandlerRegistry) => Promise<JobQueueFixture>): void {
  describe(`JobQueue contract: ${name}`, () => {
    let fixture: JobQueueFixture | undefined;
    afterEach(async () => {
      await fixture?.cleanup();
      fixture = undefined;
    });

    /** Handlers that record their calls; `failures[name]` makes the next N calls of that handler throw. */
    async function setup() {
      const calls: { name: string; payload: unknown }[] = [];
      const failures: Record<string, number> = {};
      const record = (jobName: string) => async (payload: unknown) => {
        calls.push({ name: jobName, payload });
        if ((failures[jobName] ?? 0) > 0) {
          failures[jobName] -= 1;
          throw new Error(`${jobName} failed on purpose`);
        }
      };
      fixture = await makeQueue({ "send-mail": record("send-mail"), "make-thumbnail": record("make-thumbnail") });
      return { queue: fixture.queue, settle: fixture.settle, calls, failures };
    }

    it("runs the handler of an enqueued job with its payload", async () => {
      const { queue, settle, calls } = await setup();
      await queue.enqueue("send-mail", { to: "ada@example.com", template: "welcome" }, { jobId: "m1" });
      await settle();
      expect(calls).toEqual([{ name: "send-mail", payload: { to: "ada@example.com", template: "welcome" } }]);
    });

    it("dispatches jobs to the handler registered under their name", async () => {
      const { queue, settle, calls } = await setup();
      await queue.enqueue("make-thumbnail", { documentId: "d1" });
      await queue.enqueue("send-mail", "plain string payload");
      await settle();
      expect(calls.map((c) => c.name).sort()).toEqual(["make-thumbnail", "send-mail"]);
      expect(calls.find((c) => c.name === "make-thumbnail")?.payload).toEqual({ documentId: "d1" });
      expect(calls.find((c) => c.name === "send-mail")?.payload).toBe("plain string payload");
    });

    it("is idempotent by jobId, also after the job has finished", async () => {
      const { queue, settle, calls } = await setup();
      await queue.enqueue("send-mail", 1, { jobId: "same" });
      await queue.enqueue("send-mail", 2, { jobId: "same" });
      await settle();
      await queue.enqueue("send-mail", 3, { jobId: "same" });
      await settle();
      expect(calls).toEqual([{ name: "send-mail", payload: 1 }]);
    });

    it("runs jobs without a jobId, or with different ones, separately", async () => {
      const { queue, settle, calls } = await setup();
      await queue.enqueue("send-mail", "a");
      await queue.enqueue("send-mail", "a");
      await queue.enqueue("send-mail", "b", { jobId: "b1" });
      await queue.enqueue("send-mail", "b", { jobId: "b2" });
      await settle();
      expect(calls.map((c) => c.payload).sort()).toEqual(["a", "a", "b", "b"]);
    });

    it("the same jobId under another job name is another job", async () => {
      const { queue, settle, calls } = await setup();
      await queue.enqueue("send-mail", "mail", { jobId: "x1" });
      await queue.enqueue("make-thumbnail", "thumb", { jobId: "x1" });
      await settle();
      expect(calls.map((c) => c.name).sort()).toEqual(["make-thumbnail", "send-mail"]);
    });

    it("retries a failing handler until it succeeds", async () => {
      const { queue, settle, calls, failures } = await setup();
      failures["send-mail"] = 2;
      await queue.enqueue("send-mail", "retried", { jobId: "r1", maxAttempts: 3 });
      await settle();
      expect(calls).toHaveLength(3);
      expect(failures["send-mail"]).toBe(0);
    });

    it("gives up after maxAttempts attempts in all", async () => {
      const { queue, settle, calls, failures } = await setup();
      failures["send-mail"] = 100;
      await queue.enqueue("send-mail", "never", { jobId: "f1", maxAttempts: 2 });
      await settle();
      expect(calls).toHaveLength(2);
    });

    it("fails a job whose name has no handler without running any other handler", async () => {
      const { queue, settle, calls } = await setup();
      await queue.enqueue("unknown-job", null, { jobId: "u1" });
      await settle();
      expect(calls).toEqual([]);
    });
  });
}
