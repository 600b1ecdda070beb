import { describe, expect, it } from "vitest";
import { fold } from "#domain/shared/decider";
import { DEFAULT_CHAT_PREFERENCE, type WorkspaceCommand, type WorkspaceEvent, workspaceDecider } from "./workspace";

const now = new Date("2026-03-01T09:00:00Z");
const created: WorkspaceEvent[] = workspaceDecider.decide(
  { type: "CreateWorkspace", workspaceId: "w1", ownerId: "u1", name: " Finals ", description: "", workspaceType: "Conversation", documentIds: ["a", "b", "a"], chatPreference: DEFAULT_CHAT_PREFERENCE, now },
  workspaceDecider.initialState(),
);
const given = (events: WorkspaceEvent[]) => ({ when: (command: WorkspaceCommand) => workspaceDecider.decide(command, fold(workspaceDecider, events)) });
const attached: WorkspaceEvent = { type: "DocumentsAttached", data: { results: [{ documentId: "a", status: "ATTACH_SUCCESS", reason: null }], attachedAt: now.toISOString() } };

describe("a workspace", () => {
  it("is created with its requested documents (once each) and its name trimmed", () => {
    expect(created[0].data).toMatchObject({ requestedDocumentIds: ["a", "b"], personal: { name: "Finals" } });
  });

  it("opens its first file on creation", () => {
    expect(fold(workspaceDecider, created)).toMatchObject({ session: { activeFileIds: ["a"], openFileId: "a" } });
  });

  it("does not attach the same document twice", () => {
    expect(given([...created, attached]).when({ type: "AttachDocuments", results: [{ documentId: "a", status: "ATTACH_SUCCESS", reason: null }], now, duringLaunch: false })).toEqual([]);
  });

  it("cannot launch without an attached document", () => {
    expect(() => given(created).when({ type: "CompleteLaunch", now })).toThrow("None of the chosen documents could be attached.");
    expect(given([...created, attached]).when({ type: "CompleteLaunch", now })[0].type).toBe("WorkspaceLaunched");
  });

  it("records its first conversation only once, so a retried launch step changes nothing", () => {
    const first = given(created).when({ type: "RecordFirstConversation", conversationId: "c1" });
    expect(given([...created, ...first]).when({ type: "RecordFirstConversation", conversationId: "c1" })).toEqual([]);
  });

  it("keeps only its own files in the saved session", () => {
    const [saved] = given([...created, attached]).when({ type: "SaveSession", session: { activeFileIds: ["a", "zzz"], openFileId: "zzz", activeConversationId: "c1" }, now });
    expect(saved.data).toMatchObject({ session: { activeFileIds: ["a"], openFileId: null, activeConversationId: "c1" } });
  });

  it("refuses commands once deleted, as if it never existed", () => {
    const deleted: WorkspaceEvent = { type: "WorkspaceDeleted", data: { deletedAt: now.toISOString() } };
    expect(() => given([...created, deleted]).when({ type: "Rename", name: "x", description: "", now })).toThrow("Workspace does not exist");
  });
});
