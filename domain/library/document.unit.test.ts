import { describe, expect, it } from "vitest";
import { fold } from "#domain/shared/decider";
import { type DocumentCommand, type DocumentEvent, documentDecider, readingNotes } from "./document";

const now = new Date("2026-01-01T10:00:00Z");
const registered: DocumentEvent = {
  type: "DocumentRegistered",
  data: {
    documentId: "d1",
    ownerId: "alice",
    source: "file",
    declaredType: "application/pdf",
    declaredSize: 1000,
    declaredPageCount: 23,
    settings: { ocr: false, ragType: null, embedding: null, maxDepth: null },
    personal: { name: "review.pdf", sourceUrl: null },
    registeredAt: now.toISOString(),
  },
};
const preparing: DocumentEvent[] = [
  registered,
  { type: "DocumentFileReceived", data: { blobKey: "b", size: 1000, kind: "pdf", contentType: "application/pdf", personal: null, receivedAt: now.toISOString() } },
  { type: "DocumentContextPreparationStarted", data: { startedAt: now.toISOString() } },
];
const given = (events: DocumentEvent[]) => fold(documentDecider, events);

describe("recording how a document's pages were read", () => {
  it("records the pages read by OCR and the pages that could not be read", () => {
    const command: DocumentCommand = {
      type: "RecordTextExtracted",
      pageCount: 23,
      pagesBlobKey: "pages",
      warnings: [],
      pagesReadByOcr: [4, 5, 6],
      unreadablePages: [22, 23],
      now,
    };
    expect(documentDecider.decide(command, given(preparing))).toEqual([
      {
        type: "DocumentTextExtracted",
        data: { pageCount: 23, pagesBlobKey: "pages", warnings: [], extractedAt: now.toISOString(), pagesReadByOcr: [4, 5, 6], unreadablePages: [22, 23] },
      },
    ]);
  });

  it("still reads text extractions recorded before pages were counted", () => {
    const old: DocumentEvent = { type: "DocumentTextExtracted", data: { pageCount: 3, pagesBlobKey: "pages", warnings: [], extractedAt: now.toISOString() } };
    const state = given([...preparing, old]);
    expect(state).toMatchObject({ exists: true, pageCount: 3, pagesBlobKey: "pages" });
  });

  it("says what happened in the reader's words", () => {
    expect(readingNotes(23, [4, 5, 6], [22, 23])).toEqual(["3 of 23 pages were read by OCR", "2 pages could not be read (pages 22, 23)"]);
    expect(readingNotes(1, [1], [])).toEqual(["The page was read by OCR"]);
    expect(readingNotes(2, [1, 2], [])).toEqual(["All 2 pages were read by OCR"]);
    expect(readingNotes(23, [], [7])).toEqual(["1 page could not be read (page 7)"]);
    expect(readingNotes(40, [1], [1, 2, 3, 4, 5, 6])).toEqual(["1 of 40 pages was read by OCR", "6 pages could not be read"]);
    expect(readingNotes(10)).toEqual([]);
  });
});
