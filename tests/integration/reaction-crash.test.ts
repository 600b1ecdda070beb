import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { type Child, kill, startScript, until } from "../support/child-process";

/** A workflow is started by a reactor with a stored checkpoint, not right after the append. */
const worker = fileURLToPath(new URL("./fixtures/reaction-crash-worker.ts", import.meta.url));

describe("a crash between an append and the workflow it calls for", () => {
  let dataDir: string;
  const children: Child[] = [];
  afterEach(async () => {
    for (const child of children) if (child.process.exitCode === null) await kill(child);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("loses nothing: after the restart the received file is ingested, by exactly one run", async () => {
    dataDir = mkdtempSync(join(tmpdir(), "reaction-crash-"));
    const first = startScript(worker, [dataDir, "start"]);
    children.push(first);
    await until("the ingestion start to hang", () => existsSync(join(dataDir, "hanging")), first, 60_000);
    await kill(first);

    const second = startScript(worker, [dataDir, "resume"]);
    children.push(second);
    const code = await Promise.race([second.exited, new Promise<"timeout">((r) => setTimeout(() => r("timeout"), 60_000))]);
    expect(code, second.output()).toBe(0);
    const result = JSON.parse(readFileSync(join(dataDir, "result.json"), "utf8"));

    expect(result.runStatus).toBe("completed");
    expect(result.runs).toBe(1);
    expect(result.status).toBe("ACTIVE");
    expect(result.activations).toBe(1);
  });
});
