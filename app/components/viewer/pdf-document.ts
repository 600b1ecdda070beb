import type * as Pdfjs from "pdfjs-dist/legacy/build/pdf.mjs";
import { loadPdfjs, PDFJS_WORKER_URL } from "#app/components/library/pdfjs";
import { inlineUrl } from "./types";

export type PdfLib = typeof Pdfjs;
export type PdfDocument = Pdfjs.PDFDocumentProxy;
export type PdfPage = Pdfjs.PDFPageProxy;

/** Layout block of a page, as GET /api/documents/{id}/layout/{page} answers it (596×842 space, top-left origin). */
export type LayoutBlock = { id: string; text: string; box: { left: number; top: number; width: number; height: number } };
export const LAYOUT_WIDTH = 596;
export const LAYOUT_HEIGHT = 842;

/** The most a page canvas may hold (pdf.js's own viewer allows 2^25); beyond it the pixel ratio drops. */
const MAX_CANVAS_PIXELS = 2 ** 24;

/**
 * The viewer reads a PDF by byte ranges (decision 160): pdf.js asks for the
 * chunks it needs — the trailer, the cross-reference table, page 1's objects —
 * so page 1 paints without the whole file, and later pages arrive as they are
 * scrolled to. The download route answers ranges with a strong ETag, so
 * reopening a document costs the browser a revalidation (304), not the bytes.
 */
const RANGE_CHUNK_SIZE = 65_536;
/**
 * Read with the head, in parallel (decision 176): the trailer and cross-reference
 * table pdf.js reads first, and in most files the catalog, the page tree and the
 * last page it checks before any page is shown.
 */
const TAIL_SIZE = 4 * RANGE_CHUNK_SIZE;
/** A linearized file's first-page section is read ahead up to this size; past it pdf.js asks for what page 1 uses. */
const MAX_FIRST_PAGE_SECTION = 2 * 1024 * 1024;

/** A readable reason from a failed download (the server answers plain text or {message}). */
async function failureReason(response: Response): Promise<string> {
  let reason = response.statusText || `HTTP ${response.status}`;
  try {
    const body = (await response.text()).trim();
    if (body && body.length < 200 && !body.startsWith("<")) {
      try {
        const parsed = JSON.parse(body) as { message?: string };
        reason = parsed.message || reason;
      } catch {
        reason = body;
      }
    }
  } catch {
    // keep the status text
  }
  return reason;
}

/**
 * One pdf.js worker for every document: opening another tab does not start (and parse) a new worker.
 * Its thread starts as soon as a PDF is to be shown, without waiting for pdf.js itself to load:
 * starting and parsing the worker's script is the longest step before page 1 (decision 176);
 * pdf.js then takes the running thread as its port.
 */
let workerThread: Worker | null = null;
let sharedWorker: Pdfjs.PDFWorker | null = null;
function startWorkerThread(): void {
  if (!sharedWorker || sharedWorker.destroyed) workerThread ??= new Worker(PDFJS_WORKER_URL, { type: "module" });
}
function worker(lib: PdfLib): Pdfjs.PDFWorker {
  if (!sharedWorker || sharedWorker.destroyed) {
    startWorkerThread();
    sharedWorker = lib.PDFWorker.create({ port: workerThread ?? undefined });
    workerThread = null;
  }
  return sharedWorker;
}

type Bytes = { bytes: Uint8Array; total: number };
/** Bytes read before pdf.js asked for them: `bytes` holds [begin, end), or null once the read failed. */
type ReadAhead = { begin: number; end: number; bytes: Promise<Uint8Array | null> };

/** A document being opened: the head and tail of the file on their way (pdf.js's worker thread starting meanwhile). */
type Opening = {
  documentId: string;
  url: string;
  head: Promise<Bytes>;
  readAhead: Promise<ReadAhead[]>;
  controller: AbortController;
};

/** The opening started ahead of the viewer (while the page hydrates), for the viewer to take over. */
let ahead: Opening | null = null;

/**
 * Starts opening a PDF before the viewer needs it: pdf.js's worker thread and
 * the first ranges load while the page hydrates instead of after (decision 176).
 * The viewer's `openPdf` takes it over; another document's preparation replaces it.
 */
export function preparePdf(documentId: string): void {
  if (ahead?.documentId === documentId) return;
  ahead?.controller.abort();
  ahead = startOpening(documentId);
}

function startOpening(documentId: string): Opening {
  const url = inlineUrl(documentId);
  const controller = new AbortController();
  startWorkerThread();
  const head = fetchRange(url, `bytes=0-${RANGE_CHUNK_SIZE - 1}`, controller.signal);
  const tail = fetchRange(url, `bytes=-${TAIL_SIZE}`, controller.signal);
  // Awaited once pdf.js has loaded; a refusal arriving first must not count as unhandled meanwhile.
  for (const pending of [head, tail]) pending.catch(() => undefined);
  const readAhead = head.then((first) => {
    // A server that ignored the range sent the whole file: nothing more to read.
    if (first.bytes.byteLength === first.total) {
      controller.abort();
      return [];
    }
    const reads: ReadAhead[] = [];
    const tailBegin = Math.max(0, first.total - TAIL_SIZE);
    reads.push({ begin: tailBegin, end: first.total, bytes: tail.then((t) => (t.bytes.byteLength === first.total - tailBegin ? t.bytes : null)).catch(() => null) });
    const section = firstPageSection(first.bytes, first.total, RANGE_CHUNK_SIZE);
    if (section) {
      const bytes = fetchRange(url, `bytes=${section.begin}-${section.end - 1}`, controller.signal).then((r) => r.bytes, () => null);
      reads.push({ ...section, bytes });
    }
    return reads;
  });
  readAhead.catch(() => undefined);
  return { documentId, url, head, readAhead, controller };
}

export async function openPdf(documentId: string): Promise<{ lib: PdfLib; task: Pdfjs.PDFDocumentLoadingTask }> {
  const opening = ahead?.documentId === documentId ? ahead : startOpening(documentId);
  if (ahead === opening) ahead = null;
  try {
    // Imported here, not while the page hydrates: evaluating pdf.js runs on the main thread.
    const lib = await loadPdfjs();
    const first = await opening.head;
    const common = { worker: worker(lib), isEvalSupported: false, enableXfa: false } as const;
    // A server that ignored the range sent the whole file: nothing left to ask for.
    const task: Pdfjs.PDFDocumentLoadingTask =
      first.total === first.bytes.byteLength
        ? lib.getDocument({ ...common, data: first.bytes })
        : lib.getDocument({
            ...common,
            // pdf.js would wait for ever for a range that never comes: a failed one ends the loading.
            range: rangeTransport(lib, opening, first, () => void task.destroy()),
            rangeChunkSize: RANGE_CHUNK_SIZE,
            disableAutoFetch: true,
          });
    // A tab closed while loading destroys the task ('Loading aborted'): not an unhandled rejection.
    task.promise.catch(() => undefined);
    return { lib, task };
  } catch (error) {
    opening.controller.abort();
    throw error;
  }
}

/**
 * Where a linearized file's first-page section ends (its `/E`), as whole
 * chunks after the head: pdf.js needs all of it for page 1, and would ask for
 * it a few chunks at a time as it finds each object. Null for a file that is
 * not linearized, whose section the head already holds, or one too large to
 * read ahead.
 */
export function firstPageSection(head: Uint8Array, total: number, chunkSize: number): { begin: number; end: number } | null {
  // The linearization dictionary is the file's first object, within its first 1024 bytes (ISO 32000-1 annex F).
  const start = new TextDecoder("latin1").decode(head.subarray(0, 1024));
  const dictionary = /<<\s*\/Linearized\b[^>]*>>/.exec(start)?.[0];
  const end = Number(/\/E\s+(\d+)/.exec(dictionary ?? "")?.[1] ?? Number.NaN);
  if (!Number.isFinite(end) || end <= head.byteLength || end > total) return null;
  const begin = head.byteLength;
  const chunkEnd = Math.min(total, Math.ceil(end / chunkSize) * chunkSize);
  return chunkEnd - begin > MAX_FIRST_PAGE_SECTION ? null : { begin, end: chunkEnd };
}

/** The read-ahead holding all of [begin, end), if any. */
export function coveringRead<T extends { begin: number; end: number }>(reads: T[], begin: number, end: number): T | undefined {
  return reads.find((read) => read.begin <= begin && end <= read.end);
}

/** Answers a `Range` request; a failed answer throws its readable reason; a 200 is the whole file. */
async function fetchRange(url: string, range: string, signal: AbortSignal): Promise<Bytes> {
  const response = await fetch(url, { credentials: "same-origin", headers: { Range: range }, signal });
  if (!response.ok) throw new Error(await failureReason(response));
  const bytes = new Uint8Array(await response.arrayBuffer());
  const total = response.status === 206 ? Number(/\/(\d+)$/.exec(response.headers.get("Content-Range") ?? "")?.[1] ?? Number.NaN) : bytes.byteLength;
  if (!Number.isFinite(total)) throw new Error("The server answered a range without the file's size");
  return { bytes, total };
}

/** Feeds pdf.js the ranges it asks for, from what was read ahead when it holds them; `fail` when one cannot be read. */
function rangeTransport(lib: PdfLib, opening: Opening, first: Bytes, fail: () => void): Pdfjs.PDFDataRangeTransport {
  const transport = new lib.PDFDataRangeTransport(first.total, first.bytes);
  const { url, controller } = opening;
  const fetchAnswer = async (begin: number, end: number) => {
    const response = await fetch(url, { credentials: "same-origin", headers: { Range: `bytes=${begin}-${end - 1}` }, signal: controller.signal });
    if (response.status !== 206) throw new Error(`HTTP ${response.status}`);
    return new Uint8Array(await response.arrayBuffer());
  };
  transport.requestDataRange = (begin: number, end: number) => {
    void (async () => {
      const read = coveringRead(await opening.readAhead, begin, end);
      // A copy: pdf.js may transfer the buffer it is given to its worker.
      const held = read ? (await read.bytes)?.slice(begin - read.begin, end - read.begin) : undefined;
      transport.onDataRange(begin, held ?? (await fetchAnswer(begin, end)));
    })().catch(() => {
      if (!controller.signal.aborted) fail();
    });
  };
  transport.abort = () => controller.abort();
  return transport;
}

/** The pixel ratio for a canvas of `width`×`height` CSS px: the device's, lowered to stay under the pixel budget. */
export function outputScale(width: number, height: number): number {
  const dpr = typeof window === "undefined" ? 1 : Math.min(3, window.devicePixelRatio || 1);
  const budget = Math.sqrt(MAX_CANVAS_PIXELS / Math.max(1, width * height));
  return Math.max(0.5, Math.min(dpr, budget));
}

const layoutCache = new Map<string, Promise<LayoutBlock[]>>();

/** Layout blocks of a page (1-based); an empty list when the page has none or cannot be read. */
export function fetchLayout(documentId: string, pageNumber: number): Promise<LayoutBlock[]> {
  const key = `${documentId}:${pageNumber}`;
  let loading = layoutCache.get(key);
  if (!loading) {
    loading = fetch(`/api/documents/${encodeURIComponent(documentId)}/layout/${pageNumber}`, { headers: { Accept: "application/json" }, credentials: "same-origin" })
      .then(async (response) => {
        if (!response.ok) return [];
        const body = (await response.json()) as { blocks?: LayoutBlock[] };
        return Array.isArray(body.blocks) ? body.blocks : [];
      })
      .catch(() => [] as LayoutBlock[]);
    layoutCache.set(key, loading);
    void loading.then((blocks) => {
      if (blocks.length === 0) layoutCache.delete(key); // retry later (e.g. still indexing)
    });
  }
  return loading;
}

/** Where each document was left (page, zoom, thumbnails), for switching back to its tab. */
export type ViewMemory = { page: number; scale: number; thumbs: boolean };
export const viewMemory = new Map<string, ViewMemory>();
