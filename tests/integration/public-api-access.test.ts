import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TOKENS } from "#application/tokens";
import type { EventStore } from "#application/ports/event-store";
import { AccountAudit } from "#application/administration/account-audit";
import { BillingQueries } from "#application/billing/billing-queries";
import type { WorkflowEngine } from "#application/ports/workflow";
import { AccessTokenService } from "#application/identity/access-tokens";
import { AccountDeletionService } from "#application/identity/account-deletion";
import { accountDeletionWorkflowId } from "#workflows/account-deletion";
import { WorkspaceQueries } from "#application/workspace/workspace-queries";
import { WorkspaceService } from "#application/workspace/workspace-service";
import { handleMcpRequest } from "#app/public-api/mcp.server";
import { handleApiRequest } from "#app/public-api/router.server";
import { settle, uploadTextDocument } from "../support/library-fixtures";
import { signedInUser } from "../support/route-session";
import { createTestRuntime } from "../support/test-runtime";

/**
 * Who may do what with a personal access token (issue 31): the OpenAI and
 * MCP clients ask unchanged; a token outside its scope or permission is
 * refused with nothing changed; revoked, expired and impersonated tokens are
 * refused; the rate limit answers 429; no token is ever written anywhere.
 */
const ORIGIN = "http://docuchat.test";
const RATE_LIMIT = 40;
let env: Awaited<ReturnType<typeof createTestRuntime>>;
let ada = "";
const ids = { harbour: "", harbourDoc: "", ledger: "", ledgerDoc: "" };
const minted: string[] = [];
const ctx = (actorId: string, extra: Record<string, string> = {}) => ({ requestId: `access-${actorId}`, clientAddress: "127.0.0.1", actorId, ...extra });

const route = (request: Request) => (new URL(request.url).pathname.startsWith("/mcp") ? handleMcpRequest(request) : handleApiRequest(request));
const fetchApp = async (input: string | URL | Request, init?: RequestInit) => route(new Request(input, init));

async function mint(input: Record<string, unknown>): Promise<string> {
  const { token } = await env.runtime.container.get(AccessTokenService).create(ada, { name: "Bot", expiresIn: "30", scope: "all", permissions: ["read"], ...input }, ctx(ada));
  minted.push(token);
  return token;
}

const call = (token: string, method: string, pathname: string, body?: unknown) =>
  handleApiRequest(
    new Request(`${ORIGIN}/api/v1${pathname}`, {
      method,
      headers: { Authorization: `Bearer ${token}`, ...(body ? { "Content-Type": "application/json" } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    }),
  );

async function workspace(name: string, text: string): Promise<{ workspaceId: string; documentId: string }> {
  const documentId = await uploadTextDocument(env.runtime, ada, `${name}.txt`, text);
  const { workspaceId } = await env.runtime.container.get(WorkspaceService).create(ada, { name, type: "Conversation", documentIds: [documentId] }, ctx(ada));
  for (let i = 0; i < 100; i++) {
    if ((await env.runtime.container.get(WorkspaceQueries).get(ada, workspaceId)).status === "ACTIVE") break;
    await new Promise((r) => setTimeout(r, 100));
  }
  await settle(env.runtime);
  return { workspaceId, documentId };
}

const head = () => env.runtime.get<EventStore>(TOKENS.EventStore).headPosition();

beforeAll(async () => {
  env = await createTestRuntime({ logInDataDir: true, env: { API_RATE_LIMIT_PER_MINUTE: String(RATE_LIMIT) } });
  globalThis.__docuchatRuntime = Promise.resolve(env.runtime);
  ada = (await signedInUser(env.runtime, "adabyron")).id;
  ({ workspaceId: ids.harbour, documentId: ids.harbourDoc } = await workspace("Harbour", "The harbour master logged forty-two ferry crossings in March. The breakwater was repaired in April."));
  ({ workspaceId: ids.ledger, documentId: ids.ledgerDoc } = await workspace("Ledger", "The ledger shows the lighthouse fund held 9,310 pounds at the close of the year."));
});

afterAll(async () => {
  globalThis.__docuchatRuntime = undefined;
  await env?.cleanup();
});

describe("clients that already speak a protocol", () => {
  it("the official openai client lists the workspaces as models and asks one, plain and streamed, with citations", async () => {
    const token = await mint({ scope: "chosen", workspaceIds: [ids.harbour], permissions: ["read", "ask"] });
    const billing = env.runtime.container.get(BillingQueries);
    const asked = async () => (await billing.overview(ada)).usage.messages.monthly.used;
    const askedBefore = await asked();
    const openai = new OpenAI({ apiKey: token, baseURL: `${ORIGIN}/api/v1`, fetch: fetchApp, maxRetries: 0 });
    const models = await openai.models.list();
    expect(models.data.map((m) => m.id)).toEqual([`workspace-${ids.harbour}`]);

    const completion = await openai.chat.completions.create({ model: `workspace-${ids.harbour}`, messages: [{ role: "user", content: "How many ferry crossings did the harbour master log in March?" }] });
    expect(completion.choices[0]!.message.content).toContain("forty-two");
    const citations = (completion as unknown as { citations: { document_id: string; url: string }[] }).citations;
    expect(citations[0]).toMatchObject({ document_id: ids.harbourDoc });
    expect(citations[0]!.url).toBe(`${ORIGIN}/document/${ids.harbourDoc}?page=1`);

    const stream = await openai.chat.completions.create({ model: `workspace-${ids.harbour}`, stream: true, messages: [{ role: "user", content: "How many ferry crossings did the harbour master log in March?" }] });
    let text = "";
    let streamedCitations: unknown = null;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? "";
      streamedCitations ??= (chunk as unknown as { citations?: unknown }).citations ?? null;
    }
    expect(text).toContain("forty-two");
    expect(streamedCitations).toEqual([expect.objectContaining({ document_id: ids.harbourDoc })]);
    // Both questions count against the owner's plan, as questions on the page do.
    expect(await asked()).toBe(askedBefore + 2);

    // The workspace outside the token's scope is no model it may use.
    await expect(openai.chat.completions.create({ model: `workspace-${ids.ledger}`, messages: [{ role: "user", content: "What did the fund hold?" }] })).rejects.toMatchObject({ status: 404 });
  });

  it("the MCP SDK's client lists the tools, asks, searches and reads a page, with citations linking to the viewer", async () => {
    const token = await mint({ permissions: ["read", "ask"] });
    const client = new Client({ name: "test", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${ORIGIN}/mcp`), { fetch: fetchApp, requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
    expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual(["ask_workspace", "list_workspaces", "read_page", "search_workspace"]);

    const asked = await client.callTool({ name: "ask_workspace", arguments: { workspace_id: ids.ledger, question: "How much did the lighthouse fund hold at the close of the year?" } });
    expect(asked.isError).toBeFalsy();
    expect((asked.structuredContent as { answer: string }).answer).toContain("9,310");
    expect((asked.structuredContent as { citations: { url: string }[] }).citations[0]!.url).toBe(`${ORIGIN}/document/${ids.ledgerDoc}?page=1`);

    const searched = await client.callTool({ name: "search_workspace", arguments: { workspace_id: ids.harbour, query: "breakwater repaired" } });
    expect((searched.structuredContent as { passages: { document_id: string; span: string }[] }).passages[0]).toMatchObject({ document_id: ids.harbourDoc, span: expect.stringContaining("breakwater") });

    const page = await client.callTool({ name: "read_page", arguments: { document_id: ids.ledgerDoc, page: 1 } });
    expect((page.content as { text: string }[])[0]!.text).toContain("lighthouse fund");
    await client.close();

    // Without a token the MCP endpoint answers 401 before any tool runs.
    const anonymous = await handleMcpRequest(new Request(`${ORIGIN}/mcp`, { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" }));
    expect(anonymous.status).toBe(401);
  });
});

describe("attacks", () => {
  it("outside its scope or without the permission, a token gets 404 or 403 and nothing changes", async () => {
    const scoped = await mint({ scope: "chosen", workspaceIds: [ids.harbour], permissions: ["read"] });
    expect((await call(scoped, "GET", "/token")).status).toBe(200); // its first use is summarised now, not during the attacks
    const before = await head();
    expect((await call(scoped, "GET", `/workspaces/${ids.ledger}`)).status).toBe(404);
    expect((await call(scoped, "GET", `/documents/${ids.ledgerDoc}`)).status).toBe(404);
    expect((await call(scoped, "GET", `/documents/${ids.ledgerDoc}/pages/1`)).status).toBe(404);
    expect((await call(scoped, "GET", `/workspaces/${ids.ledger}/search?q=lighthouse`)).status).toBe(404);
    const listed = (await (await call(scoped, "GET", "/workspaces")).json()) as { data: { id: string }[] };
    expect(listed.data.map((w) => w.id)).toEqual([ids.harbour]);
    // Read only: asking, uploading, creating and deleting are refused with the permission named.
    const asked = await call(scoped, "POST", "/conversations", { workspace_id: ids.harbour });
    expect(asked.status).toBe(403);
    expect(asked.headers.get("Content-Type")).toBe("application/problem+json");
    expect(await asked.json()).toMatchObject({ status: 403, code: "TOKEN_PERMISSION" });
    expect((await call(scoped, "DELETE", `/documents/${ids.harbourDoc}`)).status).toBe(403);
    expect((await call(scoped, "POST", "/workspaces", { name: "x", document_ids: [ids.harbourDoc] })).status).toBe(403);
    // Upload permission on chosen workspaces still cannot make resources outside them.
    const uploader = await mint({ scope: "chosen", workspaceIds: [ids.harbour], permissions: ["read", "upload"] });
    expect((await call(uploader, "GET", "/token")).status).toBe(200);
    const beforeUploader = await head();
    expect(await (await call(uploader, "DELETE", `/documents/${ids.harbourDoc}`)).json()).toMatchObject({ status: 403, code: "TOKEN_SCOPE" });
    expect(await head()).toBe(beforeUploader);
    // Another user's all-workspaces token reaches none of Ada's things.
    const eve = (await signedInUser(env.runtime, "eveintruder")).id;
    const eveToken = (await env.runtime.container.get(AccessTokenService).create(eve, { name: "Eve", expiresIn: "none", scope: "all", permissions: ["read", "ask", "upload"] }, ctx(eve))).token;
    minted.push(eveToken);
    expect((await call(eveToken, "GET", "/token")).status).toBe(200);
    const beforeEve = await head();
    expect((await call(eveToken, "GET", `/workspaces/${ids.harbour}`)).status).toBe(404);
    expect((await call(eveToken, "DELETE", `/documents/${ids.harbourDoc}`)).status).toBe(404);
    expect((await call(eveToken, "POST", "/conversations", { workspace_id: ids.harbour })).status).toBe(404);
    expect((await call(eveToken, "POST", "/workspaces", { name: "Borrowed", document_ids: [ids.harbourDoc] })).status).toBe(404);
    expect((await call(scoped, "GET", `/documents/${ids.harbourDoc}`)).status).toBe(200);
    expect(await head()).toBe(beforeEve);
    expect(beforeEve).toBeGreaterThan(before); // only Eve's own sign-up and token happened in between
  });

  it("a revoked or expired token gets 401; a token cannot be minted while an admin impersonates", async () => {
    const service = env.runtime.container.get(AccessTokenService);
    const { token: revoked, tokenId } = await service.create(ada, { name: "Revoked", expiresIn: "none", scope: "all", permissions: ["read"] }, ctx(ada));
    minted.push(revoked);
    expect((await call(revoked, "GET", "/token")).status).toBe(200);
    await service.revoke(ada, tokenId, ctx(ada));
    // Revocation is decided on the token's stream: the very next request is refused.
    const after = await call(revoked, "GET", "/token");
    expect(after.status).toBe(401);
    const listed = await service.list(ada);
    expect(listed.find((t) => t.id === tokenId)!.revokedAt).not.toBeNull();
    const stillLive = listed.filter((t) => !t.revokedAt).length;
    expect(after.headers.get("WWW-Authenticate")).toContain("Bearer");

    const expiring = await mint({ expiresIn: "30" });
    expect((await call(expiring, "GET", "/token")).status).toBe(200);
    env.clock.advance(30 * 86_400_000 + 1000);
    expect((await call(expiring, "GET", "/token")).status).toBe(401);
    expect((await service.list(ada)).filter((t) => t.expired).length).toBeGreaterThanOrEqual(stillLive);
    env.clock.advance(-(30 * 86_400_000 + 1000));

    await expect(service.create(ada, { name: "Admin's", expiresIn: "none", scope: "all", permissions: ["read"] }, ctx(ada, { impersonatorId: "an-admin" }))).rejects.toMatchObject({ code: "IMPERSONATION_READ_ONLY" });
    expect((await call("dcp_00000000000000000000000000000000_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", "GET", "/token")).status).toBe(401);
    expect((await handleApiRequest(new Request(`${ORIGIN}/api/v1/token`))).status).toBe(401);
  });

  it("the rate limit answers 429 with Retry-After", async () => {
    const token = await mint({});
    let last: Response | null = null;
    for (let i = 0; i <= RATE_LIMIT && last?.status !== 429; i++) last = await call(token, "GET", "/token");
    expect(last!.status).toBe(429);
    expect(Number(last!.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(await last!.json()).toMatchObject({ status: 429, code: "RATE_LIMITED" });
  });

  it("the account audit replays each token's creation, use summaries and revocation", async () => {
    const rows = (await env.runtime.container.get(AccountAudit).history(ada)).rows.map((r) => `${r.type}: ${r.details}`);
    expect(rows.some((r) => r.startsWith("access: AccessTokenCreated: token 'Revoked'"))).toBe(true);
    expect(rows.some((r) => r.startsWith("access: AccessTokenUsed"))).toBe(true);
    expect(rows.some((r) => r.startsWith("access: AccessTokenRevoked: token revoked by its owner"))).toBe(true);
  });

  it("an account scheduled for deletion may read but not change; once purged, its tokens die with it", async () => {
    const carol = (await signedInUser(env.runtime, "carolleaving")).id;
    const service = env.runtime.container.get(AccessTokenService);
    const { token } = await service.create(carol, { name: "Carol's", expiresIn: "none", scope: "all", permissions: ["read", "ask", "upload"] }, ctx(carol));
    minted.push(token);
    await env.runtime.container.get(AccountDeletionService).schedule(carol, { reason: "Lack of Use", confirmation: "Delete My Account" }, ctx(carol));
    await settle(env.runtime);
    expect((await call(token, "GET", "/workspaces")).status).toBe(200);
    expect(await (await call(token, "POST", "/documents/from-url", { url: "https://example.com/a.pdf" })).json()).toMatchObject({ status: 403, code: "ACCOUNT_PENDING_DELETE" });
    env.clock.advance(env.runtime.config.accountDeletionGraceMs);
    const engine = env.runtime.get<WorkflowEngine>(TOKENS.WorkflowEngine);
    expect(await engine.waitForCompletion(accountDeletionWorkflowId(carol), 20_000)).toMatchObject({ status: "completed", result: { purged: true } });
    await settle(env.runtime);
    expect((await call(token, "GET", "/token")).status).toBe(401);
    expect(await service.list(carol)).toEqual([]);
  });

  it("no token is written anywhere: logs, events, read models, any file of the data folder", async () => {
    await settle(env.runtime);
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const entry of readdirSync(dir)) {
        const file = path.join(dir, entry);
        if (statSync(file).isDirectory()) walk(file);
        else files.push(file);
      }
    };
    walk(env.dataDir);
    expect(files.some((f) => f.endsWith("app.log"))).toBe(true);
    expect(minted.length).toBeGreaterThan(5);
    for (const file of files) {
      const bytes = readFileSync(file);
      for (const token of minted) {
        // The secret part alone, too: it must not appear even without its prefix.
        const at = bytes.indexOf(/^dcp_[0-9a-f]{32}_(.{43})$/.exec(token)![1]!);
        expect(at < 0, `${path.relative(env.dataDir, file)} holds a token: ${at >= 0 ? bytes.subarray(Math.max(0, at - 300), at + 100).toString("latin1") : ""}`).toBe(true);
      }
    }
  });
});
