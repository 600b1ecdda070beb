/**
 * The TextExtractor adapter, as the rest of the app sees it: checks the kind here (a quick look at
 * magic bytes and archive entries), and counts pages and extracts text in extraction threads, so
 * pdf.js, OCR output and office formats never hold the event loop of the process that hosts
 * ingestion (docs/decisions/155). Used by both the embedded and the production setup.
 *
 * The threads are a piscina pool of at most two, at a lower scheduling priority than the thread
 * serving pages; they end after IDLE_MS without work, which gives their memory back once a
 * document (or a batch of them) is read. A long PDF is read by both threads at once, each opening it once and taking pages
 * one at a time from a shared counter; one thread then judges the document as a whole (running
 * heads, hyphenation, OCR of the pages that need it).
 *
 * A PDF read by poppler is parsed and judged in an extraction process instead (decision 204): a
 * long book's layouts would otherwise be this process's memory.
 */
import { availableParallelism } from "node:os";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Piscina } from "piscina";
import {
  ExtractionError,
  type ExtractionResult,
  type FileKind,
  type TextExtractor,
} from "#application/ports/text-extraction";
import { detectKind } from "#infrastructure/extraction/detect-kind";
import type { TextExtractorOptions } from "#infrastructure/extraction/document-reader";
import type { Outcome } from "#infrastructure/extraction/extraction-thread";
import { inProcess } from "#infrastructure/extraction/extraction-processes";
import { DEFAULT_ARCHIVE_LIMITS, type ArchiveLimits } from "#infrastructure/extraction/zip-archive";

export type { TextExtractorOptions } from "#infrastructure/extraction/document-reader";

/** Two threads use both cores of a small server; more would only take turns with the pages being served. */
const THREADS = Math.min(2, availableParallelism());
/** Below this many pages a second thread costs more to start than it saves. */
const PAGES_WORTH_SHARING = 16;
/**
 * A thread costs seconds of CPU to start on a busy 2-core machine (pdf.js alone is 4 MB of code):
 * long enough that the documents of a batch find it warm, short enough that an idle server soon
 * holds no extraction memory.
 */
const IDLE_MS = 30_000;
/** Whatever document a thread reads, it cannot take the process's memory with it. */
const THREAD_HEAP_MB = 2_048;
/** Shared with extraction-thread.ts: the page-count slot of a PDF's claims. */
const PAGE_COUNT = 1;

/** In Node since 16; TypeScript declares it only from its ES2024 library on. */
const waitAsync = (Atomics as unknown as { waitAsync(on: Int32Array, index: number, value: number): { async: boolean; value: unknown } }).waitAsync;

let pool: Piscina | undefined;

/**
 * The thread entry point, found from this module's place upwards: it is this module's neighbour
 * when run from the sources (vitest, tsx), and under the project root when bundled into build/index.js.
 */
function threadEntry(): string {
  for (let dir = dirname(fileURLToPath(import.meta.url)); dirname(dir) !== dir; dir = dirname(dir)) {
    const entry = join(dir, "infrastructure", "extraction", "extraction-thread.mjs");
    if (existsSync(entry)) return entry;
  }
  throw new Error("The extraction thread's entry point (infrastructure/extraction/extraction-thread.mjs) is missing from this installation.");
}

function threads(): Piscina {
  pool ??= new Piscina({
    filename: threadEntry(),
    minThreads: 0,
    maxThreads: THREADS,
    idleTimeout: IDLE_MS,
    // Documents wait their turn rather than being refused: ingestion is a background workflow.
    maxQueue: Infinity,
    niceIncrement: 10,
    resourceLimits: { maxOldGenerationSizeMb: THREAD_HEAP_MB },
    // Not the parent's flags (a test runner's or tsx's loader): the entry point brings its own.
    execArgv: [],
  });
  return pool;
}

/** A task's answer, or the refusal the user must read as the ExtractionError it was before crossing over. */
function valueOf<T>(outcome: Outcome<T>): T {
  if (!outcome.ok) throw new ExtractionError(outcome.code, outcome.message);
  return outcome.value;
}

async function inThread<T>(name: "countPages" | "extract" | "readPdf" | "finishPdf", task: object): Promise<T> {
  return valueOf<T>(await threads().run(task, { name }));
}

/** The bytes once, in memory every thread reads without a copy of its own. */
function shared(bytes: Buffer): SharedArrayBuffer {
  const memory = new SharedArrayBuffer(bytes.length);
  new Uint8Array(memory).set(bytes);
  return memory;
}

export class DefaultTextExtractor implements TextExtractor {
  private readonly limits: ArchiveLimits;

  constructor(private readonly options: TextExtractorOptions = {}) {
    this.limits = {
      maxUncompressedBytes: options.maxUncompressedBytes ?? DEFAULT_ARCHIVE_LIMITS.maxUncompressedBytes,
      maxEntries: options.maxArchiveEntries ?? DEFAULT_ARCHIVE_LIMITS.maxEntries,
    };
  }

  detectKind(bytes: Buffer, fileName: string): FileKind {
    return detectKind(bytes, fileName, this.limits);
  }

  countPages(bytes: Buffer, kind: FileKind): Promise<number> {
    return inThread("countPages", { bytes: shared(bytes), kind, options: this.options });
  }

  async extract(input: { bytes: Buffer; kind: FileKind; ocr: boolean; sourceUrl?: string }): Promise<ExtractionResult> {
    if (input.kind === "pdf" && this.options.pdfExtractor !== "pdfjs") {
      // Poppler's processes spread the pages themselves; an extraction process of its own parses
      // and judges what they print, so a long book's layouts never live in this process (decision 204).
      return valueOf(await inProcess<ExtractionResult>("extract", { bytes: input.bytes, kind: input.kind, ocr: input.ocr, options: this.options }));
    }
    const bytes = shared(input.bytes);
    if (input.kind === "pdf") return this.extractPdf(bytes, input.ocr);
    return inThread("extract", { bytes, kind: input.kind, ocr: input.ocr, options: this.options });
  }

  private async extractPdf(bytes: SharedArrayBuffer, ocr: boolean): Promise<ExtractionResult> {
    const claims = new Int32Array(new SharedArrayBuffer(2 * Int32Array.BYTES_PER_ELEMENT));
    const readers = [inThread<string>("readPdf", { bytes, claims: claims.buffer })];
    // A second reader joins once the first has opened the document and the page count says it is worth it.
    await Promise.race([waitAsync(claims, PAGE_COUNT, 0).value, readers[0]]);
    if (Atomics.load(claims, PAGE_COUNT) >= PAGES_WORTH_SHARING) {
      for (let i = 1; i < THREADS; i++) readers.push(inThread<string>("readPdf", { bytes, claims: claims.buffer }));
    }
    const pages = await Promise.all(readers);
    return inThread("finishPdf", { bytes, pages, ocr, options: this.options });
  }
}
