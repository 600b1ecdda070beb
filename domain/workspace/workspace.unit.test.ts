import { describe, expect, it } from "vitest";
import { DeciderSpecification } from "#domain/shared/decider-specification";
import { DEFAULT_CHAT_PREFERENCE, type WorkspaceCommand, type WorkspaceEvent, workspaceDecider } from "./workspace";

const now = new Date("2026-03-01T09:00:00Z");
const created: WorkspaceEvent[] = workspaceDecider.decide(
  { type: "CreateWorkspace", workspaceId: "w1", ownerId: "u1", name: " Finals ", description: "", workspaceType: "Conversation", documentIds: ["a", "b", "a"], chatPreference: DEFAULT_CHAT_PREFERENCE, now },
  workspaceDecider.initialState(),
);
const given = (events: WorkspaceEvent[]) => DeciderSpecification.for(workspaceDecider).given(events);
const attached: WorkspaceEvent = { type: "DocumentsAttached", data: { results: [{ documentId: "a", status: "ATTACH_SUCCESS", reason: null }], attachedAt: now.toISOString() } };

describe("a workspace", () => {
  it("is created with its requested documents (once each) and its name trimmed", () => {
    expect(created[0].data).toMatchObject({ requestedDocumentIds: ["a", "b"], personal: { name: "Finals" } });
  });

  it("opens its first file on creation", () => {
    expect(given(created).state()).toMatchObject({ session: { activeFileIds: ["a"], openFileId: "a" } });
  });

  it("does not attach the same document twice", () => {
    given([...created, attached]).when({ type: "AttachDocuments", results: [{ documentId: "a", status: "ATTACH_SUCCESS", reason: null }], now, duringLaunch: false }).then([]);
  });

  it("cannot launch without an attached document", () => {
    given(created).when({ type: "CompleteLaunch", now }).thenThrows("NO_DOCUMENTS", "None of the chosen documents could be attached.");
    expect(given([...created, attached]).when({ type: "CompleteLaunch", now }).events()[0].type).toBe("WorkspaceLaunched");
  });

  it("records its first conversation only once, so a retried launch step changes nothing", () => {
    const first = given(created).when({ type: "RecordFirstConversation", conversationId: "c1" }).events();
    given([...created, ...first]).when({ type: "RecordFirstConversation", conversationId: "c1" }).then([]);
  });

  it("keeps only its own files in the saved session", () => {
    const [saved] = given([...created, attached]).when({ type: "SaveSession", session: { activeFileIds: ["a", "zzz"], openFileId: "zzz", activeConversationId: "c1" }, now }).events();
    expect(saved.data).toMatchObject({ session: { activeFileIds: ["a"], openFileId: null, activeConversationId: "c1" } });
  });

  it("refuses commands once deleted, as if it never existed", () => {
    const deleted: WorkspaceEvent = { type: "WorkspaceDeleted", data: { deletedAt: now.toISOString() } };
    given([...created, deleted]).when({ type: "Rename", name: "x", description: "", now }).thenThrows("WORKSPACE_NOT_EXIST", "Workspace does not exist");
  });

  describe("embedding index", () => {
    const model = { keysetId: "k1", model: "embed-small" };
    const choose = (embedding: typeof model | null): WorkspaceCommand => ({ type: "ChangeChatPreference", chatPreference: { ...DEFAULT_CHAT_PREFERENCE, embedding }, now });
    const history = (...commands: WorkspaceCommand[]) =>
      commands.reduce<WorkspaceEvent[]>((events, command) => [...events, ...given(events).when(command).events()], [...created, attached]);

    it("is requested when a model is chosen and when documents join, each time as a new revision", () => {
      const chosen = history(choose(model));
      expect(chosen.at(-1)).toMatchObject({ type: "EmbeddingIndexRequested", data: { revision: 1, keysetId: "k1", model: "embed-small" } });
      // Choosing the same model again, or keyword search only, asks for nothing.
      expect(given(chosen).when(choose(model)).events().map((e) => e.type)).toEqual(["ChatPreferenceChanged"]);
      expect(given(chosen).when(choose(null)).events().map((e) => e.type)).toEqual(["ChatPreferenceChanged"]);
      const joined = given(chosen).when({ type: "AttachDocuments", results: [{ documentId: "b", status: "ATTACH_SUCCESS", reason: null }], now, duringLaunch: false }).events();
      expect(joined.at(-1)).toMatchObject({ type: "EmbeddingIndexRequested", data: { revision: 2 } });
    });

    it("takes progress and completion only from the latest revision", () => {
      const twice = history(choose(model), choose({ keysetId: "k1", model: "embed-large" }));
      const progress = (revision: number): WorkspaceCommand => ({ type: "RecordEmbeddingProgress", revision, documentId: "a", done: 1, total: 1, failure: null, now });
      given(twice).when(progress(1)).then([]);
      given(twice).when({ type: "CompleteEmbeddingIndex", revision: 1, now }).then([]);
      expect(given(twice).when(progress(2)).events()[0].type).toBe("EmbeddingIndexProgressed");
      const done = [...twice, ...given(twice).when({ type: "CompleteEmbeddingIndex", revision: 2, now }).events()];
      expect(done.at(-1)?.type).toBe("EmbeddingIndexCompleted");
      given(done).when({ type: "CompleteEmbeddingIndex", revision: 2, now }).then([]);
    });
  });
});
