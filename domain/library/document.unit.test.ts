import { describe, expect, it } from "vitest";
import { DeciderSpecification } from "#domain/shared/decider-specification";
import { type DocumentCommand, documentDecider, UPLOAD_DID_NOT_COMPLETE } from "./document";

const now = new Date("2026-03-01T09:00:00Z");
const spec = DeciderSpecification.for(documentDecider);
const register: DocumentCommand = {
  type: "RegisterDocument",
  documentId: "d1",
  ownerId: "u1",
  source: "file",
  name: "notes.pdf",
  sourceUrl: null,
  declaredType: "application/pdf",
  declaredSize: 2048,
  declaredPageCount: 1,
  settings: { ocr: false, ragType: null, embedding: null, maxDepth: null },
  now,
};
const receive: DocumentCommand = { type: "ReceiveFile", blobKey: "documents/u1/d1/source", size: 2048, kind: "pdf", contentType: "application/pdf", now };
const prepare: DocumentCommand[] = [
  { type: "StartContextPreparation", now },
  { type: "RecordTextExtracted", pageCount: 7, pagesBlobKey: "documents/u1/d1/pages.json", warnings: [], now },
];
const abandon: DocumentCommand = { type: "AbandonUpload", reason: UPLOAD_DID_NOT_COMPLETE, now };
const remove: DocumentCommand = { type: "Delete", now };

describe("an upload whose file does not come", () => {
  it("fails with 'The upload did not complete' while it still waits for its file", () => {
    spec
      .given(spec.history([register]))
      .when(abandon)
      .then([{ type: "DocumentFailed", data: { reason: "The upload did not complete", failedAt: now.toISOString() } }]);
  });

  it("is left alone once its file came, or once it failed", () => {
    spec.given(spec.history([register, receive])).when(abandon).thenNothing();
    spec.given(spec.history([register, abandon])).when(abandon).thenNothing();
  });

  it("is not found once deleted", () => {
    spec.given(spec.history([register, remove])).when(abandon).thenThrows("DOCUMENT_NOT_FOUND");
  });
});

describe("a document in progress", () => {
  it("can be deleted", () => {
    spec.given(spec.history([register, receive, ...prepare])).when(remove).then((events) => expect(events.map((e) => e.type)).toEqual(["DocumentDeleted"]));
  });

  it("counts its measured pages for good only once it is ready, even if deleted later", () => {
    expect(spec.given(spec.history([register, receive, ...prepare])).state()).toMatchObject({ activated: false, pageCount: 7 });
    const deletedWhenReady = spec.history([register, receive, ...prepare, { type: "Activate", now }, remove]);
    expect(spec.given(deletedWhenReady).state()).toMatchObject({ status: "DELETED", activated: true });
  });
});

describe("a recording being transcribed", () => {
  const progress = (secondsDone: number): DocumentCommand => ({ type: "RecordTranscriptionProgress", secondsDone, secondsTotal: 900, now });
  const started = spec.history([register, receive, { type: "StartContextPreparation", now }]);

  it("records how far the transcription got after each piece", () => {
    spec
      .given(started)
      .when(progress(300))
      .then([{ type: "DocumentTranscriptionProgressed", data: { secondsDone: 300, secondsTotal: 900, progressedAt: now.toISOString() } }]);
  });

  it("records nothing for a piece a retried step reports again, nor once its text is extracted", () => {
    spec.given(spec.history([register, receive, { type: "StartContextPreparation", now }, progress(300)])).when(progress(300)).thenNothing();
    spec.given(spec.history([register, receive, ...prepare])).when(progress(600)).thenNothing();
  });
});
