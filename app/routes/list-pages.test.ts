import "reflect-metadata";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TOKENS } from "#application/tokens";
import type { ReadModelStore } from "#application/ports/read-model-store";
import { CommunityService } from "#application/community/community-service";
import { DOCUMENTS, type DocumentReadModel } from "#projections/library/documents.projector";
import { WORKSPACES, type WorkspaceReadModel } from "#projections/workspace/workspaces.projector";
import { settle } from "../../tests/support/library-fixtures";
import { signedInUser } from "../../tests/support/route-session";
import { createTestRuntime } from "../../tests/support/test-runtime";
import { loader as interview } from "./_app.interview";
import { loader as myDocuments } from "./_app.history.documents";
import { loader as documentsToAdd } from "./api.communities.$id.documents_to_add";
import { loader as myWorkspaces } from "./_app.history.workspaces";
import { loader as documentsApi } from "./api.documents";
import { loader as workspacesApi } from "./api.workspaces";

/**
 * My Documents, My Workspaces, the assessment's resume list, a community's
 * 'Add New Files' and their list APIs send a page at a time, in a stable
 * order, searched on the server (spec 000 §2, §9; issue #20 item 6).
 */
const ctx = { requestId: "list-pages", clientAddress: "127.0.0.1" };
let env: Awaited<ReturnType<typeof createTestRuntime>>;
const users: Record<"maria" | "eve", { id: string; cookie: string }> = {} as never;

const seededAt = Date.now();
const minutesAgo = (n: number) => new Date(seededAt - n * 60_000).toISOString();

/** Rows as the projectors write them: 30 of Maria's (two sharing one timestamp, to test the tie-break) and one of Eve's. */
async function seed() {
  const store = env.runtime.get<ReadModelStore>(TOKENS.ReadModelStore);
  const document = (id: string, ownerId: string, name: string, createdAt: string, status: DocumentReadModel["status"] = "ACTIVE"): DocumentReadModel => ({
    id, ownerId, name, nameLower: name.toLowerCase(), source: "file", fileType: "application/pdf", kind: "pdf", size: 10, pageCount: 1, sourceUrl: null,
    status, failureReason: null, warnings: [], settings: { ocr: false, ragType: null, embedding: null, maxDepth: null }, chunkCount: 1, createdAt, updatedAt: createdAt,
  });
  const workspace = (id: string, ownerId: string, name: string, lastUsedAt: string): WorkspaceReadModel => ({
    id, ownerId, name, nameLower: name.toLowerCase(), description: "", type: "Conversation", status: "ACTIVE", failureReason: null, requestedDocumentIds: [], documentIds: [],
    lastAttachResults: [], chatPreference: null as never, session: null as never, firstConversationId: null, resumeId: null, createdAt: lastUsedAt, updatedAt: lastUsedAt, lastUsedAt,
  });
  for (let i = 0; i < 30; i++) {
    const at = minutesAgo(i < 2 ? 60 : 60 + i);
    await store.collection<DocumentReadModel>(DOCUMENTS).upsert(document(`doc-${String(i).padStart(2, "0")}`, users.maria.id, `${i % 3 === 0 ? "Tax" : "Note"} ${i}.pdf`, at));
    await store.collection<WorkspaceReadModel>(WORKSPACES).upsert(workspace(`ws-${String(i).padStart(2, "0")}`, users.maria.id, `${i % 3 === 0 ? "Tax" : "Thesis"} ${i}`, at));
  }
  await store.collection<DocumentReadModel>(DOCUMENTS).upsert(document("doc-uploading", users.maria.id, "Still uploading.pdf", minutesAgo(600), "UPLOADING"));
  await store.collection<DocumentReadModel>(DOCUMENTS).upsert({ ...document("doc-just-done", users.maria.id, "Just done.pdf", minutesAgo(600)), updatedAt: minutesAgo(1) });
  await store.collection<DocumentReadModel>(DOCUMENTS).upsert(document("doc-eve", users.eve.id, "Tax of Eve.pdf", minutesAgo(1)));
  await store.collection<WorkspaceReadModel>(WORKSPACES).upsert(workspace("ws-eve", users.eve.id, "Tax of Eve", minutesAgo(1)));
}

const get = (cookie: string, url: string, params: Record<string, string> = {}) => ({
  request: new Request(`http://localhost${url}`, { headers: { Cookie: cookie } }),
  params,
  context: {},
});
const json = async <T>(response: unknown) => (await (response as Response).json()) as T;

beforeAll(async () => {
  env = await createTestRuntime();
  globalThis.__docuchatRuntime = Promise.resolve(env.runtime);
  users.maria = await signedInUser(env.runtime, "maria");
  users.eve = await signedInUser(env.runtime, "eve");
  await seed();
});
afterAll(async () => {
  globalThis.__docuchatRuntime = undefined;
  await env?.cleanup();
});

describe("lists that page", () => {
  it("GET /api/workspaces pages the owner's workspaces most recently used first, in one order across pages", async () => {
    const pages: string[] = [];
    for (let offset = 0; offset < 30; offset += 7) {
      const page = await json<{ workspaces: { id: string }[]; total: number }>(await workspacesApi(get(users.maria.cookie, `/api/workspaces?limit=7&offset=${offset}`)));
      expect(page.total).toBe(30);
      pages.push(...page.workspaces.map((w) => w.id));
    }
    expect(pages).toHaveLength(30);
    expect(new Set(pages).size).toBe(30);
    expect(pages.slice(0, 3)).toEqual(["ws-00", "ws-01", "ws-02"]);
    expect(pages).not.toContain("ws-eve");
  });

  it("GET /api/workspaces searches on the server, case-insensitively on part of the name, and caps the page", async () => {
    const page = await json<{ workspaces: { name: string }[]; total: number }>(await workspacesApi(get(users.maria.cookie, "/api/workspaces?search=TAX&limit=1000")));
    expect(page.total).toBe(10);
    expect(page.workspaces.every((w) => w.name.startsWith("Tax "))).toBe(true);
    const capped = await json<{ workspaces: unknown[] }>(await workspacesApi(get(users.maria.cookie, "/api/workspaces?limit=1000")));
    expect(capped.workspaces).toHaveLength(30);
  });

  it("My Workspaces sends the first page of the chosen size, and the card list's first 10", async () => {
    const data = (await myWorkspaces(get(users.maria.cookie, "/history/workspaces?size=5"))) as { size: number; total: number; workspaces: { id: string }[]; cardsFirst: { id: string }[] };
    expect(data).toMatchObject({ size: 5, total: 30 });
    expect(data.workspaces.map((w) => w.id)).toEqual(["ws-00", "ws-01", "ws-02", "ws-03", "ws-04"]);
    expect(data.cardsFirst).toHaveLength(10);
    const searched = (await myWorkspaces(get(users.maria.cookie, "/history/workspaces?q=tax"))) as { total: number; workspaces: { name: string }[] };
    expect(searched.total).toBe(10);
    expect(searched.workspaces.map((w) => w.name)).toEqual(["Tax 0", "Tax 3", "Tax 6", "Tax 9", "Tax 12", "Tax 15", "Tax 18", "Tax 21", "Tax 24", "Tax 27"]);
  });

  it("My Documents sends its first pages and watches only what is in progress or just changed, never the whole library", async () => {
    const data = (await myDocuments(get(users.maria.cookie, "/history/documents?size=15"))) as {
      total: number;
      documents: { id: string }[];
      mobileFirst: { id: string }[];
      tracked: { id: string }[];
    };
    expect(data.total).toBe(32);
    expect(data.documents).toHaveLength(15);
    expect(data.mobileFirst).toHaveLength(10);
    expect(data.tracked.map((d) => d.id).sort()).toEqual(["doc-just-done", "doc-uploading"]);
  });

  it("GET /api/documents pages and searches on the server, never another owner's", async () => {
    const first = await json<{ documents: { document_id: string }[]; total: number; nextOffset: number | null }>(await documentsApi(get(users.maria.cookie, "/api/documents?search=tax&limit=4")));
    expect(first.total).toBe(10);
    expect(first.nextOffset).toBe(4);
    const rest = await json<{ documents: { document_id: string }[] }>(await documentsApi(get(users.maria.cookie, "/api/documents?search=tax&limit=10&offset=4")));
    const ids = [...first.documents, ...rest.documents].map((d) => d.document_id);
    expect(ids).toHaveLength(10);
    expect(new Set(ids).size).toBe(10);
    expect(ids).not.toContain("doc-eve");
  });

  it("GET /api/documents?status=ACTIVE keeps the ready documents only", async () => {
    const page = await json<{ documents: { document_id: string; status: string }[]; total: number }>(
      await documentsApi(get(users.maria.cookie, "/api/documents?status=ACTIVE&limit=100")),
    );
    expect(page.total).toBe(31);
    expect(page.documents.every((d) => d.status === "ACTIVE")).toBe(true);
    expect(page.documents.map((d) => d.document_id)).not.toContain("doc-uploading");
  });

  it("the assessment sends the first page of the candidate's ready documents to choose the resume from, and how many there are", async () => {
    const data = (await interview(get(users.maria.cookie, "/interview"))) as { documents: { id: string; name: string }[]; documentTotal: number };
    expect(data.documentTotal).toBe(31);
    expect(data.documents).toHaveLength(20);
    expect(data.documents.slice(0, 2)).toEqual([{ id: "doc-00", name: "Tax 0.pdf" }, { id: "doc-01", name: "Note 1.pdf" }]);
    expect(data.documents.map((d) => d.id)).not.toContain("doc-uploading");
    const eve = (await interview(get(users.eve.cookie, "/interview"))) as { documents: { id: string }[]; documentTotal: number };
    expect(eve).toMatchObject({ documentTotal: 1, documents: [{ id: "doc-eve" }] });
  });

  describe("a community's 'Add New Files'", () => {
    const communities = () => env.runtime.container.get(CommunityService);
    const ctxOf = (actorId: string) => ({ ...ctx, actorId });
    let open: string;
    let closed: string;
    type Page = { documents: { document_id: string; document_name: string; in_community: boolean }[]; total: number };
    const pageOf = async (cookie: string, communityId: string, query = "") => {
      const response = (await documentsToAdd(get(cookie, `/api/communities/${communityId}/documents_to_add${query}`, { id: communityId }))) as Response;
      return { status: response.status, body: (await response.json()) as Page & { code?: string } };
    };

    beforeAll(async () => {
      ({ communityId: open } = await communities().create(users.maria.id, { communityName: "Tax Club", communityDescription: "Receipts and returns", visibility: "PUBLIC" }, ctxOf(users.maria.id)));
      ({ communityId: closed } = await communities().create(users.maria.id, { communityName: "Tax Board", communityDescription: "Minutes", visibility: "PRIVATE" }, ctxOf(users.maria.id)));
      await communities().attachResources(users.maria.id, open, { resources: [{ id: "DOCUMENT_doc-03", type: "DOCUMENT" }] }, ctxOf(users.maria.id));
      await settle(env.runtime);
    });

    it("pages the member's own ready documents newest first, marking those the community holds already", async () => {
      const ids: string[] = [];
      const held: string[] = [];
      for (let offset = 0; offset < 31; offset += 8) {
        const { status, body } = await pageOf(users.maria.cookie, open, `?limit=8&offset=${offset}`);
        expect(status).toBe(200);
        expect(body.total).toBe(31);
        ids.push(...body.documents.map((d) => d.document_id));
        held.push(...body.documents.filter((d) => d.in_community).map((d) => d.document_id));
      }
      expect(ids).toHaveLength(31);
      expect(new Set(ids).size).toBe(31);
      expect(ids.slice(0, 2)).toEqual(["doc-00", "doc-01"]);
      expect(ids).not.toContain("doc-uploading");
      expect(ids).not.toContain("doc-eve");
      expect(held).toEqual(["doc-03"]);
    });

    it("searches on the server, case-insensitively on part of the name", async () => {
      const { body } = await pageOf(users.maria.cookie, open, "?search=TAX&limit=4");
      expect(body.total).toBe(10);
      expect(body.documents.map((d) => d.document_name)).toEqual(["Tax 0.pdf", "Tax 3.pdf", "Tax 6.pdf", "Tax 9.pdf"]);
      expect(body.documents.map((d) => d.in_community)).toEqual([false, true, false, false]);
    });

    it("lists only the caller's own documents, to members only; a private community stays unknown to strangers", async () => {
      expect(await pageOf(users.eve.cookie, open)).toMatchObject({ status: 403, body: { code: "COMMUNITY_FORBIDDEN" } });
      expect(await pageOf(users.eve.cookie, closed)).toMatchObject({ status: 404, body: { code: "COMMUNITY_NOT_FOUND" } });
      expect((await pageOf(users.eve.cookie, "no-such-community")).status).toBe(404);
      await communities().join(users.eve.id, open, ctxOf(users.eve.id));
      await settle(env.runtime);
      const { status, body } = await pageOf(users.eve.cookie, open);
      expect(status).toBe(200);
      expect(body).toEqual({ total: 1, documents: [{ document_id: "doc-eve", document_name: "Tax of Eve.pdf", in_community: false }] });
    });
  });
});
