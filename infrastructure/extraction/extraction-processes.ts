/**
 * PDFs read by poppler are parsed and judged in child processes of their own, not in the
 * extraction threads (decision 204): a thread's heap is the ingesting process's memory, and a
 * 2,000-page book's layouts and judging grew that process by about 300 MB (bench/big-document.bench.ts).
 * A process is kept for the next document until IDLE_MS without work, then ends and gives its
 * memory back to the machine; at most two run at once, as the threads, at the same lower priority.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { availableParallelism, setPriority } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Outcome } from "#infrastructure/extraction/extraction-thread";
import { dyingWithParent } from "#infrastructure/processes/dying-with-parent";

const PROCESSES = Math.min(2, availableParallelism());
const IDLE_MS = 30_000;
/** As the threads' limit: whatever document a process reads, it ends there rather than taking the machine. */
const HEAP_MB = 2_048;
/** Below the pages being served, as the extraction threads. */
const NICENESS = 10;

type Reply = { id: number; outcome: Outcome<unknown> } | { id: number; thrown: string };

function processEntry(): string {
  for (let dir = dirname(fileURLToPath(import.meta.url)); dirname(dir) !== dir; dir = dirname(dir)) {
    const entry = join(dir, "infrastructure", "extraction", "extraction-process.mjs");
    if (existsSync(entry)) return entry;
  }
  throw new Error("The extraction process's entry point (infrastructure/extraction/extraction-process.mjs) is missing from this installation.");
}

interface Worker {
  child: ChildProcess;
  idleTimer?: NodeJS.Timeout;
}

let nextId = 1;
const idle: Worker[] = [];
const waiting: (() => void)[] = [];
let busy = 0;

function start(): Worker {
  // Not the parent's flags (a test runner's or tsx's loader): the entry point brings its own. Killed with its
  // parent: its own watch of the channel waits for its event loop, which a page being parsed can hold for minutes.
  const child = spawn(...dyingWithParent(process.execPath, [`--max-old-space-size=${HEAP_MB}`, processEntry()]), {
    serialization: "advanced",
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  try {
    if (child.pid) setPriority(child.pid, NICENESS);
  } catch {
    // Not allowed to lower it: it runs at ours.
  }
  const worker: Worker = { child };
  // One that ends while idle (killed from outside) is not handed the next document.
  child.once("exit", () => {
    clearTimeout(worker.idleTimer);
    if (idle.includes(worker)) idle.splice(idle.indexOf(worker), 1);
  });
  // An idle process must not keep the app from exiting.
  child.unref();
  child.channel?.unref();
  return worker;
}

/** Runs one task of the extraction thread's (extraction-thread.ts) in an extraction process. */
export async function inProcess<T>(name: "extract", task: { bytes: Buffer } & Record<string, unknown>): Promise<Outcome<T>> {
  // A task that waited is handed the slot of the one that finished.
  if (busy >= PROCESSES) await new Promise<void>((resolve) => waiting.push(resolve));
  else busy++;
  const worker = idle.pop() ?? start();
  clearTimeout(worker.idleTimer);
  let healthy = false;
  try {
    const outcome = await ask<T>(worker.child, name, task);
    healthy = true;
    return outcome;
  } finally {
    if (healthy) {
      worker.idleTimer = setTimeout(() => worker.child.kill(), IDLE_MS).unref();
      idle.push(worker);
    } else {
      worker.child.kill("SIGKILL");
    }
    const next = waiting.shift();
    if (next) next();
    else busy--;
  }
}

function ask<T>(child: ChildProcess, name: string, task: object): Promise<Outcome<T>> {
  const id = nextId++;
  return new Promise((resolve, reject) => {
    const onMessage = (reply: Reply) => {
      if (reply.id !== id) return;
      done();
      if ("thrown" in reply) reject(new Error(reply.thrown));
      else resolve(reply.outcome as Outcome<T>);
    };
    const onExit = (code: number | null, signal: string | null) => {
      done();
      reject(new Error(`The extraction process ended (${signal ?? `exit code ${code}`}) before answering.`));
    };
    const done = () => {
      child.off("message", onMessage);
      child.off("exit", onExit);
      child.channel?.unref();
    };
    child.on("message", onMessage);
    child.on("exit", onExit);
    // While it works, the answer keeps the app waiting for it.
    child.channel?.ref();
    child.send({ id, name, task }, (error) => {
      if (error) {
        done();
        reject(error);
      }
    });
  });
}
