import type * as Pdfjs from "pdfjs-dist/legacy/build/pdf.mjs";
import { loadPdfjs } from "#app/components/library/pdfjs";
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

/** One pdf.js worker for every document: opening another tab does not start (and parse) a new worker. */
let sharedWorker: Pdfjs.PDFWorker | null = null;
function worker(lib: PdfLib): Pdfjs.PDFWorker {
  if (!sharedWorker || sharedWorker.destroyed) sharedWorker = new lib.PDFWorker();
  return sharedWorker;
}

/** Starts the worker early (while the bytes download). */
export function warmPdfjs(): void {
  void loadPdfjs()
    .then(worker)
    .catch(() => undefined);
}

export async function openPdf(documentId: string): Promise<{ lib: PdfLib; task: Pdfjs.PDFDocumentLoadingTask }> {
  const url = inlineUrl(documentId);
  const firstChunk = fetchRange(url, 0, RANGE_CHUNK_SIZE);
  // Awaited below, once pdf.js has loaded; a refusal arriving first must not count as unhandled meanwhile.
  firstChunk.catch(() => undefined);
  const lib = await loadPdfjs();
  const pdfWorker = worker(lib);
  const first = await firstChunk;
  const common = { worker: pdfWorker, isEvalSupported: false, enableXfa: false } as const;
  // A server that ignored the range sent the whole file: nothing left to ask for.
  const task: Pdfjs.PDFDocumentLoadingTask =
    first.total === first.bytes.byteLength
      ? lib.getDocument({ ...common, data: first.bytes })
      : lib.getDocument({
          ...common,
          // pdf.js would wait for ever for a range that never comes: a failed one ends the loading.
          range: rangeTransport(lib, url, first, () => void task.destroy()),
          rangeChunkSize: RANGE_CHUNK_SIZE,
          disableAutoFetch: true,
        });
  // A tab closed while loading destroys the task ('Loading aborted'): not an unhandled rejection.
  task.promise.catch(() => undefined);
  return { lib, task };
}

/** Bytes `begin` (inclusive) to `end` (exclusive) of the file, and its whole length; a failed answer throws its readable reason. */
async function fetchRange(url: string, begin: number, end: number): Promise<{ bytes: Uint8Array; total: number }> {
  const response = await fetch(url, { credentials: "same-origin", headers: { Range: `bytes=${begin}-${end - 1}` } });
  if (!response.ok) throw new Error(await failureReason(response));
  const bytes = new Uint8Array(await response.arrayBuffer());
  const total = response.status === 206 ? Number(/\/(\d+)$/.exec(response.headers.get("Content-Range") ?? "")?.[1] ?? Number.NaN) : bytes.byteLength;
  if (!Number.isFinite(total)) throw new Error("The server answered a range without the file's size");
  return { bytes, total };
}

/** Feeds pdf.js the ranges it asks for; `fail` when one cannot be read. */
function rangeTransport(lib: PdfLib, url: string, first: { bytes: Uint8Array; total: number }, fail: () => void): Pdfjs.PDFDataRangeTransport {
  const transport = new lib.PDFDataRangeTransport(first.total, first.bytes);
  const controller = new AbortController();
  transport.requestDataRange = (begin: number, end: number) => {
    fetch(url, { credentials: "same-origin", headers: { Range: `bytes=${begin}-${end - 1}` }, signal: controller.signal })
      .then(async (response) => {
        if (response.status !== 206) throw new Error(`HTTP ${response.status}`);
        transport.onDataRange(begin, new Uint8Array(await response.arrayBuffer()));
      })
      .catch(() => {
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
