import { afterEach, describe, expect, it } from "vitest";
import type { RequestContext } from "#application/shared/request-context";
import { type AnswerStreamEvent, ConversationService } from "#application/conversation/conversation-service";
import { KeysetModels } from "#application/identity/keyset-models";
import { KeysetService } from "#application/identity/keyset-service";
import type { SearchIndex } from "#application/ports/search-index";
import type { WorkflowEngine } from "#application/ports/workflow";
import { TOKENS } from "#application/tokens";
import { WorkspaceQueries } from "#application/workspace/workspace-queries";
import { WorkspaceService } from "#application/workspace/workspace-service";
import { embeddingSpace } from "#domain/workspace/workspace";
import { egressFor, type LocalSite } from "#infrastructure/egress/testing/local-site";
import { embeddingRequest, embeddingResponse, startProviderSite, writeStream } from "#infrastructure/ai/testing/provider-wire";
import { workspaceEmbeddingWorkflowId } from "#workflows/workspace-embedding";
import { createTestRuntime } from "../support/test-runtime";
import { settle, uploadTextDocument } from "../support/library-fixtures";

/**
 * A workspace's embedding model end to end on the embedded runtime: choosing
 * it embeds every document in the background (progress on the workspace),
 * documents joining later are embedded too, and questions then reach passages
 * that share no word with them. The model server is a local OpenAI-compatible
 * one whose "embeddings" put each text on a concept axis.
 */

const HOST = "models.example.test";
const ctx = (userId: string): RequestContext => ({ requestId: "r", clientAddress: "127.0.0.1", actorId: userId });
const CONCEPTS = [/\b(cat|cats|kitten|feline|pet)\b/i, /\b(revenue|earnings|income|profit)\b/i, /\b(rain|weather|storm|forecast)\b/i];
const conceptVector = (text: string): number[] => [...CONCEPTS.map((concept) => (concept.test(text) ? 1 : 0)), 0.01];

let env: Awaited<ReturnType<typeof createTestRuntime>> | undefined;
let site: LocalSite | undefined;
let embedded: string[] = [];
let chatPrompts: string[] = [];
let refuseEmbeddings = false;
afterEach(async () => {
  await env?.cleanup();
  await site?.close();
  env = undefined;
  site = undefined;
  embedded = [];
  chatPrompts = [];
  refuseEmbeddings = false;
});

async function setUp() {
  site = await startProviderSite(HOST, (req, body, res) => {
    if (req.method === "GET" && req.url === "/v1/models") {
      res.writeHead(200, { "content-type": "application/json" });
      return res.end(JSON.stringify({ object: "list", data: [{ id: "llama3.2" }, { id: "nomic-embed-text" }, { id: "retired-embed" }] }));
    }
    if (req.url === "/v1/embeddings") {
      if (refuseEmbeddings) {
        res.writeHead(404, { "content-type": "application/json" });
        return res.end(JSON.stringify({ error: { message: "model not found", type: "invalid_request_error" } }));
      }
      const request = embeddingRequest("openai", JSON.parse(body));
      if (!request) {
        res.writeHead(400);
        return res.end();
      }
      embedded.push(...request.texts);
      res.writeHead(200, { "content-type": "application/json" });
      return res.end(JSON.stringify(embeddingResponse("openai", request.texts.map(conceptVector), request.texts, request.model ?? "")));
    }
    // Chat: cite the first passage.
    chatPrompts.push(body);
    writeStream("openai", res, ["From your files [1]."], { input: 10, output: 4 }, "llama3.2");
  });
  env = await createTestRuntime({ egress: egressFor(HOST) });
  const keyset = await env.runtime.container
    .get(KeysetService)
    .add("alice", { name: "Local models", apiKey: "sk-local", provider: "OpenAI-compatible", subProvider: "Ollama", endpoint: `${site.origin}/v1` }, ctx("alice"));
  return keyset.keysetId;
}

const engine = () => env!.runtime.get<WorkflowEngine>(TOKENS.WorkflowEngine);

async function workspaceWith(documentIds: string[]) {
  const { workspaceId } = await env!.runtime.container.get(WorkspaceService).create("alice", { name: "Mixed notes", type: "Conversation", documentIds }, ctx("alice"));
  await engine().waitForCompletion(`workspace-launch-${workspaceId}`, 20_000);
  await settle(env!.runtime);
  return workspaceId;
}

async function chooseEmbedding(workspaceId: string, keysetId: string, embedding: { keysetId: string; model: string } | null) {
  const workspaces = env!.runtime.container.get(WorkspaceService);
  await workspaces.changeChatPreference(
    "alice",
    workspaceId,
    { text: { keysetId, model: "llama3.2" }, image: { keysetId: "docuchat", model: "docuchat-extractive" }, embedding },
    ctx("alice"),
  );
}

async function collect(stream: AsyncGenerator<AnswerStreamEvent>) {
  for await (const event of stream) if (event.type === "end") return event.metadata;
  throw new Error("no metadata");
}

describe("a workspace's embedding model", () => {
  it("is offered, and accepted, only among the keyset's embedding models", async () => {
    const keysetId = await setUp();
    const [, local] = await env!.runtime.container.get(KeysetModels).availableFor("alice");
    expect(local.keysetId).toBe(keysetId);
    expect(local.embeddingModels.map((m) => m.id)).toEqual(["nomic-embed-text", "retired-embed"]);
    const pets = await uploadTextDocument(env!.runtime, "alice", "pets.txt", "Our kitten sleeps on the windowsill.");
    const workspaceId = await workspaceWith([pets]);
    await expect(chooseEmbedding(workspaceId, keysetId, { keysetId, model: "llama3.2" })).rejects.toMatchObject({
      code: "VALIDATION",
      message: "llama3.2 is not an embedding model of this keyset. Choose one of its embedding models.",
    });
    const keysets = env!.runtime.container.get(KeysetService);
    await expect(keysets.chooseDefault("alice", { scope: "embedding", keysetId, model: "llama3.2" }, ctx("alice"))).rejects.toMatchObject({ code: "VALIDATION" });
    await keysets.chooseDefault("alice", { scope: "embedding", keysetId, model: "nomic-embed-text" }, ctx("alice"));
    await keysets.chooseDefault("alice", { scope: "embedding", keysetId: "docuchat", model: "docuchat-extractive" }, ctx("alice"));
    expect((await keysets.defaults("alice")).embedding).toEqual({ keysetId: "docuchat", model: "docuchat-extractive" });
  });

  it("embeds every document when chosen, shows the progress, and finds passages that share no word with the question", async () => {
    const keysetId = await setUp();
    const pets = await uploadTextDocument(env!.runtime, "alice", "pets.txt", "Our kitten sleeps on the windowsill all afternoon.");
    const money = await uploadTextDocument(env!.runtime, "alice", "money.txt", "Quarterly revenue rose by twelve percent.");
    const workspaceId = await workspaceWith([pets, money]);
    const choice = { keysetId, model: "nomic-embed-text" };
    await chooseEmbedding(workspaceId, keysetId, choice);
    await engine().waitForCompletion(workspaceEmbeddingWorkflowId(workspaceId, 1), 20_000);
    await settle(env!.runtime);

    const workspace = await env!.runtime.container.get(WorkspaceQueries).get("alice", workspaceId);
    expect(workspace.embeddingIndex).toMatchObject({ revision: 1, model: "nomic-embed-text", status: "ready", done: 2, total: 2, failures: [] });
    const index = env!.runtime.get<SearchIndex>(TOKENS.SearchIndex);
    expect(await index.countVectors(embeddingSpace(choice), pets)).toBe(await index.countChunks(pets));
    expect(embedded).toContain("Quarterly revenue rose by twelve percent.");

    // "profit" is in neither document; only the embedding connects it with revenue.
    const conversations = env!.runtime.container.get(ConversationService);
    const metadata = await collect(conversations.ask("alice", workspace.session.activeConversationId!, { text: "How did profit develop?" }, ctx("alice")));
    expect(embedded).toContain("How did profit develop?");
    expect(metadata.citations).toMatchObject([{ documentId: money, pageNumber: 1 }]);
    // Ranked first by the embedding, so the model was handed it first.
    const prompt = chatPrompts.at(-1)!;
    expect(prompt.indexOf("Quarterly revenue")).toBeGreaterThan(-1);
    expect(prompt.indexOf("Quarterly revenue")).toBeLessThan(prompt.indexOf("kitten") === -1 ? Infinity : prompt.indexOf("kitten"));
  });

  it("embeds a document that joins later, skips the ones already embedded, and records a provider's refusal per document", async () => {
    const keysetId = await setUp();
    const pets = await uploadTextDocument(env!.runtime, "alice", "pets.txt", "Our kitten sleeps on the windowsill all afternoon.");
    const weather = await uploadTextDocument(env!.runtime, "alice", "weather.txt", "A storm is expected on Friday.");
    const workspaceId = await workspaceWith([pets]);
    await chooseEmbedding(workspaceId, keysetId, { keysetId, model: "nomic-embed-text" });
    await engine().waitForCompletion(workspaceEmbeddingWorkflowId(workspaceId, 1), 20_000);
    embedded = [];

    await env!.runtime.container.get(WorkspaceService).attachDocuments("alice", workspaceId, { documentIds: [weather] }, ctx("alice"));
    await engine().waitForCompletion(workspaceEmbeddingWorkflowId(workspaceId, 2), 20_000);
    await settle(env!.runtime);
    expect(embedded).toEqual(["A storm is expected on Friday."]);

    // A listed model the server no longer serves: each document's failure is recorded, keyword search carries on.
    refuseEmbeddings = true;
    await chooseEmbedding(workspaceId, keysetId, { keysetId, model: "retired-embed" });
    await engine().waitForCompletion(workspaceEmbeddingWorkflowId(workspaceId, 3), 20_000);
    await settle(env!.runtime);
    const workspace = await env!.runtime.container.get(WorkspaceQueries).get("alice", workspaceId);
    expect(workspace.embeddingIndex).toMatchObject({ revision: 3, model: "retired-embed", status: "ready", done: 2, total: 2 });
    expect(workspace.embeddingIndex?.failures.map((f) => f.documentId).sort()).toEqual([pets, weather].sort());
    expect(workspace.embeddingIndex?.failures[0].reason).toMatch(/embedding model/i);
    const metadata = await collect(
      env!.runtime.container.get(ConversationService).ask("alice", workspace.session.activeConversationId!, { text: "When is the storm expected?" }, ctx("alice")),
    );
    expect(metadata.citations).toMatchObject([{ documentId: weather, pageNumber: 1 }]);
  });
});
