import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { DocumentReadModel } from "#projections/library/documents.projector";
import { toLibraryDocument } from "./document-view";
import { ReadingNotes } from "./reading-notes";

const stored: DocumentReadModel = {
  id: "d1",
  ownerId: "alice",
  name: "review.pdf",
  nameLower: "review.pdf",
  source: "file",
  fileType: "application/pdf",
  kind: "pdf",
  size: 1000,
  pageCount: 23,
  sourceUrl: null,
  status: "ACTIVE",
  failureReason: null,
  warnings: [],
  pagesReadByOcr: [4, 5, 6],
  unreadablePages: [22, 23],
  settings: { ocr: false, ragType: null, embedding: null, maxDepth: null },
  chunkCount: 40,
  createdAt: "2026-01-01T10:00:00Z",
  updatedAt: "2026-01-01T10:00:00Z",
};

describe("how a document's pages were read, in My Documents", () => {
  it("says how many pages OCR read and how many could not be read", () => {
    const html = renderToStaticMarkup(<ReadingNotes notes={toLibraryDocument(stored).readingNotes} />);
    expect(html).toContain("3 of 23 pages were read by OCR · 2 pages could not be read (pages 22, 23)");
  });

  it("says which step a document being prepared is in: reading its pages, then indexing them", () => {
    const preparing: DocumentReadModel = { ...stored, status: "PREPARING_CONTEXT", pagesReadByOcr: [], unreadablePages: [], pageCount: 2000 };
    expect(toLibraryDocument({ ...preparing, preparation: "reading" }).readingNotes).toEqual(["Reading the text of 2,000 pages"]);
    expect(toLibraryDocument({ ...preparing, preparation: "indexing", pageCount: 1998 }).readingNotes).toEqual(["Indexing 1,998 pages for search"]);
    // A recording says how far its transcription got instead.
    const recording: DocumentReadModel = { ...preparing, kind: "audio", preparation: "reading", transcription: { secondsDone: 60, secondsTotal: 240 } };
    expect(toLibraryDocument(recording).readingNotes).toEqual(["Transcribing: 1:00 of 4:00 (25 %)"]);
    // Ready: no step, whatever the row still says.
    expect(toLibraryDocument({ ...stored, preparation: "indexing" }).readingNotes).toEqual(toLibraryDocument(stored).readingNotes);
  });

  it("says nothing for a document read from its text layer, or stored before pages were counted", () => {
    const { pagesReadByOcr: _ocr, unreadablePages: _unreadable, ...older } = stored;
    expect(toLibraryDocument(older).readingNotes).toEqual([]);
    expect(renderToStaticMarkup(<ReadingNotes notes={[]} />)).toBe("");
  });
});
