import { describe, expect, it } from "vitest";
import { fold } from "#domain/shared/decider";
import { type DocumentCommand, type DocumentEvent, documentDecider, UPLOAD_DID_NOT_COMPLETE } from "./document";

const now = new Date("2026-03-01T09:00:00Z");
const registered: DocumentEvent = {
  type: "DocumentRegistered",
  data: {
    documentId: "d1",
    ownerId: "u1",
    source: "file",
    declaredType: "application/pdf",
    declaredSize: 2048,
    declaredPageCount: 1,
    settings: { ocr: false, ragType: null, embedding: null, maxDepth: null },
    personal: { name: "notes.pdf", sourceUrl: null },
    registeredAt: now.toISOString(),
  },
};
const received: DocumentEvent = {
  type: "DocumentFileReceived",
  data: { blobKey: "documents/u1/d1/source", size: 2048, kind: "pdf", contentType: "application/pdf", personal: null, receivedAt: now.toISOString() },
};
const abandon: DocumentCommand = { type: "AbandonUpload", reason: UPLOAD_DID_NOT_COMPLETE, now };
const given = (events: DocumentEvent[]) => ({ when: (command: DocumentCommand) => documentDecider.decide(command, fold(documentDecider, events)) });

describe("an upload whose file does not come", () => {
  it("fails with 'The upload did not complete' while it still waits for its file", () => {
    expect(given([registered]).when(abandon)).toEqual([
      { type: "DocumentFailed", data: { reason: "The upload did not complete", failedAt: now.toISOString() } },
    ]);
  });

  it("is left alone once its file came, once it failed, and once it was deleted", () => {
    expect(given([registered, received]).when(abandon)).toEqual([]);
    const failed = given([registered]).when(abandon);
    expect(given([registered, ...failed]).when(abandon)).toEqual([]);
    const deleted = given([registered]).when({ type: "Delete", now });
    expect(() => given([registered, ...deleted]).when(abandon)).toThrow("Document Not Found");
  });

  it("can be deleted while in progress, and counts its pages only once it is ready", () => {
    expect(given([registered, received]).when({ type: "Delete", now })[0].type).toBe("DocumentDeleted");
    const prepared: DocumentEvent[] = [
      registered,
      received,
      { type: "DocumentContextPreparationStarted", data: { startedAt: now.toISOString() } },
      { type: "DocumentTextExtracted", data: { pageCount: 7, pagesBlobKey: "documents/u1/d1/pages.json", warnings: [], extractedAt: now.toISOString() } },
    ];
    expect(fold(documentDecider, prepared)).toMatchObject({ activated: false, pageCount: 7 });
    const ready = [...prepared, ...given(prepared).when({ type: "Activate", now })];
    const deletedWhenReady = [...ready, ...given(ready).when({ type: "Delete", now })];
    expect(fold(documentDecider, deletedWhenReady)).toMatchObject({ status: "DELETED", activated: true });
  });
});
