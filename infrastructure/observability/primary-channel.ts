/**
 * A cluster process's questions to the primary (server.mjs, cluster-operations.mjs):
 * the cluster's summed metrics, and whether the background process is up. The
 * primary answers on the same IPC channel the cluster already has.
 */
export const OPERATIONS_ASK = "docuchat:operations-ask";
export const OPERATIONS_ANSWER = "docuchat:operations-answer";

let nextId = 0;

export function askPrimary(ask: "metrics" | "background", timeoutMs: number): Promise<unknown> {
  const send = process.send?.bind(process);
  if (!send) return Promise.reject(new Error("not a cluster process"));
  const id = nextId++;
  return new Promise((resolve, reject) => {
    const onMessage = (message: { type?: string; id?: number; error?: string }) => {
      if (message?.type !== OPERATIONS_ANSWER || message.id !== id) return;
      done();
      if (message.error) reject(new Error(message.error));
      else resolve(message);
    };
    const timer = setTimeout(() => {
      done();
      reject(new Error(`the primary did not answer "${ask}" in ${timeoutMs} ms`));
    }, timeoutMs);
    const done = () => {
      clearTimeout(timer);
      process.off("message", onMessage);
    };
    process.on("message", onMessage);
    send({ type: OPERATIONS_ASK, id, ask });
  });
}
