/**
 * PDF text and layout with pdfjs-dist (the legacy build, which runs in Node), and OCR of pages
 * that have no text layer (scans) through pdftoppm + tesseract.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { PDFDocumentProxy, PDFPageProxy } from "pdfjs-dist/legacy/build/pdf.mjs";
import type { TextItem, TextStyle } from "pdfjs-dist/types/src/display/api";
import { ExtractionError, type ExtractedPage } from "#application/ports/text-extraction";
import { dehyphenateBlocks, linesOf, pageBlocks, renderBlocks, textsOf, type Block, type Fragment, type Line } from "#infrastructure/extraction/layout";
import { ocrImage, ocrUnavailable, rasterizePdfPage, type OcrOptions } from "#infrastructure/extraction/ocr";
import { vocabularyOf, wordsAskedWhenJoining, wordsIn, type Vocabulary } from "#infrastructure/extraction/reading-text";
import { removeRunningLines, type PageLines } from "#infrastructure/extraction/running-lines";
import { judgeText } from "#infrastructure/extraction/text-quality";

type PdfJs = typeof import("pdfjs-dist/legacy/build/pdf.mjs");

const packageDir = dirname(createRequire(import.meta.url).resolve("pdfjs-dist/package.json"));

let loading: Promise<PdfJs> | undefined;

/**
 * Loads pdfjs with its worker running on the calling thread (in the app, an extraction thread:
 * see extraction-pool.ts): registering the worker module on globalThis is pdfjs's documented
 * way to skip spawning a worker (no worker URL to resolve, nothing fetched).
 */
function loadPdfJs(): Promise<PdfJs> {
  loading ??= (async () => {
    const engines = { push: Array.prototype.push, stringify: JSON.stringify, parse: JSON.parse };
    const worker = await import("pdfjs-dist/legacy/build/pdf.worker.mjs");
    (globalThis as { pdfjsWorker?: unknown }).pdfjsWorker = worker;
    const pdfjs = await import("pdfjs-dist/legacy/build/pdf.mjs");
    // The legacy build's core-js replaces these three for the whole thread, for engine quirks and
    // proposals pdfjs does not use (non-writable array lengths, JSON.rawJSON, JSON.parse's source
    // text): its push and JSON run several times slower (JSON ~50x), so the engine's own go back.
    Object.defineProperty(Array.prototype, "push", { value: engines.push, writable: true, configurable: true, enumerable: false });
    JSON.stringify = engines.stringify;
    JSON.parse = engines.parse;
    return pdfjs;
  })();
  return loading;
}

async function openPdf(bytes: Buffer): Promise<PDFDocumentProxy> {
  const pdfjs = await loadPdfJs();
  const task = pdfjs.getDocument({
    // pdfjs may detach the buffer it is given; hand it a copy so the caller's bytes stay usable.
    data: new Uint8Array(bytes),
    // Local data files, so CJK text (CMaps) and the 14 standard fonts decode without a network.
    cMapUrl: join(packageDir, "cmaps") + "/",
    cMapPacked: true,
    standardFontDataUrl: join(packageDir, "standard_fonts") + "/",
    wasmUrl: join(packageDir, "wasm") + "/",
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    verbosity: 0,
  });
  try {
    return await task.promise;
  } catch (error) {
    const name = error instanceof Error ? error.name : "";
    if (name === "PasswordException") {
      throw new ExtractionError("PASSWORD_PROTECTED", "This PDF is protected by a password. Remove the password and upload it again.");
    }
    throw new ExtractionError("DAMAGED_FILE", "This PDF is damaged or incomplete and could not be opened.");
  }
}

export async function countPdfPages(bytes: Buffer): Promise<number> {
  const pdf = await openPdf(bytes);
  try {
    return pdf.numPages;
  } finally {
    await pdf.destroy();
  }
}

const isTextItem = (item: object): item is TextItem => "str" in item && "transform" in item;

/** Maps one pdfjs text item (PDF user space, origin bottom-left) to a box on the displayed page. */
function toFragment(item: TextItem, style: TextStyle | undefined, viewport: number[]): Fragment | undefined {
  const [a, b, c, d, e, f] = item.transform as number[];
  const size = Math.hypot(c, d) || Math.hypot(a, b);
  if (size === 0) return undefined;
  const ux = Math.hypot(a, b) === 0 ? [1, 0] : [a / Math.hypot(a, b), b / Math.hypot(a, b)];
  const uy = Math.hypot(c, d) === 0 ? [0, 1] : [c / Math.hypot(c, d), d / Math.hypot(c, d)];
  const ascent = style?.ascent && style.ascent > 0 ? style.ascent : 0.8;
  const descent = style?.descent && style.descent < 0 ? style.descent : -0.2;
  // Glyph box in text space: along the baseline for `width`, from descent to ascent across it.
  // Vertical fonts advance downwards instead, centred on the origin.
  const corners: [number, number][] = style?.vertical
    ? [[-size / 2, -item.height], [size / 2, -item.height], [-size / 2, 0], [size / 2, 0]]
    : [[0, descent * size], [item.width, descent * size], [0, ascent * size], [item.width, ascent * size]];
  const [va, vb, vc, vd, ve, vf] = viewport;
  const points = corners.map(([x, y]) => {
    const px = e + ux[0] * x + uy[0] * y;
    const py = f + ux[1] * x + uy[1] * y;
    return [va * px + vc * py + ve, vb * px + vd * py + vf];
  });
  const xs = points.map((p) => p[0]);
  const ys = points.map((p) => p[1]);
  // The baseline direction on the displayed page decides whether the text reads across.
  const dx = va * ux[0] + vc * ux[1];
  const dy = vb * ux[0] + vd * ux[1];
  const scale = Math.hypot(va, vb) || 1;
  return {
    text: item.str,
    left: Math.min(...xs),
    top: Math.min(...ys),
    right: Math.max(...xs),
    bottom: Math.max(...ys),
    size: size * scale,
    horizontal: !style?.vertical && Math.abs(dy) < 0.2 * Math.abs(dx) && dx > 0,
    rtl: item.dir === "rtl",
  };
}

/** One page's text blocks in reading order, before anything is judged across pages. */
export interface PageLayout extends PageLines {
  width: number;
}

async function layoutOf(page: PDFPageProxy): Promise<PageLayout> {
  const viewport = page.getViewport({ scale: 1 });
  const content = await page.getTextContent();
  const fragments: Fragment[] = [];
  for (const item of content.items) {
    if (!isTextItem(item)) continue;
    const fragment = toFragment(item, content.styles[item.fontName], viewport.transform);
    if (fragment) fragments.push(fragment);
  }
  return { blocks: pageBlocks(fragments), width: viewport.width, height: viewport.height };
}

/** Every page's blocks, in page order (a loop: see linesOf). */
function blocksOf(layouts: readonly PageLayout[]): Block[] {
  const blocks: Block[] = [];
  for (const layout of layouts) for (const block of layout.blocks) blocks.push(block);
  return blocks;
}

/**
 * The document's own words, without the parts of words broken at line ends. Only the words the
 * line-end hyphens ask about are looked for, and only when one asks (most documents have none).
 */
function documentVocabulary(lines: readonly Line[]): Vocabulary {
  let asked: Set<string> | undefined;
  let found: Set<string> | undefined;
  let all: Set<string> | undefined;
  return (word) => {
    asked ??= wordsAskedWhenJoining(textsOf(lines));
    if (asked.has(word)) return (found ??= wordsIn(wordsInside(lines), asked)).has(word);
    // A line changed by the join before it can ask about another word.
    return (all ??= vocabularyOf([wordsInside(lines).join("\n")])).has(word);
  };
}

/**
 * Each line's text but its first word, which may end a word from the line before, and the last
 * when it ends in a hyphen, which continues on the next.
 */
function wordsInside(lines: readonly Line[]): string[] {
  const inside: string[] = [];
  for (const { text } of lines) {
    const start = text.indexOf(" ");
    if (start < 0) continue;
    inside.push(text.slice(start + 1, text.endsWith("-") ? Math.max(start, text.lastIndexOf(" ")) : text.length));
  }
  return inside;
}

export interface PdfExtractionOptions {
  ocr: boolean;
  ocrOptions: OcrOptions;
  rasterizeCommand: string;
  tempDir: string;
  /** Render resolution for OCR: 150 dpi reads body text well at a quarter of 300 dpi's cost. */
  dpi?: number;
}

export interface PdfExtraction {
  pages: ExtractedPage[];
  warnings: string[];
  pagesReadByOcr: number[];
  unreadablePages: number[];
  /** Running header, footer and page-number lines kept out of each page's text. */
  runningLinesRemoved: number;
}

/**
 * Reads the layout of the pages `nextPage` hands out, opening the document once. Several
 * threads read one document together by sharing what `nextPage` hands out; the page count is
 * known once the document is open.
 */
export async function readPdfPages(
  bytes: Buffer,
  nextPage: (pageCount: number) => number | undefined,
): Promise<{ pageNumber: number; layout: PageLayout }[]> {
  const pdf = await openPdf(bytes);
  const read: { pageNumber: number; layout: PageLayout }[] = [];
  try {
    for (let pageNumber = nextPage(pdf.numPages); pageNumber !== undefined; pageNumber = nextPage(pdf.numPages)) {
      const page = await pdf.getPage(pageNumber);
      read.push({ pageNumber, layout: await layoutOf(page) });
      page.cleanup();
    }
  } finally {
    await pdf.destroy();
  }
  return read;
}

export async function extractPdf(bytes: Buffer, options: PdfExtractionOptions): Promise<PdfExtraction> {
  let read = 0;
  const pages = await readPdfPages(bytes, (pageCount) => (read < pageCount ? ++read : undefined));
  return finishPdf(bytes, pages.map((page) => page.layout), options);
}

/**
 * What is judged across the whole document, once every page's layout is read (in order):
 * running heads and page numbers, words broken at line ends, pages without a text layer or
 * with one that is not language (OCR'd), and the text and boxes of each page.
 */
export async function finishPdf(bytes: Buffer, layouts: PageLayout[], options: PdfExtractionOptions): Promise<PdfExtraction> {
  // Judged before running lines go: a page holding only a running head has a text layer.
  // Loops, not closures made for each document: V8 drops a closure's optimized code with the
  // closure, and compiled these again for every document (decision 225).
  const empty: number[] = [];
  for (let index = 0; index < layouts.length; index++) if (layouts[index].blocks.length === 0) empty.push(index + 1);
  let runningLinesRemoved = 0;
  for (const removed of removeRunningLines(layouts)) runningLinesRemoved += removed;
  const blocks = blocksOf(layouts);
  dehyphenateBlocks(blocks, documentVocabulary(linesOf(blocks)));
  const pages: ExtractedPage[] = [];
  for (let index = 0; index < layouts.length; index++) {
    const layout = layouts[index];
    const { text, blocks } = renderBlocks(layout.blocks, layout.width, layout.height, `p${index + 1}`);
    pages.push({ pageNumber: index + 1, text, blocks });
  }

  const warnings: string[] = [];
  // A text layer that is not language is OCR'd whatever the switch says: the switch is about
  // scans, and garbage must never be indexed as if it were text.
  const garbled: number[] = [];
  for (const page of pages) if (page.text.trim() !== "" && !judgeText(page.text).readable) garbled.push(page.pageNumber);
  const needsOcr = [...(options.ocr ? empty : []), ...garbled].sort((a, b) => a - b);
  const pagesReadByOcr: number[] = [];
  const unreadablePages: number[] = [];
  const markUnreadable = (pageNumber: number) => {
    pages[pageNumber - 1] = { pageNumber, text: "", blocks: [] };
    unreadablePages.push(pageNumber);
  };

  if (empty.length > 0 && !options.ocr) {
    warnings.push(
      empty.length === pages.length
        ? "No page has a text layer (the PDF looks scanned) and OCR was off."
        : `${describePages(empty)} had no text layer and OCR was off, so ${empty.length === 1 ? "it is" : "they are"} empty.`,
    );
  }
  if (needsOcr.length > 0) {
    const dir = await mkdtemp(join(options.tempDir, "pdf-ocr-"));
    try {
      const pdfPath = join(dir, "input.pdf");
      await writeFile(pdfPath, bytes);
      const dpi = options.dpi ?? 150;
      for (const [i, pageNumber] of needsOcr.entries()) {
        let result: { text: string; blocks: ExtractedPage["blocks"] };
        try {
          const image = await rasterizePdfPage(options.rasterizeCommand, pdfPath, pageNumber, join(dir, `page-${pageNumber}`), dpi, options.ocrOptions.timeoutMs);
          result = await ocrImage(image, options.ocrOptions, `p${pageNumber}`, dpi);
          await rm(image, { force: true });
        } catch (error) {
          if (!(error instanceof ExtractionError) || error.code !== "OCR_UNAVAILABLE") throw error;
          const rest = needsOcr.slice(i);
          const restEmpty = rest.filter((n) => empty.includes(n));
          const restGarbled = rest.filter((n) => garbled.includes(n));
          restGarbled.forEach(markUnreadable);
          // Without OCR tools a document with some real text is still worth keeping; one with none is not.
          if (!pages.some((p) => p.text.trim() !== "")) {
            throw new ExtractionError(
              restGarbled.length > 0 ? "UNREADABLE" : "OCR_UNAVAILABLE",
              restGarbled.length > 0
                ? "The text in this PDF cannot be read (its fonts carry no usable text), and OCR is not available on this server to read the pages as images."
                : ocrUnavailable().message,
            );
          }
          if (restEmpty.length > 0) warnings.push(`${describePages(restEmpty)} had no text layer and OCR is not available on this server, so ${restEmpty.length === 1 ? "it is" : "they are"} empty.`);
          if (restGarbled.length > 0) warnings.push(`${describePages(restGarbled)} had text that is not readable and OCR is not available on this server, so ${restGarbled.length === 1 ? "it was" : "they were"} left out.`);
          break;
        }
        if (result.text.trim() === "") {
          if (garbled.includes(pageNumber)) markUnreadable(pageNumber);
          else warnings.push(`Page ${pageNumber} had no text layer and OCR found no text on it.`);
          continue;
        }
        if (!judgeText(result.text).readable) {
          markUnreadable(pageNumber);
          continue;
        }
        pages[pageNumber - 1] = { pageNumber, text: result.text, blocks: result.blocks };
        pagesReadByOcr.push(pageNumber);
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
  if (!pages.some((p) => p.text.trim() !== "") && unreadablePages.length === 0) {
    throw new ExtractionError("NO_TEXT", noTextReason(empty.length, pages.length, options.ocr));
  }
  return { pages, warnings, pagesReadByOcr, unreadablePages: unreadablePages.sort((a, b) => a - b), runningLinesRemoved };
}

/** Why a PDF gave no text, in words that say what would help (and do not suggest OCR where it already ran). */
function noTextReason(pagesWithoutLayer: number, pageCount: number, ocr: boolean): string {
  if (pagesWithoutLayer > 0 && !ocr) return "This PDF has no text layer (it looks scanned) and OCR was off. Turn on OCR and upload it again.";
  if (pagesWithoutLayer === pageCount) return "This PDF has no text layer, and OCR found no text on its pages. Check that the scan is sharp and its text large enough.";
  // Text layers that hold only spaces or invisible characters: neither OCR nor a new upload would change them.
  return "This PDF's text layer holds no readable text.";
}

function describePages(pageNumbers: number[]): string {
  if (pageNumbers.length === 1) return `Page ${pageNumbers[0]}`;
  const shown = pageNumbers.slice(0, 10).join(", ");
  return `Pages ${shown}${pageNumbers.length > 10 ? ` and ${pageNumbers.length - 10} more` : ""}`;
}
