// The primary's part of operations (issue 32), plain JavaScript because the
// supervisor in server.mjs runs before (and without) the TypeScript build.
// It answers the web processes' questions (primary-channel.ts): the metrics of
// every process summed by prom-client's AggregatorRegistry, and whether the
// background process is up and ready.
import promClient from "prom-client";

const ASK = "docuchat:operations-ask";
const ANSWER = "docuchat:operations-answer";

/** @param {import("node:cluster").Cluster} cluster @param {() => boolean} backgroundReady */
export function answerOperations(cluster, backgroundReady) {
  const aggregator = new promClient.AggregatorRegistry();
  cluster.on("message", async (worker, message) => {
    if (message?.type !== ASK) return;
    let answer;
    try {
      if (message.ask === "metrics") answer = { text: await aggregator.clusterMetrics() };
      else if (message.ask === "background") answer = { alive: backgroundReady() };
      else answer = { error: `unknown question ${String(message.ask)}` };
    } catch (error) {
      answer = { error: error instanceof Error ? error.message : String(error) };
    }
    if (worker.isConnected()) worker.send({ type: ANSWER, id: message.id, ...answer });
  });
}
