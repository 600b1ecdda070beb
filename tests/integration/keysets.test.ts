import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { Writable } from "node:stream";
import pino from "pino";
import { afterEach, describe, expect, it } from "vitest";
import type { RequestContext } from "#application/shared/request-context";
import { type AnswerStreamEvent, ConversationService } from "#application/conversation/conversation-service";
import { UsageCounters } from "#application/billing/usage-counters";
import { KeysetModels } from "#application/identity/keyset-models";
import { KeysetService } from "#application/identity/keyset-service";
import { WorkspaceQueries } from "#application/workspace/workspace-queries";
import { WorkspaceService } from "#application/workspace/workspace-service";
import { TOKENS } from "#application/tokens";
import type { WorkflowEngine } from "#application/ports/workflow";
import { egressFor, type LocalSite, startLocalSite } from "#infrastructure/egress/testing/local-site";
import { errorBody, writeStream } from "#infrastructure/ai/testing/provider-wire";
import { createTestRuntime } from "../support/test-runtime";
import { settle, uploadTextDocument } from "../support/library-fixtures";

/**
 * Keysets end to end on the embedded runtime: an OpenAI-compatible server on
 * 127.0.0.1 (reached through the egress allow-list) answers the whole chat;
 * ownership, reveal, deletion fallback and the egress refusal are checked.
 */

const HOST = "llm.example.test";
const KEY = "sk-local-SECRET-9f8e7d6c5b4a";
const ctx = (userId: string, impersonatorId?: string): RequestContext => ({ requestId: "r", clientAddress: "127.0.0.1", actorId: userId, impersonatorId });

let env: Awaited<ReturnType<typeof createTestRuntime>> | undefined;
let site: LocalSite | undefined;
let logged = "";
let mode: "ok" | "401" = "ok";
const chatRequests: { model: string; messages: { role: string; content: unknown }[] }[] = [];
afterEach(async () => {
  await env?.cleanup();
  await site?.close();
  env = undefined;
  site = undefined;
  logged = "";
  mode = "ok";
  chatRequests.length = 0;
});

async function setUp() {
  site = await startLocalSite((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => {
      if (req.headers.authorization !== `Bearer ${KEY}` || mode === "401") {
        const { contentType, body: err } = errorBody("openai", 401);
        res.writeHead(401, { "content-type": contentType });
        return res.end(err);
      }
      if (req.method === "GET" && req.url === "/v1/models") {
        res.writeHead(200, { "content-type": "application/json" });
        return res.end(JSON.stringify({ object: "list", data: [{ id: "llama3.2", object: "model" }, { id: "qwen2.5", object: "model" }, { id: "llava", object: "model" }] }));
      }
      chatRequests.push(JSON.parse(body));
      // Cite the first passage, plus one the model was never given.
      writeStream("openai", res, ["Black tea ", "is fully oxidised [1][", "7]."], { input: 40, output: 8 }, "llama3.2");
    });
  }, HOST);
  const sink = new Writable({
    write(chunk, _enc, done) {
      logged += chunk.toString();
      done();
    },
  });
  env = await createTestRuntime({ egress: egressFor(HOST), logger: pino({ level: "trace" }, sink) });
  return env;
}

const keysets = () => env!.runtime.container.get(KeysetService);
const addLocalKey = (userId: string, name = "My Ollama") =>
  keysets().add(userId, { name, apiKey: KEY, provider: "OpenAI-compatible", subProvider: "Ollama", endpoint: `${site!.origin}/v1` }, ctx(userId));

async function workspaceWith(userId: string, text: string) {
  const doc = await uploadTextDocument(env!.runtime, userId, "tea.txt", text);
  const { workspaceId } = await env!.runtime.container.get(WorkspaceService).create(userId, { name: "Tea", type: "Conversation", documentIds: [doc] }, ctx(userId));
  await env!.runtime.get<WorkflowEngine>(TOKENS.WorkflowEngine).waitForCompletion(`workspace-launch-${workspaceId}`, 20_000);
  await settle(env!.runtime);
  return { doc, workspace: await env!.runtime.container.get(WorkspaceQueries).get(userId, workspaceId) };
}

async function collect(stream: AsyncGenerator<AnswerStreamEvent>) {
  const texts: string[] = [];
  for await (const event of stream) {
    if (event.type === "text") texts.push(event.text);
    else return { text: texts.join(""), metadata: event.metadata };
  }
  throw new Error("no metadata");
}

describe("keysets", () => {
  it("runs the whole chat through a user's OpenAI-compatible keyset with validated citations", async () => {
    await setUp();
    const added = await addLocalKey("alice");
    expect(added.models).toEqual(["llama3.2", "llava", "qwen2.5"]);
    const { doc, workspace } = await workspaceWith("alice", "Green tea is not oxidised. Black tea is fully oxidised.");
    await env!.runtime.container.get(WorkspaceService).changeChatPreference(
      "alice",
      workspace.id,
      { text: { keysetId: added.keysetId, model: "llama3.2" }, image: workspace.chatPreference.image, embedding: null },
      ctx("alice"),
    );
    const conversations = env!.runtime.container.get(ConversationService);
    const { text, metadata } = await collect(conversations.ask("alice", workspace.session.activeConversationId!, { text: "Is black tea oxidised?" }, ctx("alice")));
    expect(text).toBe("Black tea is fully oxidised [1].");
    expect(metadata.citations).toEqual([{ documentId: doc, pageNumber: 1, quote: "Green tea is not oxidised. Black tea is fully oxidised." }]);
    expect(metadata.model).toBe("openai-compatible:llama3.2");
    expect(metadata.usage).toEqual({ inputTokens: 40, outputTokens: 8 });
    // Answered with the user's own key: not counted against the plan's messages (docs/decisions/110).
    expect((await env!.runtime.container.get(UsageCounters).usage("alice", "messages", env!.clock.now())).monthly.used).toBe(0);
    await settle(env!.runtime);
    const [listed] = await keysets().list("alice");
    expect(listed.lastUsed).not.toBeNull();
    const options = await env!.runtime.container.get(KeysetModels).availableFor("alice");
    expect(options.map((o) => o.keysetId)).toEqual(["docuchat", added.keysetId]);
    expect(options[1].models.map((m) => m.id)).toEqual(["llama3.2", "llava", "qwen2.5"]);
  });

  it("sends a question's attached image to the workspace's image model, and text-only questions to its text model", async () => {
    await setUp();
    const added = await addLocalKey("alice");
    const { workspace } = await workspaceWith("alice", "Green tea is not oxidised. Black tea is fully oxidised.");
    await env!.runtime.container.get(WorkspaceService).changeChatPreference(
      "alice",
      workspace.id,
      { text: { keysetId: added.keysetId, model: "llama3.2" }, image: { keysetId: added.keysetId, model: "llava" }, embedding: null },
      ctx("alice"),
    );
    const conversations = env!.runtime.container.get(ConversationService);
    const id = workspace.session.activeConversationId!;
    const png = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==", "base64");
    const { mediaId } = await conversations.attachImage("alice", id, png, ctx("alice"));
    const withImage = await collect(conversations.ask("alice", id, { text: "Which tea is in this picture?", mediaIds: [mediaId] }, ctx("alice")));
    expect(withImage.metadata.model).toBe("openai-compatible:llava");
    const sent = chatRequests.at(-1)!;
    expect(sent.model).toBe("llava");
    const question = sent.messages.at(-1)!;
    expect(JSON.stringify(question.content)).toContain(`data:image/png;base64,${png.toString("base64")}`);
    const textOnly = await collect(conversations.ask("alice", id, { text: "Is black tea oxidised?" }, ctx("alice")));
    expect(textOnly.metadata.model).toBe("openai-compatible:llama3.2");
    expect(JSON.stringify(chatRequests.at(-1)!.messages)).not.toContain("base64");
  });

  it("keeps the question and says so readably when the provider refuses the key", async () => {
    await setUp();
    const added = await addLocalKey("alice");
    const { workspace } = await workspaceWith("alice", "Green tea is not oxidised.");
    await env!.runtime.container.get(WorkspaceService).changeChatPreference("alice", workspace.id, { text: { keysetId: added.keysetId, model: "llama3.2" }, image: workspace.chatPreference.image, embedding: null }, ctx("alice"));
    mode = "401";
    const conversations = env!.runtime.container.get(ConversationService);
    const id = workspace.session.activeConversationId!;
    await expect(collect(conversations.ask("alice", id, { text: "Is green tea oxidised?" }, ctx("alice")))).rejects.toMatchObject({
      code: "PROVIDER_KEY_REFUSED",
      message: expect.stringMatching(/^The provider refused the key/),
    });
    await settle(env!.runtime);
    const { messages } = await conversations.get("alice", id);
    expect(messages.map((m) => [m.sender, m.status, m.sender === "USER" ? m.text : ""])).toEqual([
      ["USER", "complete", "Is green tea oxidised?"],
      ["BOT", "interrupted", ""],
    ]);
  });

  it("answers another user's keyset id like a missing one everywhere", async () => {
    await setUp();
    const { keysetId } = await addLocalKey("alice");
    const svc = keysets();
    const notFound = { code: "KEYSET_NOT_FOUND" };
    await expect(svc.get("bob", keysetId)).rejects.toMatchObject(notFound);
    await expect(svc.reveal("bob", keysetId, new Date())).rejects.toMatchObject(notFound);
    await expect(svc.edit("bob", keysetId, { name: "mine now" }, ctx("bob"))).rejects.toMatchObject(notFound);
    await expect(svc.delete("bob", keysetId, ctx("bob"))).rejects.toMatchObject(notFound);
    await expect(svc.refreshModels("bob", keysetId)).rejects.toMatchObject(notFound);
    await expect(svc.chooseDefault("bob", { scope: "text", keysetId, model: "llama3.2" }, ctx("bob"))).rejects.toMatchObject(notFound);
    const { workspace } = await workspaceWith("bob", "Bob's notes about tea.");
    await expect(
      env!.runtime.container.get(WorkspaceService).changeChatPreference("bob", workspace.id, { text: { keysetId, model: "llama3.2" }, image: workspace.chatPreference.image, embedding: null }, ctx("bob")),
    ).rejects.toMatchObject(notFound);
    // Even a preference that somehow names it resolves to the built-in model, never to alice's key.
    const model = await env!.runtime.container.get(KeysetModels).resolve("bob", { keysetId, model: "llama3.2" });
    expect(model.id).toBe("docuchat-extractive");
    expect((await svc.list("alice"))[0].name).toBe("My Ollama");
  });

  it("reveals a key only after a recent password confirmation, and keeps it out of read models, logs and the log", async () => {
    await setUp();
    const { keysetId } = await addLocalKey("alice");
    const svc = keysets();
    await expect(svc.reveal("alice", keysetId, null)).rejects.toMatchObject({ code: "REAUTH_REQUIRED" });
    await expect(svc.reveal("alice", keysetId, new Date(env!.clock.now().getTime() - 6 * 60_000))).rejects.toMatchObject({ code: "REAUTH_REQUIRED" });
    expect(await svc.reveal("alice", keysetId, new Date(env!.clock.now().getTime() - 60_000))).toEqual({ apiKey: KEY });
    await settle(env!.runtime);
    const view = await svc.get("alice", keysetId);
    expect(JSON.stringify(view)).not.toContain(KEY);
    expect(JSON.stringify(await svc.list("alice"))).not.toContain(KEY);
    expect(logged).not.toContain(KEY);
    // Nothing under the data directory (event log, read models, search index) holds the key in clear.
    const files = (dir: string): string[] => readdirSync(dir).flatMap((f) => (statSync(path.join(dir, f)).isDirectory() ? files(path.join(dir, f)) : [path.join(dir, f)]));
    for (const file of files(env!.dataDir)) expect(readFileSync(file).includes(Buffer.from(KEY)), file).toBe(false);
  });

  it("edits a keyset: rename, replace the key (checked again), change the model", async () => {
    await setUp();
    const { keysetId } = await addLocalKey("alice");
    const svc = keysets();
    await svc.edit("alice", keysetId, { name: "Renamed", model: "qwen2.5" }, ctx("alice"));
    expect(await svc.get("alice", keysetId)).toMatchObject({ name: "Renamed", model: "qwen2.5" });
    await expect(svc.edit("alice", keysetId, { apiKey: "sk-wrong" }, ctx("alice"))).rejects.toMatchObject({ code: "PROVIDER_KEY_REFUSED" });
    expect(await svc.reveal("alice", keysetId, env!.clock.now())).toEqual({ apiKey: KEY });
  });

  it("falls back to the built-in keyset and model when a default keyset is deleted", async () => {
    await setUp();
    const { keysetId } = await addLocalKey("alice");
    const svc = keysets();
    await svc.chooseDefault("alice", { scope: "text", keysetId, model: "llama3.2" }, ctx("alice"));
    expect((await svc.defaults("alice")).text).toEqual({ keysetId, model: "llama3.2" });
    const { workspace } = await workspaceWith("alice", "Green tea is not oxidised.");
    const workspaces = env!.runtime.container.get(WorkspaceService);
    await workspaces.changeChatPreference("alice", workspace.id, { text: { keysetId, model: "llama3.2" }, image: workspace.chatPreference.image, embedding: null }, ctx("alice"));
    await svc.delete("alice", keysetId, ctx("alice"));
    expect(await svc.list("alice")).toEqual([]);
    expect((await svc.defaults("alice")).text).toEqual({ keysetId: "docuchat", model: "docuchat-extractive" });
    const after = await env!.runtime.container.get(WorkspaceQueries).get("alice", workspace.id);
    expect(after.chatPreference.text).toEqual({ keysetId: "docuchat", model: "docuchat-extractive" });
    const { metadata } = await collect(env!.runtime.container.get(ConversationService).ask("alice", workspace.session.activeConversationId!, { text: "Is green tea oxidised?" }, ctx("alice")));
    expect(metadata.model).toBe("docuchat-extractive");
    await expect(svc.delete("alice", keysetId, ctx("alice"))).rejects.toMatchObject({ code: "KEYSET_NOT_FOUND" });
  });

  it("refuses an OpenAI-compatible endpoint at a private address unless its host is allow-listed", async () => {
    await setUp();
    const svc = keysets();
    const literal = `http://127.0.0.1:${site!.port}/v1`;
    await expect(
      svc.add("alice", { name: "LAN", apiKey: KEY, provider: "OpenAI-compatible", subProvider: "vLLM", endpoint: literal }, ctx("alice")),
    ).rejects.toMatchObject({ code: "PROVIDER_UNREACHABLE", message: expect.stringMatching(/not allowed/) });
    await expect(
      svc.add("alice", { name: "Meta", apiKey: KEY, provider: "OpenAI-compatible", subProvider: "Other", endpoint: "http://169.254.169.254/v1" }, ctx("alice")),
    ).rejects.toMatchObject({ code: "PROVIDER_UNREACHABLE" });
    // The allow-listed name (mapped to 127.0.0.1) is reachable.
    await expect(addLocalKey("alice")).resolves.toMatchObject({ models: ["llama3.2", "llava", "qwen2.5"] });
  });

  it("refuses changes by an admin acting as the user", async () => {
    await setUp();
    await expect(
      keysets().add("alice", { name: "x", apiKey: KEY, provider: "OpenAI-compatible", subProvider: "Ollama", endpoint: `${site!.origin}/v1` }, ctx("alice", "admin-1")),
    ).rejects.toMatchObject({ code: "IMPERSONATION_READ_ONLY" });
  });
});

describe("new workspaces", () => {
  it("start with the user's text default from Chat Settings", async () => {
    await setUp();
    const { keysetId } = await addLocalKey("alice");
    await keysets().chooseDefault("alice", { scope: "text", keysetId, model: "qwen2.5" }, ctx("alice"));
    const { workspace } = await workspaceWith("alice", "Oolong tea is partly oxidised.");
    expect(workspace.chatPreference.text).toEqual({ keysetId, model: "qwen2.5" });
    expect(workspace.chatPreference.image).toEqual({ keysetId: "docuchat", model: "docuchat-extractive" });
  });
});
