import { preparationNotes, readingNotes } from "#domain/library/reading-notes";
import { transcriptNotes } from "#domain/library/transcript-pages";
import type { DocumentReadModel } from "#projections/library/documents.queries";

/** What the pages need of a document (no owner id, no settings). */
export type LibraryDocument = {
  id: string;
  name: string;
  source: string;
  fileType: string;
  kind: string | null;
  size: number;
  pageCount: number;
  sourceUrl: string | null;
  status: string;
  failureReason: string | null;
  warnings: string[];
  /** How the pages were read: "3 of 23 pages were read by OCR", "2 pages could not be read". */
  readingNotes: string[];
  createdAt: string;
};

export function toLibraryDocument(d: DocumentReadModel): LibraryDocument {
  return {
    id: d.id,
    name: d.name,
    source: d.source,
    fileType: d.fileType,
    kind: d.kind,
    size: d.size,
    pageCount: d.pageCount,
    sourceUrl: d.sourceUrl,
    status: d.status,
    failureReason: d.failureReason,
    warnings: d.warnings,
    readingNotes: documentNotes(d),
    createdAt: d.createdAt,
  };
}

/** How its pages were read, and while it is prepared, which step it is in (My Documents, the document page, the API). */
export function documentNotes(d: DocumentReadModel): string[] {
  return [
    ...preparationNotes(d.status, d.preparation, d.pageCount, Boolean(d.transcription)),
    ...readingNotes(d.pageCount, d.pagesReadByOcr, d.unreadablePages),
    ...transcriptNotes(d.status, d.warnings, d.transcription),
  ];
}

/** Same rule as the server's inline download (documents.download.$id): PDF, images, text. */
export const canPreview = (d: Pick<LibraryDocument, "kind">) => d.kind === "pdf" || d.kind === "png" || d.kind === "jpg" || d.kind === "txt";

export const downloadUrl = (id: string) => `/documents/download/${encodeURIComponent(id)}?type=document`;
export const inlineUrl = (id: string) => `/documents/download/${encodeURIComponent(id)}?type=document&inline=1`;
