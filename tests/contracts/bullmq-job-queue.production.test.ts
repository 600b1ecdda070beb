import { randomUUID } from "node:crypto";
import { describe } from "vitest";
import { BullmqJobQueue, BullmqJobWorker, redisConnectionFromUrl } from "#infrastructure/production/bullmq-job-queue";
import { redisFor, useServer } from "../support/server-availability";
import { jobQueueContract } from "./job-queue.contract";

const plan = redisFor();

describe.skipIf(plan.skip !== undefined)(`BullMQ on Redis (${plan.skip ?? plan.source})`, () => {
  const redis = plan.skip === undefined ? useServer(plan) : null;

  jobQueueContract("BullMQ", async (handlers) => {
    if (!redis) throw new Error("unreachable: the suite is skipped without Redis");
    const connection = redisConnectionFromUrl(redis().url);
    // A fresh queue name per test: a shared Redis (REDIS_URL) keeps other tests' jobs apart.
    const queueName = `contract-${randomUUID()}`;
    const queue = await BullmqJobQueue.open({ connection, queueName, backoffMs: 20 });
    const worker = await BullmqJobWorker.start({ connection, queueName, handlers, concurrency: 4 });
    await worker.worker.waitUntilReady();
    return {
      queue,
      settle: async () => {
        const deadline = Date.now() + 20_000;
        let quietSince = 0;
        while (Date.now() < deadline) {
          const counts = await queue.queue.getJobCounts("waiting", "active", "delayed", "prioritized", "waiting-children", "paused");
          const pending = Object.values(counts).reduce((sum, n) => sum + n, 0);
          if (pending === 0) {
            // Seen idle twice in a row: a retry is not scheduled between two reads.
            if (quietSince && Date.now() - quietSince > 50) return;
            quietSince ||= Date.now();
          } else quietSince = 0;
          await new Promise((r) => setTimeout(r, 20));
        }
        throw new Error("BullMQ jobs did not settle within 20 s");
      },
      cleanup: async () => {
        await worker.close();
        await queue.queue.obliterate({ force: true });
        await queue.close();
      },
    };
  });
});
