/**
 * Ingestion text extraction throughput: DefaultTextExtractor on a generated 200-page PDF, beside
 * poppler's `pdftotext` on the same file in the same run (ARCHITECTURE §10), so the ratio means
 * something on a noisy machine. Not a test: nothing is asserted.
 *
 * Then the time a user waits from upload to ACTIVE, through the real runtime.
 *
 *   npx tsx bench/ingestion.bench.ts
 */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { promisify } from "node:util";
import { PDFDocument, StandardFonts } from "pdf-lib";
import "reflect-metadata";
import pino from "pino";
import { TOKENS } from "#application/tokens";
import type { SearchIndex } from "#application/ports/search-index";
import type { WorkflowEngine } from "#application/ports/workflow";
import { LibraryService } from "#application/library/library-service";
import { loadConfig } from "#infrastructure/config/config";
import { createRuntime } from "#infrastructure/container";
import { extractPdf } from "#infrastructure/extraction/pdf";
import { DefaultTextExtractor } from "#infrastructure/extraction/text-extractor";

const run = promisify(execFile);
const PAGES = 200;
const LINES_PER_PAGE = 45;
const ROUNDS = 3;

const WORDS = "the quarterly report shows revenue growth across all regions while operating costs remained stable and cash flow improved".split(" ");

async function makeBenchPdf(): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.TimesRoman);
  for (let p = 0; p < PAGES; p++) {
    const page = doc.addPage([595.28, 841.89]);
    page.drawText(`Section ${p + 1}`, { x: 72, y: 780, size: 16, font });
    for (let l = 0; l < LINES_PER_PAGE; l++) {
      // Vary the words per line so lines differ, as real prose does.
      const line = Array.from({ length: 12 }, (_, w) => WORDS[(p * 7 + l * 3 + w) % WORDS.length]).join(" ");
      // A paragraph break every 9 lines gives several blocks per page.
      const gap = Math.floor(l / 9) * 8;
      page.drawText(line, { x: 72, y: 750 - l * 14 - gap, size: 11, font });
    }
  }
  return Buffer.from(await doc.save());
}

async function time(label: string, fn: () => Promise<number>): Promise<{ label: string; seconds: number; chars: number }> {
  let best = Infinity;
  let chars = 0;
  for (let i = 0; i < ROUNDS; i++) {
    const start = performance.now();
    chars = await fn();
    best = Math.min(best, (performance.now() - start) / 1000);
  }
  return { label, seconds: best, chars };
}

const dir = await mkdtemp(join(tmpdir(), "ingestion-bench-"));
try {
  const bytes = await makeBenchPdf();
  const path = join(dir, "bench.pdf");
  await writeFile(path, bytes);
  const extractor = new DefaultTextExtractor({ tempDir: dir });
  // Warm-up: loads pdfjs once, as a long-running worker would have it loaded.
  await extractor.extract({ bytes, kind: "pdf", ocr: false });

  const ours = await time("DefaultTextExtractor.extract (pdfjs, text + layout blocks)", async () => {
    const result = await extractor.extract({ bytes, kind: "pdf", ocr: false });
    return result.pages.reduce((n, p) => n + p.text.length, 0);
  });
  const reference = await time("pdftotext (poppler, reference)", async () => {
    const { stdout } = await run("pdftotext", ["-enc", "UTF-8", path, "-"], { maxBuffer: 256 * 1024 * 1024 });
    return stdout.length;
  });

  console.log(`Ingestion extraction: ${PAGES}-page PDF (${(bytes.length / 1024).toFixed(0)} KiB), best of ${ROUNDS} runs`);
  for (const r of [ours, reference]) {
    console.log(`  ${r.label.padEnd(60)} ${(PAGES / r.seconds).toFixed(0).padStart(6)} pages/s  (${(r.seconds * 1000).toFixed(0)} ms, ${r.chars} chars)`);
  }
  console.log(`  ratio (ours / pdftotext): ${(reference.seconds / ours.seconds).toFixed(2)}x the reference's pages/s`);

  // A real book with running heads and footnotes (the corpus sits beside the repository).
  const bookPath = join(import.meta.dirname, "..", "..", "shared", "corpus", "freeculture.pdf");
  if (existsSync(bookPath)) {
    const book = await readFile(bookPath);
    const bookPages = await extractor.countPages(book, "pdf");
    let removed = 0;
    const oursBook = await time("DefaultTextExtractor.extract on freeculture.pdf", async () => {
      const result = await extractPdf(book, { ocr: false, ocrOptions: { command: "tesseract", languages: "eng", timeoutMs: 120_000 }, rasterizeCommand: "pdftoppm", tempDir: dir });
      removed = result.runningLinesRemoved;
      return result.pages.reduce((n, p) => n + p.text.length, 0);
    });
    const referenceBook = await time("pdftotext on freeculture.pdf (reference)", async () => {
      const { stdout } = await run("pdftotext", ["-enc", "UTF-8", bookPath, "-"], { maxBuffer: 256 * 1024 * 1024 });
      return stdout.length;
    });
    console.log(`Real book: freeculture.pdf, ${bookPages} pages, best of ${ROUNDS} runs (${removed} running header/footer lines kept out)`);
    for (const r of [oursBook, referenceBook]) {
      console.log(`  ${r.label.padEnd(60)} ${(bookPages / r.seconds).toFixed(0).padStart(6)} pages/s  (${(r.seconds * 1000).toFixed(0)} ms, ${r.chars} chars)`);
    }
    console.log(`  ratio (ours / pdftotext): ${(referenceBook.seconds / oursBook.seconds).toFixed(2)}x the reference's pages/s`);
  }

  // The whole path a user waits for: upload -> durable ingestion workflow (extract, chunk, index) -> ACTIVE.
  const runtime = await createRuntime(loadConfig({ DATA_DIR: join(dir, "data"), APP_SECRET: "bench-secret-bench-secret-bench-secret" }), {
    logger: pino({ level: "silent" }),
  });
  try {
    const ctx = { requestId: "bench", clientAddress: "127.0.0.1", actorId: "bench-user" };
    const library = runtime.container.get(LibraryService);
    const started = performance.now();
    const registered = await library.registerUpload("bench-user", { document_name: "bench.pdf", document_size: bytes.length, page_count: PAGES }, ctx);
    await library.receiveUpload(registered.document_id, new URL(registered.url, "http://x").searchParams.get("token")!, bytes, "application/pdf", ctx);
    const run = await runtime.get<WorkflowEngine>(TOKENS.WorkflowEngine).waitForCompletion(`ingestion-${registered.document_id}`, 120_000);
    const ms = performance.now() - started;
    const chunks = await runtime.get<SearchIndex>(TOKENS.SearchIndex).countChunks(registered.document_id);
    console.log(`  upload -> ACTIVE through the ingestion workflow: ${(ms / 1000).toFixed(2)} s for ${PAGES} pages (${run?.status}, ${chunks} chunks indexed), ${(PAGES / (ms / 1000)).toFixed(0)} pages/s`);
  } finally {
    await runtime.stop();
  }
} finally {
  await rm(dir, { recursive: true, force: true });
}
