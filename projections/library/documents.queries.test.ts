import { describe, expect, it } from "vitest";
import { projectEvents } from "../../tests/support/projector-feed";
import { documentsProjector } from "./documents.projector";
import { countDocuments, listDocuments, ownedDocument } from "./documents.queries";

const settings = { ocr: false, ragType: null, embedding: null, maxDepth: null };
const registered = (documentId: string, ownerId: string, name: string, pages: number, registeredAt: string) => ({
  streamId: `document-${documentId}`,
  type: "DocumentRegistered",
  data: { documentId, ownerId, source: "file", declaredType: "pdf", declaredSize: 10, declaredPageCount: pages, settings, personal: { name, sourceUrl: null }, registeredAt },
});

describe("the library's document queries", () => {
  it("list an owner's documents newest first, searched by part of the name, and never another owner's", async () => {
    const store = await projectEvents(
      [documentsProjector],
      [
        registered("d1", "alice", "Annual Report.pdf", 3, "2026-01-01T10:00:00.000Z"),
        registered("d2", "alice", "Lease contract.pdf", 2, "2026-01-02T10:00:00.000Z"),
        registered("d3", "bob", "Report of Bob.pdf", 1, "2026-01-03T10:00:00.000Z"),
      ],
    );
    const all = await listDocuments(store, "alice");
    expect(all.documents.map((d) => d.name)).toEqual(["Lease contract.pdf", "Annual Report.pdf"]);
    expect(all.total).toBe(2);
    expect((await listDocuments(store, "alice", { search: "REPORT" })).documents.map((d) => d.id)).toEqual(["d1"]);
    expect(await countDocuments(store, "bob")).toBe(1);
    expect(await ownedDocument(store, "alice", "d3")).toBeNull();
    expect((await ownedDocument(store, "bob", "d3"))?.status).toBe("UPLOADING");
  });

  // Pages used are counted on the page allowance stream (application/library/page-allowance.ts), not here.
  it("forget a deleted document", async () => {
    const store = await projectEvents(
      [documentsProjector],
      [
        registered("d1", "alice", "a.pdf", 3, "2026-01-05T10:00:00.000Z"),
        { streamId: "document-d1", type: "DocumentTextExtracted", data: { pageCount: 7, pagesBlobKey: "k", warnings: [], extractedAt: "2026-01-05T10:01:00.000Z" } },
        { streamId: "document-d1", type: "DocumentDeleted", data: { deletedAt: "2026-01-05T10:02:00.000Z" } },
        registered("d2", "alice", "b.pdf", 4, "2026-01-06T10:00:00.000Z"),
        { streamId: "document-d2", type: "DocumentFailed", data: { reason: "unreadable", failedAt: "2026-01-06T10:01:00.000Z" } },
        registered("d3", "alice", "c.pdf", 2, "2026-02-01T10:00:00.000Z"),
      ],
    );
    expect(await ownedDocument(store, "alice", "d1")).toBeNull();
    expect((await ownedDocument(store, "alice", "d3"))?.name).toBe("c.pdf");
  });
});
