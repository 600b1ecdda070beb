import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

/** A TypeScript script run in a real child process (crash tests SIGKILL it). */
export interface Child {
  process: ChildProcess;
  exited: Promise<number | null>;
  output: () => string;
}

const repoRoot = fileURLToPath(new URL("../..", import.meta.url));

export function startScript(script: string, args: string[], env: Record<string, string> = {}): Child {
  const child = spawn(process.execPath, ["--import", "tsx", script, ...args], {
    cwd: repoRoot,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { process: child, exited, output: () => output };
}

export async function until(what: string, check: () => boolean, child: Child, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (child.process.exitCode !== null) throw new Error(`child exited before ${what}:\n${child.output()}`);
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}:\n${child.output()}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

export async function kill(child: Child): Promise<void> {
  child.process.kill("SIGKILL");
  await child.exited;
}
