import type * as Pdfjs from "pdfjs-dist/legacy/build/pdf.mjs";

/**
 * pdf.js, loaded at run time from the app's own origin (public/pdf.min.mjs and
 * public/pdf.worker.min.mjs, copied from node_modules by scripts/copy-pdf-worker.mjs;
 * never a CDN). It is not bundled: the Remix compiler's class lowering breaks
 * pdf.js's static initialisers.
 */
const PDFJS_URL = "/pdf.min.mjs";
export const PDFJS_WORKER_URL = "/pdf.worker.min.mjs";

let loading: Promise<typeof Pdfjs> | null = null;

export function loadPdfjs(): Promise<typeof Pdfjs> {
  loading ??= (import(/* webpackIgnore: true */ /* @vite-ignore */ PDFJS_URL) as Promise<typeof Pdfjs>).then((lib) => {
    lib.GlobalWorkerOptions.workerSrc = PDFJS_WORKER_URL;
    return lib;
  });
  loading.catch(() => {
    loading = null;
  });
  return loading;
}
