/**
 * A 2,000-page PDF through the real embedded runtime (issue #33 item 4): the corpus books joined
 * until 2,000 pages, uploaded by a reader whose plan lets it in, from upload to ACTIVE and then
 * embedded in a workspace. Not a test: nothing is asserted. It prints
 *   - whether the plans for sale let one 2,000-page document in (the registration's answer);
 *   - time to ACTIVE, and each distinct thing My Documents shows of the document, with its time;
 *   - this process's RSS sampled every 100 ms: the peak in each ingestion step (extraction,
 *     page allowance, chunking and indexing, activation, embedding) and after;
 *   - apart, the peak RSS of poppler's child processes (a /proc scan, every 100 ms);
 *   - beside it, pdftotext over the same file in the same run, and the file's first 200 pages
 *     from upload to ACTIVE (the references).
 *
 *   npx tsx bench/big-document.bench.ts            (BIG_BENCH_EMBED=0: stop at ACTIVE)
 */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { monitorEventLoopDelay, performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { Worker } from "node:worker_threads";
import { PDFDocument } from "pdf-lib";
import "reflect-metadata";
import pino from "pino";
import { TOKENS } from "#application/tokens";
import type { EventStore } from "#application/ports/event-store";
import type { ReadModelStore } from "#application/ports/read-model-store";
import type { SearchIndex } from "#application/ports/search-index";
import type { WorkflowEngine } from "#application/ports/workflow";
import { LibraryService } from "#application/library/library-service";
import { Subscriptions } from "#application/billing/subscriptions";
import { WorkspaceService } from "#application/workspace/workspace-service";
import { PLANS } from "#domain/billing/plans";
import { BUILT_IN_EMBEDDING, embeddingSpace } from "#domain/workspace/workspace";
import { statusDisplay } from "#app/components/library/format";
import { toLibraryDocument } from "#app/components/library/document-view";
import { ownedDocument } from "#projections/library/documents.queries";
import { loadConfig } from "#infrastructure/config/config";
import { createRuntime, type AppRuntime } from "#infrastructure/container";
import { workspaceEmbeddingWorkflowId } from "#workflows/workspace-embedding";
import { descendants, firstPages } from "./support";

const run = promisify(execFile);
const PAGES = 2_000;
/** The same file's first pages, uploaded first: pages/s that fall with the length would show a step that grows faster than the pages. */
const REFERENCE_PAGES = 200;
const corpus = fileURLToPath(new URL("../../shared/corpus/", import.meta.url));
const cached = join(tmpdir(), `docuchat-big-document-${PAGES}.pdf`);
const MB = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
const EMBED = process.env.BIG_BENCH_EMBED !== "0";
/** Reads on a plan for sale; readers on Fern's limits (unlimited, "coming soon") get the document in. */
const PINE_READER = "pine-reader";
const UNLIMITED_READER = "fern-reader";
const ctxOf = (actorId: string) => ({ requestId: "bench", clientAddress: "127.0.0.1", actorId });

/** The corpus books, one after another, again and again, until PAGES pages (cached in the OS temp dir). */
async function bigPdf(): Promise<Buffer> {
  if (existsSync(cached)) return readFile(cached);
  const books = await Promise.all(["freeculture.pdf", "pdkids.pdf"].map(async (name) => PDFDocument.load(await readFile(join(corpus, name)))));
  const doc = await PDFDocument.create();
  for (let b = 0; doc.getPageCount() < PAGES; b++) {
    const book = books[b % books.length];
    const take = Math.min(book.getPageCount(), PAGES - doc.getPageCount());
    for (const page of await doc.copyPages(book, Array.from({ length: take }, (_, i) => i))) doc.addPage(page);
  }
  const bytes = Buffer.from(await doc.save());
  await writeFile(cached, bytes);
  return bytes;
}

/** RSS of this process's descendants of one kind: poppler's (pdftohtml, pdfinfo), or the extraction processes (node running extraction-process.mjs). */
function descendantsRss(): { poppler: number[]; extraction: number[] } {
  const running = descendants();
  return {
    poppler: running.filter((p) => /^pdf(tohtml|info)$/.test(p.name)).map((p) => p.rss),
    extraction: running.filter((p) => p.name === "node" && p.command.includes("extraction-process.mjs")).map((p) => p.rss),
  };
}

/**
 * This process's RSS every 100 ms, sampled by a thread of its own: the main thread's event loop is
 * held by some steps (parsing, chunking), and a timer there would miss exactly those peaks.
 */
function rssSampler() {
  const worker = new Worker(
    `const { parentPort } = require("node:worker_threads");
     const { readFileSync } = require("node:fs");
     const samples = [];
     const timer = setInterval(() => samples.push(Date.now(), Number(readFileSync("/proc/self/statm", "utf8").split(" ")[1]) * 4096), 100);
     parentPort.on("message", () => { clearInterval(timer); parentPort.postMessage(samples); });`,
    { eval: true },
  );
  return {
    stop: () =>
      new Promise<{ at: number; rss: number }[]>((resolve) => {
        worker.once("message", (flat: number[]) => {
          void worker.terminate();
          resolve(Array.from({ length: flat.length / 2 }, (_, i) => ({ at: flat[2 * i], rss: flat[2 * i + 1] })));
        });
        worker.postMessage("stop");
      }),
  };
}

/** The ingestion steps, each from the event that starts it (recorded by the workflow) to the next. */
const STEP_EVENTS: [string, string][] = [
  ["DocumentContextPreparationStarted", "extraction"],
  ["DocumentTextExtracted", "page allowance, chunking and indexing"],
  ["DocumentIndexed", "activation"],
  ["DocumentActivated", "after ACTIVE"],
];

async function main() {
  const started = performance.now();
  const wasCached = existsSync(cached);
  const bytes = await bigPdf();
  const path = cached;
  console.log(`${PAGES}-page PDF from the corpus books (${MB(bytes.length)}), ${wasCached ? "read from" : "written to"} ${cached} in ${((performance.now() - started) / 1000).toFixed(1)} s`);

  const refStart = performance.now();
  const { stdout } = await run("pdftotext", ["-enc", "UTF-8", path, "-"], { maxBuffer: 512 * 1024 * 1024 });
  const pdftotextSeconds = (performance.now() - refStart) / 1000;
  console.log(`pdftotext over the whole file (reference): ${pdftotextSeconds.toFixed(1)} s, ${stdout.length} chars`);

  const dir = await mkdtemp(join(tmpdir(), "big-document-bench-"));
  let runtime: AppRuntime | undefined;
  try {
    runtime = await createRuntime(loadConfig({ DATA_DIR: join(dir, "data"), APP_SECRET: "bench-secret-bench-secret-bench-secret" }), {
      logger: pino({ level: "silent" }),
      // The plans for sale come from the subscription stream as in production; one reader is on Fern's limits.
      allowances: { limits: (userId, at) => (userId === UNLIMITED_READER ? Promise.resolve(PLANS.fern.limits) : runtime!.container.get(Subscriptions).limits(userId, at)) },
    });
    const rt = runtime;
    const library = rt.container.get(LibraryService);
    const engine = rt.get<WorkflowEngine>(TOKENS.WorkflowEngine);
    const readModels = rt.get<ReadModelStore>(TOKENS.ReadModelStore);

    // 1. The largest plans for sale, as a paying reader would meet them.
    const metadata = { correlationId: "bench", actorId: PINE_READER };
    console.log(`\nThe plans for sale and one ${PAGES}-page document:`);
    for (const planId of ["pine-monthly", "pine-yearly"] as const) {
      const reader = `${PINE_READER}-${planId}`;
      await rt.container.get(Subscriptions).prepay(reader, `order-${planId}`, planId, { ...metadata, actorId: reader });
      const limits = PLANS[planId].limits.pages;
      try {
        const registered = await library.registerUpload(reader, { document_name: "big.pdf", document_size: bytes.length, page_count: PAGES }, ctxOf(reader));
        console.log(`  ${planId.padEnd(13)} (pages ${limits.daily}/day, ${limits.monthly}/month): registered (${registered.document_id})`);
      } catch (error) {
        console.log(`  ${planId.padEnd(13)} (pages ${limits.daily}/day, ${limits.monthly}/month): refused: ${(error as Error).message}`);
      }
    }

    // 2. The reference: the first REFERENCE_PAGES pages of the same file, upload to ACTIVE (also warms the extraction process).
    const reference = await firstPages(bytes, REFERENCE_PAGES);
    const referenceStart = performance.now();
    const referenceCtx = ctxOf(UNLIMITED_READER);
    const small = await library.registerUpload(UNLIMITED_READER, { document_name: "first-pages.pdf", document_size: reference.length, page_count: REFERENCE_PAGES }, referenceCtx);
    await library.receiveUpload(small.document_id, new URL(small.url, "http://x").searchParams.get("token")!, reference, "application/pdf", referenceCtx);
    await engine.waitForCompletion(`ingestion-${small.document_id}`, 600_000);
    const referenceSeconds = (performance.now() - referenceStart) / 1000;
    console.log(`\nReference: its first ${REFERENCE_PAGES} pages, upload -> ACTIVE in ${referenceSeconds.toFixed(1)} s (${(REFERENCE_PAGES / referenceSeconds).toFixed(0)} pages/s)`);

    // 3. The document through ingestion, as a reader on Fern's limits.
    console.log(`\nUpload -> ACTIVE${EMBED ? " -> embedded in a workspace" : ""}, reader on Fern's limits (unlimited; not for sale yet)`);
    const ctx = ctxOf(UNLIMITED_READER);
    const rssBefore = process.memoryUsage().rss;
    const childPeaks = { poppler: { total: 0, largest: 0, processes: 0 }, extraction: { total: 0, largest: 0, processes: 0 } };
    const seen: string[] = [];
    let documentId = "";
    let sampling = true;
    const sampler0 = rssSampler();
    // How long this process's event loop (projectors, workflows, and in `npm run dev` the pages) is held at a time.
    const loop = monitorEventLoopDelay({ resolution: 10 });
    loop.enable();
    const t0 = performance.now();
    const wallStart = Date.now();
    const at = () => `${((performance.now() - t0) / 1000).toFixed(1).padStart(6)} s`;
    const sample = async () => {
      while (sampling) {
        const rss = process.memoryUsage().rss;
        const children = descendantsRss();
        for (const kind of ["poppler", "extraction"] as const) {
          const total = children[kind].reduce((a, b) => a + b, 0);
          const peak = childPeaks[kind];
          if (total > peak.total) Object.assign(peak, { total, processes: children[kind].length });
          peak.largest = Math.max(peak.largest, ...children[kind]);
        }
        // What My Documents shows (its status badge and reading notes, from the read model it polls).
        const row = documentId ? await ownedDocument(readModels, UNLIMITED_READER, documentId) : null;
        if (row) {
          const shown = toLibraryDocument(row);
          const line = [statusDisplay(shown.status).label, ...shown.readingNotes].join(" · ");
          if (line !== seen.at(-1)) {
            seen.push(line);
            console.log(`  ${at()}  shown: ${line}   [RSS ${MB(rss)}]`);
          }
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    };
    const sampler = sample();

    const registered = await library.registerUpload(UNLIMITED_READER, { document_name: "big.pdf", document_size: bytes.length, page_count: PAGES }, ctx);
    documentId = registered.document_id;
    await library.receiveUpload(documentId, new URL(registered.url, "http://x").searchParams.get("token")!, bytes, "application/pdf", ctx);
    const outcome = await engine.waitForCompletion(`ingestion-${documentId}`, 3_600_000);
    const activeSeconds = (performance.now() - t0) / 1000;
    loop.disable();
    const { state } = await library.loadDocument(documentId);
    if (!state.exists) throw new Error("the document is gone");
    console.log(`  ${at()}  ingestion ${outcome?.status}: ${state.status}, ${state.pageCount} pages, ${state.chunkCount} chunks${state.status === "FAILED" ? ` (${state.failureReason})` : ""}`);
    const events = await rt.get<EventStore>(TOKENS.EventStore).readStream(`document-${documentId}`);
    const boundaries = STEP_EVENTS.flatMap(([type, name]) => {
      const event = events.find((e) => e.type === type);
      return event ? [{ name, from: new Date(event.recordedAt).getTime() }] : [];
    });
    const activeAt = Date.now();
    const printPeaks = (samples: { at: number; rss: number }[]) => {
      const steps = [{ name: "upload", from: wallStart }, ...boundaries];
      console.log(`RSS of this process, sampled every 100 ms by a thread of its own (before the upload: ${MB(rssBefore)}):`);
      for (const [i, step] of steps.entries()) {
        const until = steps[i + 1]?.from ?? Infinity;
        const within = samples.filter((s) => s.at >= step.from && s.at < until);
        if (within.length === 0) continue;
        const peak = Math.max(...within.map((s) => s.rss));
        console.log(`  ${step.name.padEnd(38)} ${((step.from - wallStart) / 1000).toFixed(1).padStart(6)} s  peak ${MB(peak).padStart(7)}, last ${MB(within.at(-1)!.rss).padStart(7)}`);
      }
    };
    console.log(`\nTime to ACTIVE: ${activeSeconds.toFixed(1)} s for ${PAGES} pages (${(PAGES / activeSeconds).toFixed(0)} pages/s; ${(activeSeconds / pdftotextSeconds).toFixed(1)}x pdftotext's time over the file)`);
    console.log(`  ${(PAGES / activeSeconds / (REFERENCE_PAGES / referenceSeconds)).toFixed(2)}x the reference's pages/s (1.0: time grows with the pages, no faster)`);
    console.log(`  event loop of this process from upload to ACTIVE: delay p99 ${(loop.percentile(99) / 1e6).toFixed(0)} ms, max ${(loop.max / 1e6).toFixed(0)} ms`);
    const sampler1 = rssSampler();
    printPeaks(await sampler0.stop());
    const { poppler, extraction } = childPeaks;
    console.log(`Child processes, apart (sampled every 100 ms from /proc):`);
    console.log(`  poppler (pdftohtml, pdfinfo)   peak ${MB(poppler.total)} together (${poppler.processes} at once), largest one ${MB(poppler.largest)}`);
    console.log(`  extraction processes (node)    peak ${MB(extraction.total)} together (${extraction.processes} at once), largest one ${MB(extraction.largest)}`);

    let embedSeconds: number | null = null;
    let embeddingFrom: number | null = null;
    if (EMBED && state.status === "ACTIVE") {
      embeddingFrom = Date.now();
      const embedStart = performance.now();
      const { workspaceId } = await rt.container.get(WorkspaceService).create(UNLIMITED_READER, { name: "Big", type: "Conversation", documentIds: [documentId] }, ctx);
      const index = rt.get<SearchIndex>(TOKENS.SearchIndex);
      const progress = setInterval(() => {
        void index.countVectors(embeddingSpace(BUILT_IN_EMBEDDING), documentId).then((n) => console.log(`  ${at()}  embedded ${n} of ${state.chunkCount} passages, RSS now ${MB(process.memoryUsage().rss)}, `));
      }, 60_000);
      const embedded = await engine.waitForCompletion(workspaceEmbeddingWorkflowId(workspaceId, 1), 3_600_000);
      clearInterval(progress);
      embedSeconds = (performance.now() - embedStart) / 1000;
      console.log(`  ${at()}  embedding ${embedded?.status} in ${embedSeconds.toFixed(1)} s`);
    }
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    sampling = false;
    await sampler;

    if (embedSeconds !== null) console.log(`\nEmbedding in a workspace: ${embedSeconds.toFixed(1)} s more`);
    // From ACTIVE on (the previous sampler stopped there): embedding, if it ran, and 2 s after it.
    const later = await sampler1.stop();
    const afterFrom = embeddingFrom === null ? activeAt : Date.now() - 2_000;
    if (embeddingFrom !== null) console.log(`  peak while embedding                   ${MB(Math.max(...later.filter((s) => s.at < afterFrom).map((s) => s.rss))).padStart(7)}`);
    console.log(`  2 s after the last step                peak ${MB(Math.max(...later.filter((s) => s.at >= afterFrom).map((s) => s.rss))).padStart(7)}, last ${MB(later.at(-1)!.rss).padStart(7)}`);
  } finally {
    await runtime?.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
