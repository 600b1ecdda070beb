import { randomUUID } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import {
  BullmqJobQueue,
  BullmqJobWorker,
  bullmqJobId,
  redisConnectionFromUrl,
} from "#infrastructure/production/bullmq-job-queue";
import { redisFor, useServer } from "../support/server-availability";

describe("redisConnectionFromUrl", () => {
  it("reads host, port, credentials, database and TLS from a Redis URL", () => {
    expect(redisConnectionFromUrl("redis://127.0.0.1:6380")).toEqual({ host: "127.0.0.1", port: 6380, maxRetriesPerRequest: null });
    expect(redisConnectionFromUrl("rediss://user:p%40ss@redis.example.com/2")).toEqual({
      host: "redis.example.com",
      port: 6379,
      username: "user",
      password: "p@ss",
      db: 2,
      tls: {},
      maxRetriesPerRequest: null,
    });
  });

  it("builds operator-readable job ids that BullMQ accepts (no ':')", () => {
    expect(bullmqJobId("send-mail", "m1")).toBe("job-send-mail-m1");
    expect(bullmqJobId("send-mail", "user:42")).toBe("job-send-mail-user%3A42");
  });
});

const plan = redisFor();

describe.skipIf(plan.skip !== undefined)(`BullMQ job queue on a real Redis (${plan.skip ?? plan.source})`, () => {
  const server = plan.skip === undefined ? useServer(plan) : null;
  const redis = () => {
    if (!server) throw new Error("unreachable: the suite is skipped without Redis");
    return server();
  };
  const closers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close();
  });

  async function make(handlers: Record<string, (payload: unknown) => Promise<void>>, queueName = `it-${randomUUID()}`) {
    const connection = redisConnectionFromUrl(redis().url);
    const queue = await BullmqJobQueue.open({ connection, queueName, backoffMs: 20 });
    closers.push(async () => {
      await queue.queue.obliterate({ force: true });
      await queue.close();
    });
    const startWorker = async () => {
      const worker = await BullmqJobWorker.start({ connection, queueName, handlers });
      closers.push(() => worker.close());
      await worker.worker.waitUntilReady();
      return worker;
    };
    return { queue, startWorker };
  }

  async function until(check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error("condition not met in time");
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  it("keeps jobs enqueued while no worker runs and runs them once a worker starts", async () => {
    const seen: unknown[] = [];
    const { queue, startWorker } = await make({ "send-mail": async (p) => void seen.push(p) });
    await queue.enqueue("send-mail", { to: "a@example.com" }, { jobId: "early" });
    const job = await queue.queue.getJob(bullmqJobId("send-mail", "early"));
    expect(job?.name).toBe("send-mail");
    expect(job?.data).toEqual({ payload: { to: "a@example.com" } });
    expect(await job?.getState()).toBe("waiting");
    await startWorker();
    await until(async () => (await queue.queue.getJob(bullmqJobId("send-mail", "early")))?.finishedOn !== undefined);
    expect(seen).toEqual([{ to: "a@example.com" }]);
    expect(await (await queue.queue.getJob(bullmqJobId("send-mail", "early")))?.getState()).toBe("completed");
  });

  it("fails a job without a handler at once, without spending its retries", async () => {
    const { queue, startWorker } = await make({});
    await startWorker();
    await queue.enqueue("no-such-job", null, { jobId: "x", maxAttempts: 5 });
    const id = bullmqJobId("no-such-job", "x");
    await until(async () => (await queue.queue.getJob(id))?.finishedOn !== undefined);
    const job = await queue.queue.getJob(id);
    expect(await job?.getState()).toBe("failed");
    expect(job?.attemptsMade).toBe(1);
    expect(job?.failedReason).toContain("No handler registered for job no-such-job");
  });

  it("records the last error of a job that used up its attempts", async () => {
    const { queue, startWorker } = await make({
      "send-mail": async () => {
        throw new Error("smtp down");
      },
    });
    await startWorker();
    await queue.enqueue("send-mail", null, { jobId: "f", maxAttempts: 3 });
    const id = bullmqJobId("send-mail", "f");
    await until(async () => (await queue.queue.getJob(id))?.finishedOn !== undefined);
    const job = await queue.queue.getJob(id);
    expect(await job?.getState()).toBe("failed");
    expect(job?.attemptsMade).toBe(3);
    expect(job?.failedReason).toBe("smtp down");
  });
});
