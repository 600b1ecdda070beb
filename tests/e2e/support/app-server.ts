import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");

export type AppServer = {
  url: string;
  port: number;
  dataDir: string;
  /** The server's own process (with web processes, their supervisor). */
  pid: number;
  /** Everything the server printed so far (for failure messages). */
  output: () => string;
  /** Whether the server's own process is still alive (a test that kills its children watches it). */
  running: () => boolean;
  /** SIGTERM, then SIGKILL after `graceMs` (default 8 s); the data folder goes too unless the caller gave it. */
  stop: (options?: { graceMs?: number }) => Promise<void>;
};

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.unref();
    probe.on("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      const port = typeof address === "object" && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

function exited(child: ChildProcess, timeoutMs: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), timeoutMs);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

/**
 * Starts the BUILT app (`node server.mjs`; run `npm run build` first) on a free
 * port with a fresh data directory, or with `dataDir`, which the caller owns
 * and reads after the stop, and waits until it answers.
 */
export async function startAppServer(options: { env?: Record<string, string>; readyTimeoutMs?: number; dataDir?: string } = {}): Promise<AppServer> {
  if (!existsSync(path.join(ROOT, "build", "index.js"))) {
    throw new Error("No build found: run `npm run build` before the end-to-end tests.");
  }
  const port = await freePort();
  const dataDir = options.dataDir ?? (await mkdtemp(path.join(os.tmpdir(), "docuchat-e2e-")));
  const url = `http://127.0.0.1:${port}`;
  let log = "";
  const child = spawn(process.execPath, ["server.mjs"], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      APP_SECRET: "e2e-secret-e2e-secret-e2e-secret-0123",
      LOG_LEVEL: process.env.LOG_LEVEL ?? "warn",
      COOKIE_SECURE: "false",
      ...options.env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout?.on("data", (chunk: Buffer) => (log += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (log += chunk.toString()));

  const running = () => child.exitCode === null && child.signalCode === null;
  const stop = async ({ graceMs = 8000 }: { graceMs?: number } = {}) => {
    if (running()) {
      child.kill("SIGTERM");
      if (!(await exited(child, graceMs))) {
        child.kill("SIGKILL");
        await exited(child, 2000);
      }
    }
    if (!options.dataDir) await rm(dataDir, { recursive: true, force: true });
  };

  const deadline = Date.now() + (options.readyTimeoutMs ?? 60_000);
  for (;;) {
    if (child.exitCode !== null) {
      await stop();
      throw new Error(`The app exited during start-up (code ${child.exitCode}):\n${log}`);
    }
    try {
      const response = await fetch(`${url}/login`, { redirect: "manual" });
      if (response.status < 500) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`The app did not become ready in time:\n${log}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return { url, port, dataDir, pid: child.pid ?? 0, output: () => log, running, stop };
}
