import { describe, expect, it } from "vitest";
import { DEFAULT_CHAT_PREFERENCE } from "#domain/workspace/workspace";
import { projectorHarness } from "#projections/testing/projector-harness";
import { WORKSPACES, type WorkspaceReadModel, workspacesProjector } from "./workspaces.projector";

async function workspaceWithDocuments(documentIds: string[]) {
  const harness = await projectorHarness(workspacesProjector);
  await harness.record("workspace-w1", [
    { type: "WorkspaceCreated", data: {
      workspaceId: "w1",
      ownerId: "u1",
      type: "Conversation",
      requestedDocumentIds: documentIds,
      chatPreference: DEFAULT_CHAT_PREFERENCE,
      personal: { name: "Gulls", description: "" },
      createdAt: "2026-11-01T10:00:00.000Z",
    } },
    {
      type: "DocumentsAttached",
      data: { results: documentIds.map((documentId) => ({ documentId, status: "ATTACH_SUCCESS", reason: null })), attachedAt: "2026-11-01T10:00:01.000Z" },
    },
  ]);
  const documentsOf = async () => (await harness.store.collection<WorkspaceReadModel>(WORKSPACES).get("w1"))?.documentIds;
  const deleteDocument = (documentId: string) => harness.record(`document-${documentId}`, [{ type: "DocumentDeleted", data: { deletedAt: "2026-11-02T10:00:00.000Z" } }]);
  return { deleteDocument, documentsOf };
}

describe("a workspace's documents in My Workspaces", () => {
  it("no longer count a document deleted from the library", async () => {
    const { deleteDocument, documentsOf } = await workspaceWithDocuments(["d1", "d2"]);
    await deleteDocument("d1");
    expect(await documentsOf()).toEqual(["d2"]);
  });

  it("are unchanged by the deletion of a document the workspace never held", async () => {
    const { deleteDocument, documentsOf } = await workspaceWithDocuments(["d1"]);
    await deleteDocument("d9");
    expect(await documentsOf()).toEqual(["d1"]);
  });
});
