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
import type { EventStore } from "#application/ports/event-store";
import type { IdGenerator } from "#application/ports/ids";
import type { WorkflowEngine } from "#application/ports/workflow";
import { Aggregate } from "#application/shared/aggregate";
import { workspaceAggregate } from "#domain/workspace/workspace-events";
import { egressFor, type LocalSite, startLocalSite } from "#infrastructure/egress/testing/local-site";
import { embeddingRequest, embeddingResponse, errorBody, writeStream } from "#infrastructure/ai/testing/provider-wire";
import type { SearchIndex } from "#application/ports/search-index";
import { embeddingSpace } from "#domain/workspace/workspace";
import { workspaceEmbeddingWorkflowId } from "#workflows/workspace-embedding";
import { rmSync } from "node:fs";
import { createTestRuntime } from "../support/test-runtime";
import { settle, uploadTextDocument } from "../support/library-fixtures";
import { signedInUser } from "../support/route-session";
import { AccessTokenService } from "#application/identity/access-tokens";
import { handleApiRequest } from "#app/public-api/router.server";
import { action as askOnPage } from "#app/routes/api.conversations.$id.messages_stream";

/**
 * The product's own keyset backed by the operator's model (issue #29,
 * decision 190): a local OpenAI-compatible server plays scripted model output
 * — streamed text whose sentences cite passages by number, a refusal, a marker
 * naming a passage it was never given, a failure before and in the middle of
 * the stream — and the operator's key is looked for in every response, log
 * line, event and read model.
 */

const HOST = "models.operator.test";
const KEY = "sk-operator-KEY-0b1c2d3e4f5a6978";
const MODEL = "llama3.2";
const ctx = (userId: string): RequestContext => ({ requestId: "r", clientAddress: "127.0.0.1", actorId: userId });

type Script = "answer" | "refusal" | "cut" | "fail" | "cut before text" | "silent" | "overloaded";
let script: Script = "answer";
let env: Awaited<ReturnType<typeof createTestRuntime>> | undefined;
let site: LocalSite | undefined;
let logged = "";
/** The last user message of each chat completion, and whether it streamed. */
const requests: { stream: boolean; prompt: string; system: string }[] = [];

afterEach(async () => {
  await env?.cleanup();
  await site?.close();
  env = undefined;
  site = undefined;
  logged = "";
  script = "answer";
  requests.length = 0;
});

/** The passage number the prompt gave the text containing `word`. */
function passageWith(prompt: string, word: string): number {
  const passages = [...prompt.matchAll(/^\[(\d+)\] [^\n]*, page \d+:\n([^]*?)(?=\n\n\[\d+\] |\n\nQuestion:)/gm)];
  return Number(passages.find((p) => p[2].includes(word))?.[1] ?? 0);
}

async function setUp(extraEnv: Record<string, string> = {}) {
  site = await startLocalSite((req, res) => {
    let raw = "";
    req.on("data", (c: Buffer) => (raw += c.toString()));
    req.on("end", () => {
      if (req.headers.authorization !== `Bearer ${KEY}`) {
        const { contentType, body } = errorBody("openai", 401);
        return res.writeHead(401, { "content-type": contentType }).end(body);
      }
      const body = JSON.parse(raw) as { stream?: boolean; messages: { role: string; content: string }[] };
      const prompt = [...body.messages].reverse().find((m) => m.role === "user")?.content ?? "";
      const system = body.messages.find((m) => m.role === "system")?.content ?? "";
      requests.push({ stream: body.stream === true, prompt, system });
      if (!body.stream) {
        // The query rewrite: other wordings, one per line.
        const content = "fermentation of tea leaves\nblack tea processing";
        res.writeHead(200, { "content-type": "application/json" });
        return res.end(JSON.stringify({ id: "c", object: "chat.completion", created: 1, model: MODEL, choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }], usage: { prompt_tokens: 9, completion_tokens: 9, total_tokens: 18 } }));
      }
      if (script === "fail") {
        const { contentType, body: error } = errorBody("openai", 500);
        return res.writeHead(500, { "content-type": contentType }).end(error);
      }
      if (script === "overloaded") {
        const { contentType, body: error } = errorBody("openai", 429);
        return res.writeHead(429, { "content-type": contentType, "retry-after": "60" }).end(error);
      }
      // Never a first token: the server holds the request until the caller gives up.
      if (script === "silent") return;
      if (script === "refusal") return writeStream("openai", res, ["The documents do not say ", "which tea is the sweetest."], { input: 50, output: 9 }, MODEL);
      const black = passageWith(prompt, "Black tea");
      const chunks = [`Black tea is fully oxidised [${black}`, "]. Nothing else is [", "9]."];
      writeStream("openai", res, chunks, { input: 120, output: 14 }, MODEL, script === "cut" ? 1 : script === "cut before text" ? 0 : undefined);
    });
  }, HOST);
  const sink = new Writable({
    write(chunk, _enc, done) {
      logged += chunk.toString();
      done();
    },
  });
  env = await createTestRuntime({
    egress: egressFor(HOST),
    logger: pino({ level: "trace" }, sink),
    env: { PRODUCT_KEYSET_TEXT_BASE_URL: `${site.origin}/v1`, PRODUCT_KEYSET_TEXT_MODEL: MODEL, PRODUCT_KEYSET_TEXT_API_KEY: KEY, ...extraEnv },
  });
  return env;
}

async function workspaceFor(userId: string) {
  const doc = await uploadTextDocument(env!.runtime, userId, "tea.txt", "Green tea is not oxidised. Black tea is fully oxidised.");
  const { workspaceId } = await env!.runtime.container.get(WorkspaceService).create(userId, { name: "Tea", type: "Conversation", documentIds: [doc] }, ctx(userId));
  await env!.runtime.get<WorkflowEngine>(TOKENS.WorkflowEngine).waitForCompletion(`workspace-launch-${workspaceId}`, 20_000);
  await settle(env!.runtime);
  return { doc, workspace: await env!.runtime.container.get(WorkspaceQueries).get(userId, workspaceId) };
}

async function ask(userId: string, conversationId: string, text: string) {
  const stream: AsyncGenerator<AnswerStreamEvent> = env!.runtime.container.get(ConversationService).ask(userId, conversationId, { text }, ctx(userId));
  const texts: string[] = [];
  try {
    for await (const event of stream) {
      if (event.type === "text") texts.push(event.text);
      else return { text: texts.join(""), metadata: event.metadata, error: null };
    }
  } catch (error) {
    return { text: texts.join(""), metadata: null, error: error as Error & { code?: string } };
  }
  throw new Error("the answer ended without metadata");
}

const messagesUsed = async (userId: string) => (await env!.runtime.container.get(UsageCounters).usage(userId, "messages", env!.clock.now())).monthly.used;

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? files(full) : [full];
  });
}

describe("the product's keyset backed by the operator's model", () => {
  it("answers a new user with no keys through the operator's model: numbered passages in, per-sentence citations out, counted on the plan", async () => {
    await setUp();
    const { doc, workspace } = await workspaceFor("alice");
    expect(workspace.chatPreference.text).toEqual({ keysetId: "docuchat", model: "docuchat-extractive" });

    const answer = await ask("alice", workspace.session.activeConversationId!, "Is black tea oxidised?");
    expect(answer.error).toBeNull();
    // The marker naming passage 9, which the model was never given, is gone with its space; the real one is the first source.
    expect(answer.text).toBe("Black tea is fully oxidised [1]. Nothing else is.");
    expect(answer.metadata!.citations).toEqual([{ documentId: doc, pageNumber: 1, quote: "Green tea is not oxidised. Black tea is fully oxidised." }]);
    expect(answer.metadata!.model).toBe(`openai-compatible:${MODEL}`);
    expect(await messagesUsed("alice")).toBe(1);

    const streamed = requests.filter((r) => r.stream);
    expect(streamed).toHaveLength(1);
    expect(streamed[0].prompt).toMatch(/^Passages:\n\n\[1\] tea\.txt, page 1:\nGreen tea/);
    expect(streamed[0].prompt).toMatch(/Question: Is black tea oxidised\?$/);
    expect(streamed[0].system).toContain("Answer in English.");
    expect(streamed[0].system).toMatch(/passages do not contain the answer, say/);
    // The question was reworded once, without streaming, before retrieval.
    const rewrite = requests.find((r) => !r.stream);
    expect(rewrite?.prompt).toContain("Question: Is black tea oxidised?");

    // Chat Settings, the wizard and the upload screen list it under the product's name with the operator's model.
    const [product] = await env!.runtime.container.get(KeysetModels).availableFor("alice");
    expect(product).toMatchObject({ keysetId: "docuchat", keysetName: "DocuChat", operated: true, models: [{ id: "docuchat-extractive", label: MODEL }] });
    const reloaded = await env!.runtime.container.get(ConversationService).messages("alice", workspace.session.activeConversationId!);
    expect(reloaded.at(-1)).toMatchObject({ sender: "BOT", status: "complete", model: `openai-compatible:${MODEL}` });
  });

  it("passes on a refusal without citations", async () => {
    await setUp();
    const { workspace } = await workspaceFor("alice");
    script = "refusal";
    const answer = await ask("alice", workspace.session.activeConversationId!, "Which tea is the sweetest?");
    expect(answer.text).toBe("The documents do not say which tea is the sweetest.");
    expect(answer.metadata!.citations).toEqual([]);
  });

  it("tells the user when the operator's provider fails before or during the answer, and keeps the question", async () => {
    await setUp();
    const { workspace } = await workspaceFor("alice");
    const conversationId = workspace.session.activeConversationId!;
    script = "fail";
    const failed = await ask("alice", conversationId, "Is black tea oxidised?");
    expect(failed.error).toMatchObject({ code: "PROVIDER_ERROR", message: expect.stringMatching(/^DocuChat's model could not answer\. Please try again in a moment, or answer with your own provider key/) });
    script = "cut";
    const cut = await ask("alice", conversationId, "Is black tea oxidised?");
    expect(cut.text).toMatch(/^Black tea is fully/);
    expect(cut.error).toMatchObject({ code: "PROVIDER_STREAM_CUT", message: expect.stringMatching(/^DocuChat's model stopped in the middle of the answer\. Please regenerate/) });
    await settle(env!.runtime);
    const messages = await env!.runtime.container.get(ConversationService).messages("alice", conversationId);
    expect(messages.filter((m) => m.sender === "BOT").map((m) => m.status)).toEqual(["interrupted", "interrupted"]);
    expect(messages.filter((m) => m.sender === "USER")).toHaveLength(2);
  });

  it("lets the offline model answer for a failing provider only when the operator allowed it, and says so", async () => {
    await setUp({ PRODUCT_KEYSET_OFFLINE_FALLBACK: "true" });
    const { doc, workspace } = await workspaceFor("alice");
    script = "fail";
    const answer = await ask("alice", workspace.session.activeConversationId!, "Is black tea oxidised?");
    expect(answer.error).toBeNull();
    expect(answer.text).toMatch(/^\*DocuChat's model could not answer, so this answer quotes your documents with the offline model\.\*\n\n/);
    expect(answer.metadata!.model).toBe("docuchat-extractive");
    expect(answer.metadata!.citations.map((c) => c.documentId)).toEqual([doc]);
    await settle(env!.runtime);
    const messages = await env!.runtime.container.get(ConversationService).messages("alice", workspace.session.activeConversationId!);
    expect(messages.at(-1)).toMatchObject({ status: "complete", model: "docuchat-extractive" });
  });

  it("never lets the operator's key reach a response, a log line, an event or a read model", async () => {
    await setUp();
    const { workspace } = await workspaceFor("alice");
    const responses: unknown[] = [];
    responses.push(await ask("alice", workspace.session.activeConversationId!, "Is black tea oxidised?"));
    script = "fail";
    const failed = await ask("alice", workspace.session.activeConversationId!, "Is black tea oxidised?");
    responses.push({ ...failed, error: failed.error?.message });
    responses.push(await env!.runtime.container.get(KeysetModels).availableFor("alice"));
    responses.push(await env!.runtime.container.get(KeysetService).defaults("alice"));
    responses.push(await env!.runtime.container.get(ConversationService).overview("alice", workspace.session.activeConversationId!));
    await settle(env!.runtime);
    expect(requests.length).toBeGreaterThan(2);
    expect(JSON.stringify(responses)).not.toContain(KEY);
    expect(logged.length).toBeGreaterThan(0);
    expect(logged).not.toContain(KEY);
    const events = await env!.runtime.get<EventStore>(TOKENS.EventStore).readAll(0, 100_000);
    expect(events.length).toBeGreaterThan(10);
    expect(JSON.stringify(events)).not.toContain(KEY);
    // The event log, the read models and everything else on disk.
    for (const file of files(env!.dataDir)) expect(readFileSync(file).includes(Buffer.from(KEY)), file).toBe(false);
  });
});

describe("usage is counted by the command that answers (issue #30 item 7)", () => {
  it("counts a question the product's keyset answers because the workspace's keyset is gone, before any fallback was recorded", async () => {
    env = await createTestRuntime();
    const { workspace } = await workspaceFor("alice");
    // A preference naming a keyset that is no longer there, as in the moment after a deletion before the workspace falls back.
    const workspaces = new Aggregate(env.runtime.get<EventStore>(TOKENS.EventStore), env.runtime.get<IdGenerator>(TOKENS.Ids), workspaceAggregate);
    const gone = { keysetId: "01900000-0000-7000-8000-000000000000", model: MODEL };
    await workspaces.handle(
      workspace.id,
      { type: "ChangeChatPreference", chatPreference: { text: gone, image: gone, embedding: null }, now: env.clock.now() },
      { metadata: { correlationId: "stale-preference", actorId: "alice", subjectId: "alice" } },
    );
    await settle(env.runtime);
    expect((await env.runtime.container.get(WorkspaceQueries).get("alice", workspace.id)).chatPreference.text).toEqual(gone);

    const answer = await ask("alice", workspace.session.activeConversationId!, "Is black tea oxidised?");
    expect(answer.metadata!.model).toBe("docuchat-extractive");
    expect(await messagesUsed("alice")).toBe(1);
  });
});

describe("a failed answer through the product's model (issue 44 items 3 and 4)", () => {
  it("is not charged and answers a server error, on the page's stream and the public API alike, for each way of failing", async () => {
    await setUp({ PRODUCT_KEYSET_TIMEOUT_MS: "1000" });
    globalThis.__docuchatRuntime = Promise.resolve(env!.runtime);
    try {
      const alice = await signedInUser(env!.runtime, "alice", { csrf: true });
      const { workspace } = await workspaceFor(alice.id);
      const conversationId = workspace.session.activeConversationId!;
      const { token } = await env!.runtime.container.get(AccessTokenService).create(alice.id, { name: "Bot", expiresIn: "30", scope: "all", permissions: ["read", "ask"] }, ctx(alice.id));
      const onPage = async () =>
        (await askOnPage({
          request: new Request(`http://localhost/api/conversations/${conversationId}/messages_stream`, {
            method: "POST",
            headers: { Cookie: alice.cookie, "Content-Type": "application/json", "X-CSRF-Token": "csrf-token" },
            body: JSON.stringify({ text: "Is black tea oxidised?" }),
          }),
          params: { id: conversationId },
          context: {},
        })) as Response;
      const api = (path: string, body: unknown) =>
        handleApiRequest(
          new Request(`http://docuchat.test/api/v1${path}`, {
            method: "POST",
            headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
            body: JSON.stringify(body),
          }),
        );
      const ways = [
        { way: "fail" as const, status: 502, code: "PROVIDER_ERROR" },
        { way: "cut before text" as const, status: 502, code: "PROVIDER_ERROR" },
        { way: "silent" as const, status: 504, code: "PROVIDER_TIMEOUT" },
        { way: "overloaded" as const, status: 503, code: "PROVIDER_OVERLOADED" },
      ];
      for (const { way, status, code } of ways) {
        script = way;
        const answers = [
          await onPage(),
          await api(`/conversations/${conversationId}/messages`, { question: "Is black tea oxidised?", stream: true }),
          await api("/chat/completions", { model: `workspace-${workspace.id}`, messages: [{ role: "user", content: "Is black tea oxidised?" }] }),
        ];
        for (const answer of answers) {
          const body = await answer.text();
          expect({ way, status: answer.status, code: body.startsWith("{") ? (JSON.parse(body) as { code?: string }).code : body }).toEqual({ way, status, code });
          expect(answer.headers.get("Retry-After")).toBe(way === "overloaded" ? "60" : null);
        }
      }
      expect(await messagesUsed(alice.id)).toBe(0);
      // What the chat said live ("could not answer") is what a reload shows: the question, and its answer interrupted.
      await settle(env!.runtime);
      const messages = await env!.runtime.container.get(ConversationService).messages(alice.id, conversationId);
      expect(messages.filter((m) => m.sender === "USER")).toHaveLength(ways.length * 2);
      expect(new Set(messages.filter((m) => m.sender === "BOT").map((m) => m.status))).toEqual(new Set(["interrupted"]));

      // Regenerating a failed answer is its first answer: counted once, and not again.
      script = "answer";
      const conversations = env!.runtime.container.get(ConversationService);
      const failedQuestion = messages.find((m) => m.sender === "USER")!.id;
      for (let i = 0; i < 2; i++) {
        for await (const _ of conversations.ask(alice.id, conversationId, { text: "", regenerateQuestionId: failedQuestion }, ctx(alice.id))) {
          // only the count matters
        }
      }
      expect(await messagesUsed(alice.id)).toBe(1);
    } finally {
      globalThis.__docuchatRuntime = undefined;
    }
  });
});

describe("the operator's embedding model", () => {
  it("embeds new workspaces in the background, and re-embeds them into the new model's own space when the operator changes it", async () => {
    /** Which model embedded which text, in order. */
    const embedded: { model: string; text: string }[] = [];
    site = await startLocalSite((req, res) => {
      let raw = "";
      req.on("data", (c: Buffer) => (raw += c.toString()));
      req.on("end", () => {
        const request = embeddingRequest("openai", JSON.parse(raw));
        if (req.url !== "/v1/embeddings" || !request) return res.writeHead(404).end();
        for (const text of request.texts) embedded.push({ model: request.model ?? "", text });
        const vectors = request.texts.map((text) => (request.model === "embed-a" ? [1, 0, text.length % 5] : [0, 1, text.length % 3, 1]));
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify(embeddingResponse("openai", vectors, request.texts, request.model ?? "")));
      });
    }, HOST);
    const operator = (model: string, dataDir?: string) =>
      createTestRuntime({
        egress: egressFor(HOST),
        env: { PRODUCT_KEYSET_EMBEDDING_BASE_URL: `${site!.origin}/v1`, PRODUCT_KEYSET_EMBEDDING_MODEL: model, ...(dataDir ? { DATA_DIR: dataDir } : {}) },
      });
    const first = await operator("embed-a");
    env = first;
    const { doc, workspace } = await workspaceFor("alice");
    expect(workspace.chatPreference.embedding).toEqual({ keysetId: "docuchat", model: "embed-a" });
    await first.runtime.get<WorkflowEngine>(TOKENS.WorkflowEngine).waitForCompletion(workspaceEmbeddingWorkflowId(workspace.id, 1), 20_000);
    expect(embedded.map((e) => e.model)).toEqual(["embed-a"]);
    await first.runtime.stop();

    // The operator switches models and restarts: the workspace moves to the new model and is embedded again, with progress.
    env = await operator("embed-b", first.dataDir);
    try {
      await env.runtime.get<WorkflowEngine>(TOKENS.WorkflowEngine).waitForCompletion(workspaceEmbeddingWorkflowId(workspace.id, 2), 20_000);
      await settle(env.runtime);
      const moved = await env.runtime.container.get(WorkspaceQueries).get("alice", workspace.id);
      expect(moved.chatPreference.embedding).toEqual({ keysetId: "docuchat", model: "embed-b" });
      expect(moved.embeddingIndex).toMatchObject({ revision: 2, model: "embed-b", status: "ready", done: 1, total: 1, failures: [] });
      const index = env.runtime.get<SearchIndex>(TOKENS.SearchIndex);
      expect(await index.countVectors(embeddingSpace({ keysetId: "docuchat", model: "embed-b" }), doc)).toBe(await index.countChunks(doc));
      // A question is embedded by the new model only: the old space is never searched with its vectors.
      await ask("alice", moved.session.activeConversationId!, "Is black tea oxidised?");
      expect(embedded.filter((e) => e.text === "Is black tea oxidised?").map((e) => e.model)).toEqual(["embed-b"]);
    } finally {
      rmSync(first.dataDir, { recursive: true, force: true });
    }
  });
});

