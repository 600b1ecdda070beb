import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { makePdf } from "#infrastructure/extraction/test-support/documents";
import { type Child, kill, startScript, until } from "../support/child-process";

const worker = fileURLToPath(new URL("./fixtures/ingestion-crash-worker.ts", import.meta.url));

describe("ingestion after a crash", () => {
  let dataDir: string;
  const children: Child[] = [];
  afterEach(async () => {
    for (const child of children) if (child.process.exitCode === null) await kill(child);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("finishes the document after SIGKILL mid-indexing, without duplicate chunks", async () => {
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

    const first = startScript(worker, [dataDir, "upload-and-hang"], { PDF_PATH: pdfPath });
    children.push(first);
    await until("indexing to hang after writing chunks", () => existsSync(join(dataDir, "hanging")), first, 60_000);
    await kill(first);

    const second = startScript(worker, [dataDir, "resume"]);
    children.push(second);
    const code = await Promise.race([second.exited, new Promise<"timeout">((r) => setTimeout(() => r("timeout"), 60_000))]);
    expect(code, second.output()).toBe(0);
    const result = JSON.parse(readFileSync(join(dataDir, "result.json"), "utf8")) as { status: string; chunkCount: number; indexed: number };
    expect(result.status).toBe("ACTIVE");
    expect(result.chunkCount).toBeGreaterThan(0);
    expect(result.indexed).toBe(result.chunkCount);
  });
});
