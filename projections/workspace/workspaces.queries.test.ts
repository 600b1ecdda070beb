import { describe, expect, it } from "vitest";
import { DEFAULT_CHAT_PREFERENCE } from "#domain/workspace/workspace";
import { projectEvents } from "../../tests/support/projector-feed";
import { workspacesProjector } from "./workspaces.projector";
import { countWorkspaces, lastUsedWorkspace, listWorkspaces, ownedWorkspace, workspacesCreatedIn } from "./workspaces.queries";

const created = (workspaceId: string, ownerId: string, name: string, createdAt: string) => ({
  streamId: `workspace-${workspaceId}`,
  type: "WorkspaceCreated",
  data: { workspaceId, ownerId, type: "Conversation", requestedDocumentIds: [], chatPreference: DEFAULT_CHAT_PREFERENCE, personal: { name, description: "" }, createdAt },
});
const launched = (workspaceId: string) => ({ streamId: `workspace-${workspaceId}`, type: "WorkspaceLaunched", data: { launchedAt: "2026-01-01T00:00:00.000Z" } });

describe("the workspace queries", () => {
  it("list an owner's workspaces most recently used first and pick up the last active one", async () => {
    const store = await projectEvents(
      [workspacesProjector],
      [
        created("w1", "alice", "Taxes", "2026-01-01T10:00:00.000Z"),
        launched("w1"),
        created("w2", "alice", "Thesis", "2026-01-02T10:00:00.000Z"),
        created("w3", "bob", "Taxes of Bob", "2026-01-03T10:00:00.000Z"),
        launched("w3"),
      ],
    );
    expect((await listWorkspaces(store, "alice")).workspaces.map((w) => w.name)).toEqual(["Thesis", "Taxes"]);
    expect(await listWorkspaces(store, "alice", { search: "tax" })).toMatchObject({ total: 1, workspaces: [{ id: "w1" }] });
    expect(await countWorkspaces(store, "alice")).toBe(2);
    // w2 is newer but still launching: the last *active* one is w1.
    expect((await lastUsedWorkspace(store, "alice"))?.id).toBe("w1");
    expect(await ownedWorkspace(store, "alice", "w3")).toBeNull();
    expect((await ownedWorkspace(store, "bob", "w3"))?.status).toBe("ACTIVE");
  });

  it("count the workspaces created in a month, deleted ones included", async () => {
    const store = await projectEvents(
      [workspacesProjector],
      [
        created("w1", "alice", "One", "2026-03-01T10:00:00.000Z"),
        { streamId: "workspace-w1", type: "WorkspaceDeleted", data: { deletedAt: "2026-03-02T10:00:00.000Z" } },
        created("w2", "alice", "Two", "2026-03-03T10:00:00.000Z"),
        created("w3", "alice", "Three", "2026-04-01T10:00:00.000Z"),
      ],
    );
    expect(await ownedWorkspace(store, "alice", "w1")).toBeNull();
    expect(await workspacesCreatedIn(store, "alice", "2026:3")).toBe(2);
    expect(await workspacesCreatedIn(store, "bob", "2026:3")).toBe(0);
  });
});
