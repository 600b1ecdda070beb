/**
 * Fast start (issue 42): the time from `npm start` to the first 200 on /login, on a data folder of
 * about 1 GB holding 200 documents. Not a test: nothing is asserted, and the folder takes a while
 * to build, so it is built once and measured as often as needed.
 *
 *   npx tsx bench/fast-start.bench.ts make /tmp/docuchat-1gb     # once: 200 PDFs of ~5 MB, ingested
 *   npm run build && npx tsx bench/fast-start.bench.ts measure /tmp/docuchat-1gb [--replay] [--runs 3]
 *
 * `--replay` removes read-models.db first, so the background process replays the whole log while
 * the web processes start (the case that took longest before).
 */
import { spawn } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import { readdirSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { PDFDocument, StandardFonts } from "pdf-lib";
import pino from "pino";
import "reflect-metadata";
import { LibraryService } from "#application/library/library-service";
import type { WorkflowEngine } from "#application/ports/workflow";
import { TOKENS } from "#application/tokens";
import { loadConfig } from "#infrastructure/config/config";
import { createRuntime } from "#infrastructure/container";
import { freePort } from "../tests/e2e/support/app-server";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const SECRET = "fast-start-bench-secret-fast-start-bench";
const DOCUMENTS = 200;
const [mode, dataDir, ...flags] = process.argv.slice(2);
if ((mode !== "make" && mode !== "measure") || !dataDir) {
  console.error("usage: npx tsx bench/fast-start.bench.ts make|measure <data folder> [--replay] [--runs N]");
  process.exit(2);
}

function folderBytes(dir: string): number {
  return readdirSync(dir, { withFileTypes: true }).reduce((sum, entry) => {
    const file = path.join(dir, entry.name);
    return sum + (entry.isDirectory() ? folderBytes(file) : statSync(file).size);
  }, 0);
}

/** A report of a few pages of text carrying a 5 MB appendix (an attached data file), as scanned annexes make documents heavy. */
async function report(n: number): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let page = 1; page <= 3; page++) {
    const p = doc.addPage([595, 842]);
    for (let line = 0; line < 30; line++) {
      p.drawText(`Report ${n}, page ${page}, line ${line}: the survey counted ${(n * 31 + line) % 97} gulls on the breakwater.`, { x: 40, y: 800 - line * 24, size: 10, font });
    }
  }
  await doc.attach(randomBytes(5 * 1024 * 1024), `appendix-${n}.bin`, { mimeType: "application/octet-stream" });
  return Buffer.from(await doc.save());
}

async function make(dir: string) {
  const runtime = await createRuntime(loadConfig({ DATA_DIR: dir, APP_SECRET: SECRET }), { role: "app", logger: pino({ level: "warn" }), builtInEmbeddings: false });
  const library = runtime.container.get(LibraryService);
  const engine = runtime.get<WorkflowEngine>(TOKENS.WorkflowEngine);
  const started = performance.now();
  for (let n = 0; n < DOCUMENTS; n++) {
    // Ten documents per owner, as a plan's monthly pages allow.
    const ownerId = `bench-owner-${Math.floor(n / 10)}`;
    const ctx = { requestId: randomUUID(), clientAddress: "127.0.0.1", actorId: ownerId };
    const bytes = await report(n);
    const registered = await library.registerUpload(ownerId, { document_name: `report-${n}.pdf`, document_type: "application/pdf", document_size: bytes.length, page_count: 3 }, ctx);
    await library.receiveUpload(registered.document_id, new URL(registered.url, "http://x").searchParams.get("token")!, bytes, "application/pdf", ctx);
    await engine.waitForCompletion(`ingestion-${registered.document_id}`, 120_000);
    if ((n + 1) % 20 === 0) console.log(`${n + 1} documents, ${(folderBytes(dir) / 1e9).toFixed(2)} GB, ${Math.round((performance.now() - started) / 1000)} s`);
  }
  await runtime.stop();
}

/** Seconds from starting `node server.mjs` as `npm start` does to the first 200 on /login. */
async function measure(dir: string): Promise<number> {
  const port = await freePort();
  const started = performance.now();
  const app = spawn(process.execPath, ["server.mjs"], {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: "production", PORT: String(port), HOST: "127.0.0.1", DATA_DIR: dir, APP_SECRET: SECRET, LOG_LEVEL: "warn" },
    stdio: "inherit",
  });
  try {
    for (;;) {
      const status = await fetch(`http://127.0.0.1:${port}/login`).then((r) => r.status, () => 0);
      if (status === 200) return (performance.now() - started) / 1000;
      if (app.exitCode !== null) throw new Error(`the app exited (${app.exitCode})`);
      await new Promise((r) => setTimeout(r, 100));
    }
  } finally {
    app.kill("SIGTERM");
    await new Promise((resolve) => app.once("exit", resolve));
  }
}

if (mode === "make") {
  await make(dataDir);
  console.log(`made ${dataDir}: ${(folderBytes(dataDir) / 1e9).toFixed(2)} GB`);
} else {
  const runs = Number(flags[flags.indexOf("--runs") + 1] ?? 1) || 1;
  for (let run = 0; run < runs; run++) {
    if (flags.includes("--replay")) for (const suffix of ["", "-wal", "-shm"]) rmSync(path.join(dataDir, `read-models.db${suffix}`), { force: true });
    console.log(`npm start to the first 200 on /login: ${(await measure(dataDir)).toFixed(1)} s (${(folderBytes(dataDir) / 1e9).toFixed(2)} GB${flags.includes("--replay") ? ", read models replayed" : ""})`);
  }
}
