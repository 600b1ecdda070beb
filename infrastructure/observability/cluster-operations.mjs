// The primary's part of operations (issues 32 and 43), plain JavaScript because the
// supervisor in server.mjs runs before (and without) the TypeScript build.
// It answers the web processes' questions (primary-channel.ts): every process's
// metrics side by side, and whether the background process is up and ready.
import promClient from "prom-client";

const ASK = "docuchat:operations-ask";
const ANSWER = "docuchat:operations-answer";
// prom-client's own messages: a cluster process that called reportToPrimary() answers them with its registry.
const METRICS_REQUEST = "prom-client:getMetricsReq";
const METRICS_RESPONSE = "prom-client:getMetricsRes";
/** How long a scrape waits for one process: one that is starting, stopping or stuck is reported absent, not waited for. */
const PROCESS_DEADLINE_MS = 2_000;

/**
 * @typedef {{ role: "web" | "background", index: number, ready: boolean }} Slot
 * @param {import("node:cluster").Cluster} cluster
 * @param {Map<number, Slot>} processes what the supervisor forked, by cluster id
 * @param {{ role: string, index: number }[]} slots every process the supervisor keeps running
 */
export function answerOperations(cluster, processes, slots) {
  // The supervisor's own series: its process (start time, memory), each slot's restarts and presence.
  const registry = new promClient.Registry();
  registry.setDefaultLabels({ process: "supervisor", index: "0" });
  promClient.collectDefaultMetrics({ register: registry });
  const restarts = new promClient.Counter({
    name: "docuchat_process_restarts_total",
    help: "Processes the supervisor started again after one stopped, by role and index.",
    labelNames: ["process", "index"],
    registers: [registry],
  });
  const up = new promClient.Gauge({
    name: "docuchat_process_up",
    help: "1 when the process of this role and index is ready and answered this scrape; 0 while it is missing, starting or stuck.",
    labelNames: ["process", "index"],
    registers: [registry],
  });
  for (const { role, index } of slots) restarts.inc({ process: role, index: String(index) }, 0);

  let nextRequest = 0;
  /** One process's registries as JSON, or null when it does not answer in time. */
  const askProcess = (worker) =>
    new Promise((resolve) => {
      if (!worker.isConnected()) return resolve(null);
      const requestId = `docuchat-${nextRequest++}`;
      const done = (metrics) => {
        clearTimeout(timer);
        worker.off("message", onMessage);
        worker.off("exit", onExit);
        resolve(metrics);
      };
      const onMessage = (message) => message?.type === METRICS_RESPONSE && message.requestId === requestId && done(message.error ? null : message.metrics.flat());
      const onExit = () => done(null);
      const timer = setTimeout(() => done(null), PROCESS_DEADLINE_MS);
      worker.on("message", onMessage);
      worker.once("exit", onExit);
      worker.send({ type: METRICS_REQUEST, requestId }, (error) => error && done(null));
    });

  /**
   * Every process's series side by side: each carries its role and index, so nothing is summed here (a sum of
   * gauges such as open file limits or event-loop delay means nothing); queries sum what may be summed.
   */
  const gather = async () => {
    const workers = Object.values(cluster.workers ?? {}).filter(Boolean);
    // Ready when asked: a replacement that became ready while the scrape waited was still missing when it began.
    const answers = await Promise.all(workers.map(async (worker) => ({ slot: processes.get(worker.id), ready: processes.get(worker.id)?.ready, metrics: await askProcess(worker) })));
    up.reset();
    for (const { role, index } of slots) {
      const present = answers.some(({ slot, ready, metrics }) => metrics && ready && slot?.role === role && slot.index === index);
      up.set({ process: role, index: String(index) }, present ? 1 : 0);
    }
    const all = [await registry.getMetricsAsJSON(), ...answers.flatMap(({ metrics }) => (metrics ? [metrics] : []))];
    // "first" rather than each metric's own aggregator: label sets never repeat across processes, and prom-client's
    // "omit" would drop process_start_time_seconds, the series that shows a restart.
    for (const metrics of all) for (const metric of metrics) metric.aggregator = "first";
    return promClient.AggregatorRegistry.aggregate(all).metrics();
  };

  cluster.on("message", async (worker, message) => {
    if (message?.type !== ASK) return;
    let answer;
    try {
      if (message.ask === "metrics") answer = { text: await gather() };
      else if (message.ask === "background") answer = { alive: [...processes.values()].some((entry) => entry.role === "background" && entry.ready) };
      else answer = { error: `unknown question ${String(message.ask)}` };
    } catch (error) {
      answer = { error: error instanceof Error ? error.message : String(error) };
    }
    if (worker.isConnected()) worker.send({ type: ANSWER, id: message.id, ...answer });
  });

  return {
    /** The supervisor is starting another process in `slot`'s place. */
    restarted(slot) {
      restarts.inc({ process: slot.role, index: String(slot.index) });
    },
  };
}
