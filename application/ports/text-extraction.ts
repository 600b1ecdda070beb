/**
 * Turning a source's bytes into text page by page (library context, ingestion).
 * Page numbers are 1-based, as people say them ("page 7").
 */

/** A rectangle in the page's coordinates scaled to a 596 × 842 page (spec 001 §2), origin top-left. */
export interface LayoutBox {
  left: number;
  top: number;
  width: number;
  height: number;
}

export interface LayoutBlock {
  id: string;
  text: string;
  box: LayoutBox;
}

export interface ExtractedPage {
  pageNumber: number;
  text: string;
  /** Layout boxes for highlights (PDFs; empty where unknown). */
  blocks: LayoutBlock[];
  /** Transcript pages (recordings, videos): the stretch of the recording the page covers, and its timed segments. */
  timeRange?: { startSeconds: number; endSeconds: number };
  segments?: { startSeconds: number; endSeconds: number; text: string }[];
}

export interface ExtractionResult {
  pages: ExtractedPage[];
  /** Things the user should know (e.g. "page 3 had no text layer; OCR was off"). */
  warnings: string[];
  /** Pages whose text came from OCR (a scan, or a text layer that was not real language). */
  pagesReadByOcr?: number[];
  /** Pages whose text could not be read at all: left empty, so nothing of them is indexed. */
  unreadablePages?: number[];
  /** What read a PDF's text layer: poppler, or pdf.js (configured, or where poppler could not read the file). */
  extractor?: "poppler" | "pdf.js";
}

export type FileKind =
  | "pdf"
  | "txt"
  | "docx"
  | "doc"
  | "pptx"
  | "ppt"
  | "xlsx"
  | "xls"
  | "jpg"
  | "png"
  | "html"
  | "audio";

/** A refusal the user can read (unsupported type, mismatched content, zip bomb, no text…). */
export class ExtractionError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = "ExtractionError";
  }
}

export interface TextExtractor {
  /** Checks that the bytes really are of the kind the name says (magic bytes) and returns the kind. */
  detectKind(bytes: Buffer, fileName: string): FileKind;
  /** Page count, computed before upload so the plan's page allowance can be checked. */
  countPages(bytes: Buffer, kind: FileKind): Promise<number>;
  extract(input: { bytes: Buffer; kind: FileKind; ocr: boolean; sourceUrl?: string }): Promise<ExtractionResult>;
}
