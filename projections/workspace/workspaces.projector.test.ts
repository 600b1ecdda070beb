import { afterEach, describe, expect, it } from "vitest";
import { DeciderSpecification } from "#domain/shared/decider-specification";
import { DEFAULT_CHAT_PREFERENCE, type WorkspaceCommand, workspaceDecider } from "#domain/workspace/workspace";
import { projectorHarness } from "#projections/testing/projector-harness";
import { WORKSPACE_USAGE, WORKSPACES, type WorkspaceReadModel, workspacesProjector, type WorkspaceUsageReadModel } from "./workspaces.projector";

const now = new Date("2026-05-01T12:00:00Z");
const history = (commands: WorkspaceCommand[]) => DeciderSpecification.for(workspaceDecider).history(commands);

const create: WorkspaceCommand = {
  type: "CreateWorkspace",
  workspaceId: "w1",
  ownerId: "alice",
  name: "Oceans",
  description: "Tides and currents",
  workspaceType: "Conversation",
  documentIds: ["d1", "d2"],
  chatPreference: DEFAULT_CHAT_PREFERENCE,
  now,
};
const attach: WorkspaceCommand = {
  type: "AttachDocuments",
  results: [
    { documentId: "d1", status: "ATTACH_SUCCESS", reason: null },
    { documentId: "d2", status: "ATTACH_FAILED", reason: "two.txt is in progress" },
  ],
  now,
  duringLaunch: true,
};

let harness: Awaited<ReturnType<typeof projectorHarness>>;
afterEach(() => harness?.close());
const workspace = () => harness.store.collection<WorkspaceReadModel>(WORKSPACES).get("w1");

describe("the workspaces read model", () => {
  it("shows a new workspace as creating, with its first requested file open, and counts it for the month", async () => {
    harness = await projectorHarness(workspacesProjector);
    await harness.record("workspace-w1", history([create]));
    expect(await workspace()).toMatchObject({
      ownerId: "alice",
      name: "Oceans",
      nameLower: "oceans",
      status: "CREATING",
      documentIds: [],
      session: { activeFileIds: ["d1"], openFileId: "d1", activeConversationId: null },
    });
    expect(await harness.store.collection<WorkspaceUsageReadModel>(WORKSPACE_USAGE).count({ ownerId: "alice", month: "2026:5" })).toBe(1);
  });

  it("follows the launch: only attached documents join, the first conversation becomes the active chat", async () => {
    harness = await projectorHarness(workspacesProjector);
    await harness.record("workspace-w1", history([create, attach, { type: "RecordFirstConversation", conversationId: "c1" }, { type: "CompleteLaunch", now }]));
    expect(await workspace()).toMatchObject({
      status: "ACTIVE",
      documentIds: ["d1"],
      lastAttachResults: [{ documentId: "d1" }, { documentId: "d2", reason: "two.txt is in progress" }],
      firstConversationId: "c1",
      session: { activeConversationId: "c1" },
    });
  });

  it("changes nothing when an event is delivered twice", async () => {
    harness = await projectorHarness(workspacesProjector);
    const recorded = await harness.record("workspace-w1", history([create, attach]));
    const once = await workspace();
    await harness.redeliver(recorded);
    expect(await workspace()).toEqual(once);
    expect(await harness.store.collection<WorkspaceUsageReadModel>(WORKSPACE_USAGE).count({ ownerId: "alice" })).toBe(1);
  });

  it("forgets a deleted workspace but still counts it against the month", async () => {
    harness = await projectorHarness(workspacesProjector);
    await harness.record("workspace-w1", history([create, attach, { type: "Delete", now }]));
    expect(await workspace()).toBeNull();
    expect(await harness.store.collection<WorkspaceUsageReadModel>(WORKSPACE_USAGE).count({ ownerId: "alice" })).toBe(1);
  });

  it("keeps nothing of an owner whose account was purged", async () => {
    harness = await projectorHarness(workspacesProjector);
    await harness.record("workspace-w1", history([create]));
    await harness.record("user-alice", [{ type: "AccountPurged", data: { purgedAt: now.toISOString() } }]);
    expect(await workspace()).toBeNull();
    expect(await harness.store.collection<WorkspaceUsageReadModel>(WORKSPACE_USAGE).count({ ownerId: "alice" })).toBe(0);
  });

  it("knows from the start how many documents an embedding run indexes", async () => {
    harness = await projectorHarness(workspacesProjector);
    const choose: WorkspaceCommand = { type: "ChangeChatPreference", chatPreference: { ...DEFAULT_CHAT_PREFERENCE, embedding: { keysetId: "k1", model: "embed-small" } }, now };
    await harness.record("workspace-w1", history([create, { ...attach, results: [{ documentId: "d1", status: "ATTACH_SUCCESS", reason: null }, { documentId: "d2", status: "ATTACH_SUCCESS", reason: null }] }, choose]));
    expect((await workspace())?.embeddingIndex).toMatchObject({ model: "embed-small", status: "indexing", done: 0, total: 2 });
  });
});
