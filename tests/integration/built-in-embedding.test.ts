import { afterEach, describe, expect, it } from "vitest";
import type { RequestContext } from "#application/shared/request-context";
import { retrievePassages, reformulateQuery } from "#application/conversation/retrieval";
import { KeysetModels } from "#application/identity/keyset-models";
import { KeysetService } from "#application/identity/keyset-service";
import type { SearchIndex } from "#application/ports/search-index";
import type { WorkflowEngine } from "#application/ports/workflow";
import { TOKENS } from "#application/tokens";
import { WorkspaceQueries } from "#application/workspace/workspace-queries";
import { WorkspaceService } from "#application/workspace/workspace-service";
import { BUILT_IN_EMBEDDING, embeddingSpace } from "#domain/workspace/workspace";
import { workspaceEmbeddingWorkflowId } from "#workflows/workspace-embedding";
import { createTestRuntime } from "../support/test-runtime";
import { settle, uploadTextDocument } from "../support/library-fixtures";

/**
 * The default with no keys at all (ARCHITECTURE §6, docs/decisions/070): a new
 * workspace gets the built-in embedding model, its documents are keyword
 * searchable once ACTIVE and embedded in the background with progress, and a
 * question worded without the passage's words then reaches it through the
 * dense side of retrieval. The real model runs here (no stand-in).
 */

const ctx = (userId: string): RequestContext => ({ requestId: "r", clientAddress: "127.0.0.1", actorId: userId });

const HANDBOOK = [
  "Staff members may carry over at most five unused vacation days into the following calendar year.",
  "The office kitchen is cleaned every Friday afternoon by an outside company.",
  "Visitors must sign in at reception and wear a badge at all times.",
].join("\n\n");
const GARDEN = [
  "Tomatoes need at least six hours of direct sunlight and deep watering twice a week.",
  "Compost made from kitchen scraps improves the soil within a single season.",
].join("\n\n");
/** Shares no content word with the vacation sentence. */
const QUESTION = "How much paid leave can employees save for later?";

let env: Awaited<ReturnType<typeof createTestRuntime>> | undefined;
afterEach(async () => {
  await env?.cleanup();
  env = undefined;
});

describe("the built-in embedding model, by default", () => {
  it("is every user's embedding default, embeds a new workspace's documents after ACTIVE, and finds a reworded question's passage by meaning", async () => {
    env = await createTestRuntime({ builtInEmbeddings: true });
    const { container } = env.runtime;

    // Chat Settings and the wizard offer it, and a user who chose nothing has it.
    const [builtIn] = await container.get(KeysetModels).availableFor("alice");
    expect(builtIn.embeddingModels.map((m) => m.id)).toEqual([BUILT_IN_EMBEDDING.model]);
    expect((await container.get(KeysetService).defaults("alice")).embedding).toEqual(BUILT_IN_EMBEDDING);

    const handbook = await uploadTextDocument(env.runtime, "alice", "handbook.txt", HANDBOOK);
    const garden = await uploadTextDocument(env.runtime, "alice", "garden.txt", GARDEN);
    const index = env.runtime.get<SearchIndex>(TOKENS.SearchIndex);
    // ACTIVE means keyword-searchable, embedded or not.
    expect((await index.searchText("visitors badge", { documentIds: [handbook] }, 5)).length).toBeGreaterThan(0);

    const workspaces = container.get(WorkspaceService);
    const { workspaceId } = await workspaces.create("alice", { name: "Office", type: "Conversation", documentIds: [handbook, garden] }, ctx("alice"));
    const engine = env.runtime.get<WorkflowEngine>(TOKENS.WorkflowEngine);
    await engine.waitForCompletion(`workspace-launch-${workspaceId}`, 20_000);
    await engine.waitForCompletion(workspaceEmbeddingWorkflowId(workspaceId, 1), 60_000);
    await settle(env.runtime);

    const workspace = await container.get(WorkspaceQueries).get("alice", workspaceId);
    expect(workspace.chatPreference?.embedding).toEqual(BUILT_IN_EMBEDDING);
    expect(workspace.embeddingIndex).toMatchObject({ model: BUILT_IN_EMBEDDING.model, status: "ready", done: 2, total: 2, failures: [] });
    const space = embeddingSpace(BUILT_IN_EMBEDDING);
    for (const documentId of [handbook, garden]) {
      expect(await index.countVectors(space, documentId)).toBe(await index.countChunks(documentId));
    }

    // Keyword search alone finds nothing for the reworded question; the fused retrieval puts the vacation passage first.
    const scope = { documentIds: [handbook, garden] };
    expect(await index.searchText(reformulateQuery(QUESTION), scope, 5)).toEqual([]);
    const embedder = await container.get(KeysetModels).embedder("alice", BUILT_IN_EMBEDDING);
    const passages = await retrievePassages({
      index,
      question: QUESTION,
      documentIds: scope.documentIds,
      limit: 3,
      vectors: { space, embed: async (text) => (await embedder.embed([text]))[0] },
    });
    expect(passages[0]?.documentId).toBe(handbook);
    expect(passages[0]?.text).toContain("five unused vacation days");
  }, 120_000);

  it("leaves keyword search only as a choice: a user who picks it gets new workspaces without embeddings", async () => {
    env = await createTestRuntime({ builtInEmbeddings: true });
    const { container } = env.runtime;
    const keysets = container.get(KeysetService);
    await keysets.chooseDefault("alice", { scope: "embedding", keysetId: "docuchat", model: "docuchat-extractive" }, ctx("alice"));
    expect(await container.get(KeysetModels).chatPreferenceFor("alice")).toMatchObject({ embedding: null });

    await keysets.chooseDefault("alice", { scope: "embedding", ...BUILT_IN_EMBEDDING }, ctx("alice"));
    expect(await container.get(KeysetModels).chatPreferenceFor("alice")).toMatchObject({ embedding: BUILT_IN_EMBEDDING });
  });
});

describe("a server that does not run the built-in embedding model", () => {
  it("offers keyword search only: no built-in embedding model listed, defaulted or accepted", async () => {
    env = await createTestRuntime({ builtInEmbeddings: false });
    const { container } = env.runtime;
    const models = container.get(KeysetModels);
    const [builtIn] = await models.availableFor("alice");
    expect(builtIn.embeddingModels).toEqual([]);
    expect(await models.chatPreferenceFor("alice")).toMatchObject({ embedding: null });
    await expect(container.get(KeysetService).chooseDefault("alice", { scope: "embedding", ...BUILT_IN_EMBEDDING }, ctx("alice"))).rejects.toMatchObject({
      code: "VALIDATION",
    });
    await expect(models.embedder("alice", BUILT_IN_EMBEDDING)).rejects.toMatchObject({ code: "VALIDATION" });
  });
});
