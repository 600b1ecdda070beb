import { afterEach, describe, expect, it } from "vitest";
import { TOKENS } from "#application/tokens";
import type { WorkflowEngine } from "#application/ports/workflow";
import type { RequestContext } from "#application/shared/request-context";
import { LibraryService } from "#application/library/library-service";
import { WorkspaceQueries } from "#application/workspace/workspace-queries";
import { WorkspaceService } from "#application/workspace/workspace-service";
import { createTestRuntime } from "../support/test-runtime";
import { settle, uploadTextDocument } from "../support/library-fixtures";

const owner = "owner-1";
const ctx: RequestContext = { requestId: "req", clientAddress: "127.0.0.1", actorId: owner };
let env: Awaited<ReturnType<typeof createTestRuntime>>;
afterEach(async () => env?.cleanup());

async function setup() {
  env = await createTestRuntime();
  const { runtime } = env;
  return {
    runtime,
    workspaces: runtime.container.get(WorkspaceService),
    queries: runtime.container.get(WorkspaceQueries),
    engine: runtime.get<WorkflowEngine>(TOKENS.WorkflowEngine),
  };
}

async function launched(s: Awaited<ReturnType<typeof setup>>, workspaceId: string) {
  await s.engine.waitForCompletion(`workspace-launch-${workspaceId}`, 20_000);
  await settle(s.runtime);
  return s.queries.get(owner, workspaceId);
}

describe("launching a workspace", () => {
  it("attaches the chosen documents, creates the first conversation and opens the first file", async () => {
    const s = await setup();
    const a = await uploadTextDocument(s.runtime, owner, "rivers.txt", "The Nile is the longest river.");
    const b = await uploadTextDocument(s.runtime, owner, "lakes.txt", "Lake Baikal is the deepest lake.");
    const { workspaceId } = await s.workspaces.create(owner, { name: "Geography", description: "Exam prep", type: "Conversation", documentIds: [a, b] }, ctx);
    const ws = await launched(s, workspaceId);
    expect(ws).toMatchObject({ status: "ACTIVE", name: "Geography", documentIds: [a, b], session: { activeFileIds: [a], openFileId: a } });
    expect(ws.documents.map((d) => d.documentName)).toEqual(["rivers.txt", "lakes.txt"]);
    expect(ws.conversations).toHaveLength(1);
    expect(ws.session.activeConversationId).toBe(ws.conversations[0].id);
  });

  it("reports a status and reason per document, and fails when none can be attached", async () => {
    const s = await setup();
    const library = s.runtime.container.get(LibraryService);
    const pending = await library.registerUpload(owner, { document_name: "later.txt", document_size: 5, page_count: 1 }, ctx);
    const { workspaceId } = await s.workspaces.create(owner, { name: "Empty", type: "Conversation", documentIds: [pending.document_id] }, ctx);
    const ws = await launched(s, workspaceId);
    expect(ws.status).toBe("FAILED");
    expect(ws.lastAttachResults).toEqual([{ documentId: pending.document_id, status: "ATTACH_FAILED", reason: "later.txt is in progress" }]);
    expect(ws.failureReason).toMatch(/None of the chosen documents could be attached/);
  });

  it("refuses another user's document or an unknown one as not found, and creates nothing", async () => {
    const s = await setup();
    const mine = await uploadTextDocument(s.runtime, owner, "rivers.txt", "The Nile is the longest river.");
    const theirs = await uploadTextDocument(s.runtime, "someone-else", "diary.txt", "Dear diary.");
    for (const documentIds of [[mine, theirs], ["no-such-doc"]]) {
      await expect(s.workspaces.create(owner, { name: "Borrowed", type: "Conversation", documentIds }, ctx)).rejects.toMatchObject({ code: "DOCUMENT_NOT_FOUND" });
    }
    await settle(s.runtime);
    expect(await s.queries.count(owner)).toBe(0);
  });

  it("creates a resume for a Resume Builder workspace, which then refuses more files", async () => {
    const s = await setup();
    const a = await uploadTextDocument(s.runtime, owner, "cv.txt", "Jane Doe, engineer.");
    const b = await uploadTextDocument(s.runtime, owner, "other.txt", "More notes.");
    const { workspaceId } = await s.workspaces.create(owner, { name: "My CV", type: "Resume Builder", documentIds: [a] }, ctx);
    const ws = await launched(s, workspaceId);
    expect(ws.status).toBe("ACTIVE");
    expect(ws.resumeId).toBeTruthy();
    await expect(s.workspaces.attachDocuments(owner, workspaceId, { documentIds: [b] }, ctx)).rejects.toMatchObject({ code: "RESUME_NO_FILES" });
  });

  it("validates the wizard's details with the spec's messages", async () => {
    const s = await setup();
    await expect(s.workspaces.create(owner, { name: "", type: "Conversation", documentIds: ["x"] }, ctx)).rejects.toMatchObject({ message: "This field is required" });
    await expect(s.workspaces.create(owner, { name: "A", type: "Conversation", documentIds: [] }, ctx)).rejects.toMatchObject({ code: "VALIDATION" });
    const eleven = Array.from({ length: 11 }, (_, i) => `d${i}`);
    await expect(s.workspaces.create(owner, { name: "A", type: "Conversation", documentIds: eleven }, ctx)).rejects.toMatchObject({ message: "Can not upload more than 10 files" });
  });
});

describe("a launched workspace", () => {
  async function ready() {
    const s = await setup();
    const a = await uploadTextDocument(s.runtime, owner, "a.txt", "Alpha text.");
    const b = await uploadTextDocument(s.runtime, owner, "b.txt", "Beta text.");
    const { workspaceId } = await s.workspaces.create(owner, { name: "Study", type: "Conversation", documentIds: [a] }, ctx);
    await launched(s, workspaceId);
    return { ...s, workspaceId, a, b };
  }

  it("can be renamed, but not to nothing", async () => {
    const s = await ready();
    await s.workspaces.rename(owner, s.workspaceId, { name: "Finals" }, ctx);
    expect((await s.queries.get(owner, s.workspaceId)).name).toBe("Finals");
    await expect(s.workspaces.rename(owner, s.workspaceId, { name: "  " }, ctx)).rejects.toMatchObject({ message: "Workspace name is required" });
  });

  it("takes more files through the Attach Files dialog", async () => {
    const s = await ready();
    const results = await s.workspaces.attachDocuments(owner, s.workspaceId, { documentIds: [s.b] }, ctx);
    expect(results).toEqual([{ documentId: s.b, status: "ATTACH_SUCCESS", reason: null }]);
    expect((await s.queries.get(owner, s.workspaceId)).documentIds).toEqual([s.a, s.b]);
  });

  it("remembers the open files and chat when left, and only files of the workspace", async () => {
    const s = await ready();
    await s.workspaces.attachDocuments(owner, s.workspaceId, { documentIds: [s.b] }, ctx);
    await s.workspaces.saveSession(owner, s.workspaceId, { activeFileIds: [s.a, s.b, "foreign"], openFileId: s.b, activeConversationId: null }, ctx);
    expect((await s.queries.get(owner, s.workspaceId)).session).toEqual({ activeFileIds: [s.a, s.b], openFileId: s.b, activeConversationId: null });
    expect((await s.queries.lastUsed(owner))?.id).toBe(s.workspaceId);
  });

  it("is invisible to another user, and gone once deleted", async () => {
    const s = await ready();
    await expect(s.queries.get("intruder", s.workspaceId)).rejects.toMatchObject({ code: "WORKSPACE_NOT_EXIST" });
    await expect(s.workspaces.rename("intruder", s.workspaceId, { name: "Mine" }, ctx)).rejects.toMatchObject({ code: "WORKSPACE_NOT_EXIST" });
    await expect(s.workspaces.delete("intruder", [s.workspaceId], ctx)).rejects.toMatchObject({ code: "WORKSPACE_NOT_EXIST" });
    await s.workspaces.delete(owner, [s.workspaceId], ctx);
    await expect(s.queries.get(owner, s.workspaceId)).rejects.toMatchObject({ code: "WORKSPACE_NOT_EXIST" });
    expect((await s.queries.list(owner)).total).toBe(0);
  });
});
