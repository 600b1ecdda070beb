import { afterEach, describe, expect, it } from "vitest";
import { TOKENS } from "#application/tokens";
import type { WorkflowEngine } from "#application/ports/workflow";
import type { EventStore } from "#application/ports/event-store";
import type { RequestContext } from "#application/shared/request-context";
import { type AnswerStreamEvent, ConversationService } from "#application/conversation/conversation-service";
import { CommunityQueries } from "#application/community/community-queries";
import { CommunityService } from "#application/community/community-service";
import { LibraryQueries } from "#application/library/library-queries";
import { LibraryService } from "#application/library/library-service";
import { WorkspaceQueries } from "#application/workspace/workspace-queries";
import { WorkspaceService } from "#application/workspace/workspace-service";
import { createTestRuntime } from "../support/test-runtime";
import { settle, uploadTextDocument } from "../support/library-fixtures";

let env: Awaited<ReturnType<typeof createTestRuntime>>;
afterEach(async () => env?.cleanup());

const ctx = (userId: string): RequestContext => ({ requestId: `r-${userId}`, clientAddress: "127.0.0.1", actorId: userId });
const service = () => env.runtime.container.get(CommunityService);
const queries = () => env.runtime.container.get(CommunityQueries);

async function community(ownerId: string, name: string, visibility: "PUBLIC" | "PRIVATE" = "PUBLIC") {
  const { communityId } = await service().create(ownerId, { communityName: name, communityDescription: `About ${name}`, visibility }, ctx(ownerId));
  return communityId;
}

async function share(userId: string, communityId: string, documentId: string) {
  await service().attachResources(userId, communityId, { resources: [{ id: `DOCUMENT_${documentId}`, type: "DOCUMENT" }] }, ctx(userId));
}

async function workspaceWith(userId: string, documentIds: string[]) {
  const { workspaceId } = await env.runtime.container.get(WorkspaceService).create(userId, { name: "Study", type: "Conversation", documentIds }, ctx(userId));
  await env.runtime.get<WorkflowEngine>(TOKENS.WorkflowEngine).waitForCompletion(`workspace-launch-${workspaceId}`, 20_000);
  await settle(env.runtime);
  return env.runtime.container.get(WorkspaceQueries).get(userId, workspaceId);
}

async function ask(userId: string, conversationId: string, text: string) {
  for await (const event of env.runtime.container.get(ConversationService).ask(userId, conversationId, { text }, ctx(userId)) as AsyncGenerator<AnswerStreamEvent>) {
    if (event.type === "end") return event.metadata;
  }
  throw new Error("no answer metadata");
}

describe("communities share documents without copying them", () => {
  it("keep every chunk inside the communities a reader belongs to, decided at question time", async () => {
    env = await createTestRuntime();
    // Two communities whose documents use the same words.
    const north = await uploadTextDocument(env.runtime, "ann", "north.txt", "The reactor coolant pressure in the north plant is 155 bar during normal operation.");
    const south = await uploadTextDocument(env.runtime, "bob", "south.txt", "The reactor coolant pressure in the south plant is 70 bar during normal operation.");
    const plantsNorth = await community("ann", "North Plant");
    const plantsSouth = await community("bob", "South Plant");
    await share("ann", plantsNorth, north);
    await share("bob", plantsSouth, south);

    // Cy joins the north community only.
    await service().join("cy", plantsNorth, ctx("cy"));
    const library = env.runtime.container.get(LibraryQueries);
    expect((await library.readableDocuments("cy", [north, south])).map((d) => d.id)).toEqual([north]);
    await expect(library.pages("cy", south)).rejects.toMatchObject({ code: "DOCUMENT_NOT_FOUND" });

    // A workspace may hold the shared document, never the other community's: asking for it creates nothing.
    const own = await uploadTextDocument(env.runtime, "cy", "garden.txt", "Tomatoes in the garden need water every morning.");
    await expect(workspaceWith("cy", [north, south, own])).rejects.toMatchObject({ code: "DOCUMENT_NOT_FOUND" });
    const workspace = await workspaceWith("cy", [north, own]);
    expect(workspace.documents.map((d) => d.documentId).sort()).toEqual([north, own].sort());
    const conversationId = workspace.session.activeConversationId!;
    const answer = await ask("cy", conversationId, "What is the reactor coolant pressure?");
    expect(answer.citations.map((c) => c.documentId)).toEqual([north]);
    // Cy's chat about Ann's document stays Cy's: Ann cannot read it.
    await settle(env.runtime);
    await expect(env.runtime.container.get(ConversationService).get("ann", conversationId)).rejects.toMatchObject({ code: "CONVERSATION_NOT_FOUND" });

    // Ann removes the document: Cy's next question no longer reaches it.
    await service().removeResource("ann", plantsNorth, `DOCUMENT_${north}`, ctx("ann"));
    const after = await ask("cy", conversationId, "What is the reactor coolant pressure?");
    expect(after.citations.map((c) => c.documentId)).not.toContain(north);
    expect(after.citations.map((c) => c.documentId)).not.toContain(south);
    // It was never copied: Ann still has it, Bob's is untouched.
    expect((await library.getDocument("ann", north)).id).toBe(north);
  });

  it("stop answering from a community's documents once the member leaves", async () => {
    env = await createTestRuntime();
    const doc = await uploadTextDocument(env.runtime, "ann", "tides.txt", "Spring tides happen when the Sun and the Moon are aligned.");
    const id = await community("ann", "Oceans");
    await share("ann", id, doc);
    await service().join("cy", id, ctx("cy"));
    const own = await uploadTextDocument(env.runtime, "cy", "garden.txt", "Tomatoes in the garden need water every morning.");
    const workspace = await workspaceWith("cy", [doc, own]);
    const conversationId = workspace.session.activeConversationId!;
    expect((await ask("cy", conversationId, "When do spring tides happen?")).citations.map((c) => c.documentId)).toEqual([doc]);
    await service().leave("cy", id, ctx("cy"));
    expect((await ask("cy", conversationId, "When do spring tides happen?")).citations.map((c) => c.documentId)).not.toContain(doc);
    // Only Cy's own document is left in the workspace's scope.
    expect((await env.runtime.container.get(WorkspaceQueries).get("cy", workspace.id)).documents.map((d) => d.documentId)).toEqual([own]);
  });

  it("let a viewer see a resource's name but never open it, by URL or API", async () => {
    env = await createTestRuntime();
    const doc = await uploadTextDocument(env.runtime, "ann", "secret.txt", "The launch code is kept in the red binder.");
    const id = await community("ann", "Private Club", "PRIVATE");
    await share("ann", id, doc);
    await service().addMember("ann", id, { username: "nobody", role: "VIEWER" }, ctx("ann")).catch((e) => expect(e.code).toBe("USER_NOT_FOUND"));
    // A stranger: the private community does not exist for them (404, never 403).
    await expect(queries().detail("cy", id)).rejects.toMatchObject({ code: "COMMUNITY_NOT_FOUND" });
    await expect(service().join("cy", id, ctx("cy"))).rejects.toMatchObject({ code: "COMMUNITY_NOT_FOUND" });
    expect((await queries().publicList("cy")).map((c) => c.communityId)).not.toContain(id);
    // A viewer of a public community sees the list but cannot open the document.
    const open = await community("ann", "Open Club");
    await share("ann", open, doc);
    const detail = await queries().detail("cy", open);
    expect(detail.role).toBe("VIEWER");
    expect(detail.resources.map((r) => r.resourceId)).toEqual([`DOCUMENT_${doc}`]);
    expect(await queries().mayOpen("cy", open, doc)).toBe(false);
    await expect(env.runtime.container.get(LibraryQueries).openSource("cy", doc)).rejects.toMatchObject({ code: "DOCUMENT_NOT_FOUND" });
  });

  it("reserve a private community's name in the same words as any taken name, saying nothing of whose it is", async () => {
    env = await createTestRuntime();
    await community("ann", "Night Owls", "PRIVATE");
    await community("ann", "Early Birds", "PUBLIC");
    const refusal = (owner: string, name: string) => community(owner, name).then(() => null, (error: { code: string; message: string; field?: string }) => ({ code: error.code, message: error.message, field: error.field }));
    const privateName = await refusal("bob", "NIGHT  owls");
    expect(privateName).toEqual({ code: "COMMUNITY_NAME_TAKEN", message: "This name is not available. Choose another.", field: "communityName" });
    expect(await refusal("bob", "early birds")).toEqual(privateName);
    expect(await refusal("ann", "Night Owls")).toEqual(privateName);
    expect(privateName?.message).not.toMatch(/exist|private|communit/i);
  });

  it("refuse a duplicate name in any case, and attaching someone else's document", async () => {
    env = await createTestRuntime();
    await community("ann", "Physics Club");
    await expect(community("bob", "  physics   CLUB ")).rejects.toMatchObject({ code: "COMMUNITY_NAME_TAKEN" });
    const annDoc = await uploadTextDocument(env.runtime, "ann", "a.txt", "Ann's notes.");
    const bobs = await community("bob", "Chemistry");
    await expect(share("bob", bobs, annDoc)).rejects.toMatchObject({ code: "DOCUMENT_NOT_FOUND" });
    // A deleted community gives its name back.
    const chem = (await queries().myList("bob"))[0];
    await service().delete("bob", [chem.communityId], ctx("bob"));
    await settle(env.runtime);
    expect(await community("ann", "CHEMISTRY")).toBeTruthy();
  });

  it("attach an upload shared from the upload screen once it is ACTIVE", async () => {
    env = await createTestRuntime();
    const id = await community("ann", "Uploads");
    const library = env.runtime.container.get(LibraryService);
    const body = Buffer.from("Photosynthesis turns light into chemical energy.");
    const registered = await library.registerUpload("ann", { document_name: "bio.txt", document_type: "text/plain", document_size: body.length, page_count: 1 }, ctx("ann"));
    await service().contributeUpload("ann", id, registered.document_id, ctx("ann"));
    expect((await queries().detail("ann", id)).resources).toEqual([]);
    const token = new URL(registered.url, "http://x").searchParams.get("token")!;
    await library.receiveUpload(registered.document_id, token, body, "text/plain", ctx("ann"));
    await env.runtime.get<WorkflowEngine>(TOKENS.WorkflowEngine).waitForCompletion(`ingestion-${registered.document_id}`, 30_000);
    await settle(env.runtime);
    await settle(env.runtime);
    expect((await queries().detail("ann", id)).resources.map((r) => r.resourceName)).toEqual(["bio.txt"]);
  });

  it("let a moderator act on a report, and tell the contributor", async () => {
    env = await createTestRuntime();
    const doc = await uploadTextDocument(env.runtime, "bob", "spam.txt", "Buy cheap watches.");
    const id = await community("ann", "Moderated");
    await service().join("bob", id, ctx("bob"));
    await service().join("cy", id, ctx("cy"));
    await share("bob", id, doc);
    await service().report("cy", id, { documentId: `DOCUMENT_${doc}`, reason: "Spam" }, ctx("cy"));
    await expect(queries().administration("cy", id)).rejects.toMatchObject({ code: "COMMUNITY_NOT_FOUND" });
    const admin = await queries().administration("ann", id);
    expect(admin.reports.map((r) => [r.resourceName, r.reason])).toEqual([["spam.txt", "Spam"]]);
    await expect(service().removeResource("cy", id, `DOCUMENT_${doc}`, ctx("cy"))).rejects.toMatchObject({ code: "COMMUNITY_FORBIDDEN" });
    await service().removeResource("ann", id, `DOCUMENT_${doc}`, ctx("ann"));
    expect((await queries().removalNotices("bob")).map((n) => [n.communityName, n.documentName])).toEqual([["Moderated", "spam.txt"]]);
    expect((await queries().administration("ann", id)).reports).toEqual([]);
  });

  it("withdraw a purged contributor's documents, and hand a purged owner's community to a moderator or archive it", async () => {
    env = await createTestRuntime();
    const doc = await uploadTextDocument(env.runtime, "bob", "bob.txt", "Bob's shared notes on rivers.");
    const led = await community("ann", "Rivers");
    const alone = await community("ann", "Lakes");
    await service().join("bob", led, ctx("bob"));
    await service().join("dan", led, ctx("dan"));
    await share("bob", led, doc);
    await service().changeRole("ann", led, { userId: "dan", role: "MODERATOR" }, ctx("ann"));
    // The identity context records the purges (here appended directly: the deletion workflow has its own tests).
    const purged = (userId: string) =>
      env.runtime.get<EventStore>(TOKENS.EventStore).append(
        `user-${userId}`,
        [{ eventId: `purge-${userId}`, type: "AccountPurged", schemaVersion: 1, data: { purgedAt: new Date().toISOString() }, metadata: { correlationId: "purge", actorId: "system", subjectId: userId } }],
        "any",
      );
    await purged("bob");
    await settle(env.runtime);
    await settle(env.runtime);
    expect((await queries().detail("ann", led)).resources).toEqual([]);
    expect((await queries().administration("ann", led)).members.map((m) => m.userId).sort()).toEqual(["ann", "dan"]);
    await purged("ann");
    await settle(env.runtime);
    await settle(env.runtime);
    expect((await queries().detail("dan", led)).role).toBe("OWNER");
    expect((await queries().publicList("dan")).find((c) => c.communityId === alone)?.status).toBe("Archived");
  });
});
