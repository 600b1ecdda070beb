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

/** Original bytes of the last few PDFs, so switching tabs does not download them again. */
const bytesCache = new Map<string, Promise<ArrayBuffer>>();
const BYTES_CACHE_SIZE = 4;

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

export function fetchPdfBytes(documentId: string): Promise<ArrayBuffer> {
  const cached = bytesCache.get(documentId);
  if (cached) {
    bytesCache.delete(documentId);
    bytesCache.set(documentId, cached);
    return cached;
  }
  const loading = fetch(inlineUrl(documentId), { credentials: "same-origin" }).then(async (response) => {
    if (!response.ok) throw new Error(await failureReason(response));
    return response.arrayBuffer();
  });
  bytesCache.set(documentId, loading);
  while (bytesCache.size > BYTES_CACHE_SIZE) bytesCache.delete(bytesCache.keys().next().value as string);
  loading.catch(() => bytesCache.delete(documentId));
  return loading;
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
  const bytesLoading = fetchPdfBytes(documentId);
  const lib = await loadPdfjs();
  const pdfWorker = worker(lib);
  const bytes = await bytesLoading;
  // pdf.js moves the buffer to its worker: hand it a copy and keep the cached one.
  const task = lib.getDocument({ data: new Uint8Array(bytes.slice(0)), worker: pdfWorker, isEvalSupported: false, enableXfa: false });
  // A tab closed while loading destroys the task ('Loading aborted'): not an unhandled rejection.
  task.promise.catch(() => undefined);
  return { lib, task };
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
