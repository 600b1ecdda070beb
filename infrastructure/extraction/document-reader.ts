/**
 * Reading a document in the calling thread: counts pages and extracts text page by page with the
 * reader for each format (OCR and PDF rasterizing run the Debian tesseract and poppler commands).
 * In the app this runs in an extraction thread (extraction-thread.ts); the TextExtractor the
 * rest of the app sees is text-extractor.ts.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  ExtractionError,
  type ExtractedPage,
  type ExtractionResult,
  type FileKind,
} from "#application/ports/text-extraction";
import { decodeText } from "#infrastructure/extraction/detect-kind";
import { htmlToText } from "#infrastructure/extraction/html";
import { ocrImage, type OcrOptions } from "#infrastructure/extraction/ocr";
import { countPdfPages, extractPdf, finishPdf, type PdfExtractionOptions, type PageLayout } from "#infrastructure/extraction/pdf";
import { countPdfPagesWithPoppler, PopplerFailed, readPdfLayoutsWithPoppler, type PopplerOptions } from "#infrastructure/extraction/poppler";
import { splitTextIntoPages } from "#infrastructure/extraction/page-rules";
import { DEFAULT_ARCHIVE_LIMITS, type ArchiveLimits } from "#infrastructure/extraction/zip-archive";

export interface TextExtractorOptions {
  /** The tesseract executable (default "tesseract" on PATH). */
  ocrCommand?: string;
  /** Tesseract languages, e.g. "eng" or "eng+deu" (default "eng"). */
  ocrLanguages?: string;
  /** poppler's pdftoppm, to render scanned PDF pages for OCR (default "pdftoppm"). */
  rasterizeCommand?: string;
  /** LibreOffice, to convert DOC/PPT/XLS (default "soffice"; absent means those are refused). */
  officeCommand?: string;
  /** Where page images and converted files live briefly (default the OS temp directory). */
  tempDir?: string;
  /** Limit on the real uncompressed size of DOCX/PPTX/XLSX archives (default 200 MiB). */
  maxUncompressedBytes?: number;
  /** Limit on the number of entries in those archives (default 10 000). */
  maxArchiveEntries?: number;
  /** Per external command (one page's OCR, one conversion), default 2 minutes. */
  commandTimeoutMs?: number;
  /** What reads PDF text and layout: poppler's pdftohtml (default), falling back to pdf.js, or pdf.js alone (decision 212). */
  pdfExtractor?: "pdfjs" | "poppler";
  /** Address space of each poppler process, in MiB (default 1024). */
  popplerMemoryMb?: number;
  /** Where pdftohtml and pdfinfo are (default: on PATH). */
  popplerBinDir?: string;
}

// The office readers (mammoth, ExcelJS) load when an office document comes, so a thread that
// only reads PDFs starts sooner.
const office = () => import("#infrastructure/extraction/office");
const spreadsheet = () => import("#infrastructure/extraction/spreadsheet");

const textOf = (bytes: Buffer, kind: FileKind): string => {
  const text = decodeText(bytes);
  if (text === undefined) throw new ExtractionError("TYPE_MISMATCH", `This file is not ${kind === "html" ? "a web page" : "a text file"}.`);
  // The UTF-8 decoder keeps a byte order mark as U+FEFF; it is not text.
  return text.replace(/^\uFEFF/, "");
};

function htmlPages(bytes: Buffer): string[] {
  const { title, text } = htmlToText(textOf(bytes, "html"));
  // The title names the page in search results; keep it unless the body already starts with it.
  const full = title && !text.startsWith(title) ? `${title}\n\n${text}` : text;
  return splitTextIntoPages(full);
}

const plainPages = (texts: string[]): ExtractedPage[] =>
  texts.map((text, index) => ({ pageNumber: index + 1, text, blocks: [] }));

export class DocumentReader {
  private readonly limits: ArchiveLimits;
  private readonly ocrOptions: OcrOptions;
  private readonly rasterizeCommand: string;
  private readonly officeCommand: string;
  private readonly tempDir: string;
  private readonly timeoutMs: number;
  private readonly poppler?: PopplerOptions;

  constructor(options: TextExtractorOptions = {}) {
    this.limits = {
      maxUncompressedBytes: options.maxUncompressedBytes ?? DEFAULT_ARCHIVE_LIMITS.maxUncompressedBytes,
      maxEntries: options.maxArchiveEntries ?? DEFAULT_ARCHIVE_LIMITS.maxEntries,
    };
    this.timeoutMs = options.commandTimeoutMs ?? 120_000;
    this.ocrOptions = { command: options.ocrCommand ?? "tesseract", languages: options.ocrLanguages ?? "eng", timeoutMs: this.timeoutMs };
    this.rasterizeCommand = options.rasterizeCommand ?? "pdftoppm";
    this.officeCommand = options.officeCommand ?? "soffice";
    this.tempDir = options.tempDir ?? tmpdir();
    if (options.pdfExtractor !== "pdfjs") this.poppler = { tempDir: this.tempDir, timeoutMs: this.timeoutMs, memoryMb: options.popplerMemoryMb, binDir: options.popplerBinDir };
  }

  async countPages(bytes: Buffer, kind: FileKind): Promise<number> {
    switch (kind) {
      case "pdf":
        if (this.poppler) {
          const counted = await countPdfPagesWithPoppler(bytes, this.poppler).catch((error: unknown) => {
            if (error instanceof PopplerFailed) return undefined;
            throw error;
          });
          if (counted !== undefined) return counted;
        }
        return countPdfPages(bytes);
      case "txt":
        return splitTextIntoPages(textOf(bytes, kind)).length;
      case "html":
        return htmlPages(bytes).length;
      case "docx":
        return (await (await office()).extractDocxPages(bytes, this.limits)).length;
      case "pptx":
        return (await office()).countPptxSlides(bytes, this.limits);
      case "xlsx":
        return (await spreadsheet()).countXlsxSheets(bytes, this.limits);
      case "jpg":
      case "png":
        return 1;
      case "doc":
      case "ppt":
      case "xls": {
        const converted = await (await office()).convertLegacyOffice(bytes, kind, this.officeCommand, this.tempDir, this.timeoutMs);
        return this.countPages(converted.bytes, converted.kind);
      }
      case "audio":
        throw audioUnsupported();
    }
  }

  async extract(input: { bytes: Buffer; kind: FileKind; ocr: boolean }): Promise<ExtractionResult> {
    return refuseEmpty(await this.extractPages(input.bytes, input.kind, input.ocr), input.kind);
  }

  /** A PDF whose pages' layouts were read (by one thread or several): the rest of its extraction. */
  async finishPdf(bytes: Buffer, layouts: PageLayout[], ocr: boolean): Promise<ExtractionResult> {
    return refuseEmpty({ ...(await finishPdf(bytes, layouts, this.pdfOptions(ocr))), extractor: "pdf.js" }, "pdf");
  }

  private async extractPages(bytes: Buffer, kind: FileKind, ocr: boolean): Promise<ExtractionResult> {
    switch (kind) {
      case "pdf":
        return this.extractPdf(bytes, ocr);
      case "txt":
        return { pages: plainPages(splitTextIntoPages(textOf(bytes, kind))), warnings: [] };
      case "html":
        return { pages: plainPages(htmlPages(bytes)), warnings: [] };
      case "docx":
        return { pages: plainPages(await (await office()).extractDocxPages(bytes, this.limits)), warnings: [] };
      case "pptx":
        return { pages: plainPages(await (await office()).extractPptxPages(bytes, this.limits)), warnings: [] };
      case "xlsx": {
        const { pages, warnings } = await (await spreadsheet()).extractXlsxPages(bytes, this.limits);
        return { pages: plainPages(pages), warnings };
      }
      case "jpg":
      case "png":
        // An image has no text without OCR, so it is always OCR'd whatever the flag says.
        return { pages: [await this.ocrImageBytes(bytes, kind)], warnings: [], pagesReadByOcr: [1] };
      case "doc":
      case "ppt":
      case "xls": {
        const converted = await (await office()).convertLegacyOffice(bytes, kind, this.officeCommand, this.tempDir, this.timeoutMs);
        return this.extractPages(converted.bytes, converted.kind, ocr);
      }
      case "audio":
        throw audioUnsupported();
    }
  }

  /** Through poppler when configured; pdf.js when not, or when poppler cannot read the file (pdf.js then names a damaged or locked file). */
  private async extractPdf(bytes: Buffer, ocr: boolean): Promise<ExtractionResult> {
    if (this.poppler) {
      const layouts = await readPdfLayoutsWithPoppler(bytes, this.poppler).catch((error: unknown) => {
        if (error instanceof PopplerFailed) return undefined;
        throw error;
      });
      if (layouts) return { ...(await finishPdf(bytes, layouts, this.pdfOptions(ocr))), extractor: "poppler" };
    }
    return { ...(await extractPdf(bytes, this.pdfOptions(ocr))), extractor: "pdf.js" };
  }

  private pdfOptions(ocr: boolean): PdfExtractionOptions {
    return { ocr, ocrOptions: this.ocrOptions, rasterizeCommand: this.rasterizeCommand, tempDir: this.tempDir };
  }

  private async ocrImageBytes(bytes: Buffer, kind: "jpg" | "png"): Promise<ExtractedPage> {
    const dir = await mkdtemp(join(this.tempDir, "image-ocr-"));
    try {
      const path = join(dir, `image.${kind}`);
      await writeFile(path, bytes);
      const { text, blocks } = await ocrImage(path, this.ocrOptions, "p1");
      return { pageNumber: 1, text, blocks };
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
}

function refuseEmpty(result: ExtractionResult, kind: FileKind): ExtractionResult {
  if (result.pages.every((page) => page.text.trim() === "")) {
    // Images and OCR'd scans that came back empty are not helped by turning OCR on.
    if (kind === "jpg" || kind === "png") {
      throw new ExtractionError("NO_TEXT", "No text could be read from this image. Check that the text is sharp and large enough.");
    }
    if ((result.unreadablePages ?? []).length > 0) {
      throw new ExtractionError("UNREADABLE", "The text in this document cannot be read, not even by OCR: its fonts carry no usable text.");
    }
    // A PDF without text is refused by finishPdf, which knows why; other formats hold text or
    // nothing, and OCR would not change that.
    throw new ExtractionError("NO_TEXT", "This document contains no text.");
  }
  return result;
}

const audioUnsupported = () =>
  new ExtractionError("UNSUPPORTED", "Audio is transcribed, not read as text; upload it as a recording instead.");

