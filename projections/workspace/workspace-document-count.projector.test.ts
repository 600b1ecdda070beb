import { describe, expect, it } from "vitest";
import type { RecordedEvent } from "#application/ports/event-store";
import { DEFAULT_CHAT_PREFERENCE } from "#domain/workspace/workspace";
import { openDatabase } from "#infrastructure/embedded/sqlite/open-database";
import { SqliteReadModelStore } from "#infrastructure/embedded/sqlite/sqlite-read-model-store";
import { WORKSPACES, type WorkspaceReadModel, workspacesProjector } from "./workspaces.projector";

let position = 0;
function recorded(streamId: string, type: string, data: Record<string, unknown>): RecordedEvent {
  position += 1;
  return { streamId, streamVersion: 0, position, recordedAt: "2026-11-01T10:00:00.000Z", eventId: `e${position}`, type, schemaVersion: 1, data, metadata: {} } as RecordedEvent;
}

async function workspaceWithDocuments(documentIds: string[]) {
  const store = new SqliteReadModelStore(openDatabase(":memory:"));
  await workspacesProjector.setup?.(store);
  const events = [
    recorded("workspace-w1", "WorkspaceCreated", {
      workspaceId: "w1",
      ownerId: "u1",
      type: "Conversation",
      requestedDocumentIds: documentIds,
      chatPreference: DEFAULT_CHAT_PREFERENCE,
      personal: { name: "Gulls", description: "" },
      createdAt: "2026-11-01T10:00:00.000Z",
    }),
    recorded("workspace-w1", "DocumentsAttached", {
      results: documentIds.map((documentId) => ({ documentId, status: "ATTACH_SUCCESS", reason: null })),
      attachedAt: "2026-11-01T10:00:01.000Z",
    }),
  ];
  for (const event of events) await workspacesProjector.handle(event, store);
  const documentsOf = async () => (await store.collection<WorkspaceReadModel>(WORKSPACES).get("w1"))?.documentIds;
  return { store, documentsOf };
}

describe("a workspace's documents in My Workspaces", () => {
  it("no longer count a document deleted from the library", async () => {
    const { store, documentsOf } = await workspaceWithDocuments(["d1", "d2"]);
    await workspacesProjector.handle(recorded("document-d1", "DocumentDeleted", { deletedAt: "2026-11-02T10:00:00.000Z" }), store);
    expect(await documentsOf()).toEqual(["d2"]);
  });

  it("are unchanged by the deletion of a document the workspace never held", async () => {
    const { store, documentsOf } = await workspaceWithDocuments(["d1"]);
    await workspacesProjector.handle(recorded("document-d9", "DocumentDeleted", { deletedAt: "2026-11-02T10:00:00.000Z" }), store);
    expect(await documentsOf()).toEqual(["d1"]);
  });
});
