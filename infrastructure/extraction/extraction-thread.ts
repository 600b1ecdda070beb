/**
 * The work an extraction thread does (loaded by extraction-thread.mjs; text-extractor.ts sends
 * the tasks). Every task answers an Outcome: a refusal the user must read (ExtractionError) crosses
 * the thread boundary as its code and message, since an Error loses its class and code there;
 * anything else is thrown, arrives as a plain Error and is retried by the workflow.
 */
import type { ExtractionResult, FileKind } from "#application/ports/text-extraction";
import { ExtractionError } from "#application/ports/text-extraction";
import { DocumentReader, type TextExtractorOptions } from "#infrastructure/extraction/document-reader";
import { readPdfPages, type PageLayout } from "#infrastructure/extraction/pdf";

export type Outcome<T> = { ok: true; value: T } | { ok: false; code: string; message: string };

/** Shared by the threads reading one PDF: [0] pages handed out so far, [1] the page count (0 until the document is open, -1 if it cannot be). */
export const PAGES_HANDED_OUT = 0;
export const PAGE_COUNT = 1;

async function outcome<T>(work: () => Promise<T>): Promise<Outcome<T>> {
  try {
    return { ok: true, value: await work() };
  } catch (error) {
    if (error instanceof ExtractionError) return { ok: false, code: error.code, message: error.message };
    throw error;
  }
}

/** The document's bytes as the main thread shared them: a view, not a copy. */
const bytesOf = (shared: SharedArrayBuffer) => Buffer.from(shared);

export function countPages(task: { bytes: SharedArrayBuffer; kind: FileKind; options: TextExtractorOptions }): Promise<Outcome<number>> {
  return outcome(() => new DocumentReader(task.options).countPages(bytesOf(task.bytes), task.kind));
}

export function extract(task: { bytes: SharedArrayBuffer; kind: FileKind; ocr: boolean; options: TextExtractorOptions }): Promise<Outcome<ExtractionResult>> {
  return outcome(() => new DocumentReader(task.options).extract({ bytes: bytesOf(task.bytes), kind: task.kind, ocr: task.ocr }));
}

/**
 * Reads the layouts of the PDF's pages that no other thread has taken yet, one page at a time,
 * so threads of unequal speed finish together. Answers them as JSON: the main thread only hands
 * the text on to finishPdf, and a string crosses threads without being rebuilt object by object.
 */
export function readPdf(task: { bytes: SharedArrayBuffer; claims: SharedArrayBuffer }): Promise<Outcome<string>> {
  const claims = new Int32Array(task.claims);
  const told = (pageCount: number) => {
    if (Atomics.compareExchange(claims, PAGE_COUNT, 0, pageCount) === 0) Atomics.notify(claims, PAGE_COUNT);
  };
  return outcome(async () => {
    const count = Atomics.load(claims, PAGE_COUNT);
    // A thread that joins after every page was taken has nothing to open.
    if (count > 0 && Atomics.load(claims, PAGES_HANDED_OUT) >= count) return "[]";
    try {
      const pages = await readPdfPages(bytesOf(task.bytes), (pageCount) => {
        told(pageCount);
        const pageNumber = Atomics.add(claims, PAGES_HANDED_OUT, 1) + 1;
        return pageNumber <= pageCount ? pageNumber : undefined;
      });
      return JSON.stringify(pages);
    } finally {
      // A document that cannot be opened still ends the wait for its page count.
      told(-1);
    }
  });
}

export function finishPdf(task: { bytes: SharedArrayBuffer; pages: string[]; ocr: boolean; options: TextExtractorOptions }): Promise<Outcome<ExtractionResult>> {
  const read = task.pages.flatMap((json) => JSON.parse(json) as { pageNumber: number; layout: PageLayout }[]);
  const layouts = read.sort((a, b) => a.pageNumber - b.pageNumber).map((page) => page.layout);
  return outcome(() => new DocumentReader(task.options).finishPdf(bytesOf(task.bytes), layouts, task.ocr));
}
