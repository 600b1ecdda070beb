// Run by sentence-encoder.test.ts in a child process preloaded with
// no-network.cjs: embeds with the built-in model and prints what the test checks.
import { Worker } from "node:worker_threads";
import { SentenceEncoderEmbedder } from "#infrastructure/ai/built-in/sentence-encoder";

const texts = JSON.parse(process.argv[2] ?? "[]") as string[];

/** Why a request to this machine fails here, and in a worker thread (where the model runs). */
async function refusals(): Promise<string[]> {
  const here = await fetch("http://127.0.0.1:9/").then(
    () => "answered",
    (error: Error) => error.message,
  );
  const worker = new Worker(
    `const { parentPort } = require("node:worker_threads");
     require("node:net").connect(9, "127.0.0.1").on("error", (e) => parentPort.postMessage(e.message));
     setTimeout(() => parentPort.postMessage("answered"), 2000);`,
    { eval: true },
  );
  const inWorker = await new Promise<string>((resolve) => {
    worker.once("message", resolve);
    worker.once("error", (error) => resolve(error.message));
  });
  await worker.terminate();
  return [here, inWorker];
}

const refused = await refusals();
const vectors = await new SentenceEncoderEmbedder().embed(texts);
process.stdout.write(`${JSON.stringify({ refused, vectors })}\n`);
