/**
 * What the reader should know about how a document's pages were read: "3 of 23 pages were read by
 * OCR", "2 pages could not be read". Empty when every page had a good text layer.
 */
export function readingNotes(pageCount: number, pagesReadByOcr: readonly number[] = [], unreadablePages: readonly number[] = []): string[] {
  const notes: string[] = [];
  const ocr = pagesReadByOcr.length;
  if (ocr > 0) {
    notes.push(ocr === pageCount ? `${ocr === 1 ? "The page was" : `All ${ocr} pages were`} read by OCR` : `${ocr} of ${pageCount} pages ${ocr === 1 ? "was" : "were"} read by OCR`);
  }
  const unreadable = unreadablePages.length;
  if (unreadable > 0) {
    const which = unreadablePages.length <= 5 ? ` (page${unreadable === 1 ? "" : "s"} ${unreadablePages.join(", ")})` : "";
    notes.push(`${unreadable} ${unreadable === 1 ? "page" : "pages"} could not be read${which}`);
  }
  return notes;
}

/**
 * Beside a document being prepared in My Documents: which step it is in, so a long book shows more
 * than "In Progress" for the seconds (or minutes, on a busy server) it takes. Its pages are
 * the ones its browser counted until the text is read, then the ones read. A recording says how
 * far its transcription got instead (transcriptNotes).
 */
export function preparationNotes(status: string, preparation: "reading" | "indexing" | null | undefined, pageCount: number, transcribing: boolean): string[] {
  if (status !== "PREPARING_CONTEXT" || !preparation) return [];
  const pages = `${pageCount.toLocaleString("en-US")} ${pageCount === 1 ? "page" : "pages"}`;
  if (preparation === "reading") return transcribing ? [] : [pageCount > 0 ? `Reading the text of ${pages}` : "Reading the text"];
  return [`Indexing ${pages} for search`];
}
