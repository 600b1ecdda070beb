import { afterEach, describe, expect, it } from "vitest";
import { DeciderSpecification } from "#domain/shared/decider-specification";
import { type DocumentCommand, documentDecider } from "#domain/library/document";
import { projectorHarness } from "#projections/testing/projector-harness";
import { DOCUMENTS, type DocumentReadModel, documentsProjector } from "./documents.projector";

const now = new Date("2026-05-01T12:00:00Z");
const history = (commands: DocumentCommand[]) => DeciderSpecification.for(documentDecider).history(commands);

const register: DocumentCommand = {
  type: "RegisterDocument",
  documentId: "d1",
  ownerId: "alice",
  source: "file",
  name: "Tides.PDF",
  sourceUrl: null,
  declaredType: "application/pdf",
  declaredSize: 1200,
  declaredPageCount: 4,
  settings: { ocr: false, ragType: null, embedding: null, maxDepth: null },
  now,
};
const receive: DocumentCommand = { type: "ReceiveFile", blobKey: "documents/alice/d1/source", size: 1234, kind: "pdf", contentType: "application/pdf", now };

let harness: Awaited<ReturnType<typeof projectorHarness>>;
afterEach(() => harness?.close());

const document = () => harness.store.collection<DocumentReadModel>(DOCUMENTS).get("d1");

describe("the documents read model", () => {
  // Pages counted against the allowance are not a read model: they live on the allowance stream (docs/decisions/090).
  it("shows a registered document as uploading, with the page count its browser declared", async () => {
    harness = await projectorHarness(documentsProjector);
    await harness.record("document-d1", history([register]));
    expect(await document()).toMatchObject({ ownerId: "alice", name: "Tides.PDF", nameLower: "tides.pdf", status: "UPLOADING", pageCount: 4 });
  });

  it("follows ingestion to Active, with the measured pages replacing the declared ones", async () => {
    harness = await projectorHarness(documentsProjector);
    await harness.record(
      "document-d1",
      history([
        register,
        receive,
        { type: "StartContextPreparation", now },
        { type: "RecordTextExtracted", pageCount: 3, pagesBlobKey: "documents/alice/d1/pages.json", warnings: ["page 2 was scanned"], now },
        { type: "RecordIndexed", chunkCount: 7, now },
        { type: "Activate", now },
      ]),
    );
    expect(await document()).toMatchObject({ status: "ACTIVE", kind: "pdf", size: 1234, pageCount: 3, chunkCount: 7, warnings: ["page 2 was scanned"] });
  });

  it("keeps which step a document being prepared is in: its text read, then its pages indexed, then none once ready", async () => {
    harness = await projectorHarness(documentsProjector);
    const steps: DocumentCommand[] = [register, receive, { type: "StartContextPreparation", now }];
    const events = () => history(steps).slice(harnessed);
    let harnessed = 0;
    const take = async () => {
      const recorded = await harness.record("document-d1", events());
      harnessed += recorded.length;
      return document();
    };
    expect(await take()).toMatchObject({ status: "PREPARING_CONTEXT", preparation: "reading" });
    steps.push({ type: "RecordTextExtracted", pageCount: 3, pagesBlobKey: "k", warnings: [], now });
    expect(await take()).toMatchObject({ status: "PREPARING_CONTEXT", preparation: "indexing", pageCount: 3 });
    steps.push({ type: "RecordIndexed", chunkCount: 7, now }, { type: "Activate", now });
    expect(await take()).toMatchObject({ status: "ACTIVE", preparation: null });
  });

  it("changes nothing when an event is delivered twice", async () => {
    harness = await projectorHarness(documentsProjector);
    const recorded = await harness.record("document-d1", history([register, receive, { type: "StartContextPreparation", now }]));
    const once = await document();
    await harness.redeliver(recorded);
    expect(await document()).toEqual(once);
  });

  it("shows a failed upload with its reason, and forgets a deleted document", async () => {
    harness = await projectorHarness(documentsProjector);
    await harness.record("document-d1", history([register, { type: "Fail", reason: "The file could not be read.", now }]));
    expect(await document()).toMatchObject({ status: "FAILED", failureReason: "The file could not be read." });

    const kept = { ...register, documentId: "d2" };
    await harness.record("document-d2", history([kept, receive, { type: "StartContextPreparation", now }, { type: "RecordTextExtracted", pageCount: 2, pagesBlobKey: "k", warnings: [], now }, { type: "RecordIndexed", chunkCount: 1, now }, { type: "Activate", now }, { type: "Delete", now }]));
    expect(await harness.store.collection<DocumentReadModel>(DOCUMENTS).get("d2")).toBeNull();
  });

  it("keeps nothing of an owner whose account was purged", async () => {
    harness = await projectorHarness(documentsProjector);
    await harness.record("document-d1", history([register]));
    await harness.record("user-alice", [{ type: "AccountPurged", data: { purgedAt: now.toISOString() } }]);
    expect(await document()).toBeNull();
  });
});
