import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { makePdf } from "#infrastructure/extraction/test-support/documents";
import { type Child, kill, startScript, until } from "../support/child-process";

/** Durable workflows of the whole runtime survive SIGKILL in the middle of a step. */
const worker = fileURLToPath(new URL("./fixtures/runtime-crash-worker.ts", import.meta.url));

describe("after a crash", () => {
  let dataDir: string;
  const children: Child[] = [];
  afterEach(async () => {
    for (const child of children) if (child.process.exitCode === null) await kill(child);
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function crashAndResume(scenario: "ingestion" | "launch", env: Record<string, string> = {}) {
    const first = startScript(worker, [dataDir, scenario, "start"], env);
    children.push(first);
    // The step may hang before the command that started it has returned the id (the workflow starts within
    // milliseconds of the append): wait for both, so the resume knows what to wait for.
    await until(`the ${scenario} step to hang`, () => existsSync(join(dataDir, "hanging")) && existsSync(join(dataDir, "subject-id")), first, 60_000);
    await kill(first);
    const second = startScript(worker, [dataDir, scenario, "resume"]);
    children.push(second);
    const code = await Promise.race([second.exited, new Promise<"timeout">((r) => setTimeout(() => r("timeout"), 60_000))]);
    expect(code, second.output()).toBe(0);
    return JSON.parse(readFileSync(join(dataDir, "result.json"), "utf8"));
  }

  it("ingestion finishes the document after SIGKILL mid-indexing, without duplicate chunks", async () => {
    dataDir = mkdtempSync(join(tmpdir(), "ingestion-crash-"));
    const pdfPath = join(dataDir, "input.pdf");
    writeFileSync(
      pdfPath,
      await makePdf([
        { lines: ["Glaciers carve valleys over thousands of years."] },
        { lines: ["Moraines are ridges of debris left by glaciers."] },
        { lines: ["Fjords are flooded glacial valleys."] },
      ]),
    );
    const result = await crashAndResume("ingestion", { PDF_PATH: pdfPath });
    expect(result.status).toBe("ACTIVE");
    expect(result.chunkCount).toBeGreaterThan(0);
    expect(result.indexed).toBe(result.chunkCount);
  });

  it("the workspace launch ends ACTIVE with every document attached once and one first conversation", async () => {
    dataDir = mkdtempSync(join(tmpdir(), "launch-crash-"));
    const result = await crashAndResume("launch");
    expect(result.status).toBe("ACTIVE");
    expect(result.documentIds).toHaveLength(2);
    expect([...result.attachments].sort()).toEqual([...result.documentIds].sort());
    expect(result.conversations).toBe(1);
  });
});
