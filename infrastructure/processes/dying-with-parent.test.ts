import { execFileSync } from "node:child_process";
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { ocrToolsInstalled } from "#infrastructure/extraction/test-support/ocr-tools";
import { kill, startScript, until } from "../../tests/support/child-process";

const parentScript = fileURLToPath(new URL("./test-support/extracting-parent.ts", import.meta.url));
const convertingScript = fileURLToPath(new URL("./test-support/converting-parent.ts", import.meta.url));

/** Every process below `root`, with its command name. */
function descendants(root: number): { pid: number; name: string }[] {
  const rows = execFileSync("ps", ["-e", "-o", "pid=,ppid=,comm="], { encoding: "utf8" })
    .split("\n")
    .map((line) => line.trim().split(/\s+/))
    .filter((row) => row.length >= 3)
    .map(([pid, ppid, name]) => ({ pid: Number(pid), ppid: Number(ppid), name: name! }));
  const found: { pid: number; name: string }[] = [];
  const below = (pid: number) => rows.filter((row) => row.ppid === pid).forEach((row) => (found.push(row), below(row.pid)));
  below(root);
  return found;
}

/** Running, not a zombie (a container's init may never reap what it inherits). */
function alive(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.[0] !== "Z";
  } catch {
    return false;
  }
}

describe.skipIf(!ocrToolsInstalled())("child processes", () => {
  it("end with the background process that started them when it is killed: the extraction process, its OCR and the tools it ran itself", async () => {
    const parent = startScript(parentScript, []);
    let tree: { pid: number; name: string }[] = [];
    const ocrRuns = () => (tree = descendants(parent.process.pid!)).some((p) => p.name === "pdftoppm" || p.name === "tesseract");
    try {
      await until("the OCR runs in an extraction process", ocrRuns, parent, 120_000);
      expect(tree.map((p) => p.name)).toContain("sleep");
    } finally {
      await kill(parent);
    }
    await expect.poll(() => tree.filter((p) => alive(p.pid)).map((p) => p.name), { timeout: 10_000 }).toEqual([]);
  }, 150_000);
});

describe("a converter that forks its worker", () => {
  it("ends with the background process, its forked worker too, as soffice's soffice.bin must", async () => {
    // soffice's shape: a launcher that starts the real worker and waits for it.
    const dir = mkdtempSync(join(tmpdir(), "docuchat-soffice-"));
    const soffice = join(dir, "soffice");
    writeFileSync(soffice, "#!/bin/sh\nsleep 600 &\nwait\n");
    chmodSync(soffice, 0o755);
    const parent = startScript(convertingScript, [soffice]);
    let tree: { pid: number; name: string }[] = [];
    try {
      await until("the worker runs", () => (tree = descendants(parent.process.pid!)).some((p) => p.name === "sleep"), parent, 60_000);
    } finally {
      await kill(parent);
    }
    await expect.poll(() => tree.filter((p) => alive(p.pid)).map((p) => p.name), { timeout: 10_000 }).toEqual([]);
    rmSync(dir, { recursive: true, force: true });
  }, 90_000);
});
