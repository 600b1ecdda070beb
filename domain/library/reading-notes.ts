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
