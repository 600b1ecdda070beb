import Database from "better-sqlite3";
import { EmbeddedJobQueue, EmbeddedWorkflowEngine, jobActivities } from "#infrastructure/embedded/durable-runner";
import { ManualClock } from "#infrastructure/embedded/system-clock";
import { jobQueueContract } from "./job-queue.contract";

jobQueueContract("embedded durable runner", async (handlers) => {
  const db = new Database(":memory:");
  const clock = new ManualClock();
  const engine = new EmbeddedWorkflowEngine(db, { activities: jobActivities(handlers), definitions: [], clock, tickMs: 60_000 });
  return {
    queue: new EmbeddedJobQueue(engine),
    // Retries wait on the (manual) clock: run what is due, move time past any backoff, repeat until no run is left.
    settle: async () => {
      for (let round = 0; round < 50; round++) {
        await engine.runDue();
        if ((await engine.list({ status: "running" })).length === 0) return;
        clock.advance(60 * 60_000);
      }
      throw new Error("jobs did not settle");
    },
    cleanup: async () => {
      await engine.stop();
      db.close();
    },
  };
});
