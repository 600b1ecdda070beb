import { randomUUID } from "node:crypto";
import { QdrantClient } from "@qdrant/js-client-rest";
import { afterAll, describe, expect, it } from "vitest";
import { QdrantSearchIndex } from "#infrastructure/production/qdrant-search-index";
import { serverFor, useServer, type RunningServer } from "../support/server-availability";
import { makeChunk, searchIndexContract } from "./search-index.contract";

/** The search-index contract of the SQLite adapter, run against Qdrant (QDRANT_URL or Testcontainers, qdrant/qdrant ≥ 1.18). */
const plan = await serverFor("qdrant");

describe.skipIf(plan.skip !== undefined)(`Qdrant (${plan.skip ?? plan.source})`, () => {
  const server = plan.skip === undefined ? useServer(plan) : null;
  const running = (): RunningServer => {
    if (!server) throw new Error("unreachable: the suite is skipped without a server");
    return server();
  };
  // Collections of this run only, removed at the end (a server from QDRANT_URL outlives the suite).
  const run = randomUUID().replace(/-/g, "").slice(0, 10);
  const created = new Set<string>();
  const indexOn = (collection: string) => {
    created.add(collection);
    return new QdrantSearchIndex({ url: running().url, apiKey: running().env.QDRANT_API_KEY, collection });
  };
  afterAll(async () => {
    if (!server) return;
    const client = new QdrantClient({ url: running().url, apiKey: running().env.QDRANT_API_KEY, checkCompatibility: false });
    for (const collection of created) await client.deleteCollection(collection).catch(() => undefined);
  });

  // The contract's ids are unique per test, so one collection serves every test.
  searchIndexContract("Qdrant", async () => ({ index: indexOn(`docuchat_contract_${run}`), cleanup: async () => undefined }));

  const chunk = (documentId: string, ordinal: number, text: string, vector?: number[]) =>
    makeChunk(documentId, ordinal, text, vector ? { vector } : {});

  it("lets several processes create the collection and the same dense vector at once", async () => {
    const collection = `docuchat_race_${run}`;
    const indexes = [indexOn(collection), indexOn(collection), indexOn(collection)];
    await Promise.all(indexes.map((index, i) => index.upsert([chunk("race", i, `racing writer ${i}`, [1, i, 0])])));
    expect(await indexes[0].countChunks("race")).toBe(3);
    const hits = await indexes[1].searchVector([1, 0, 0], { documentIds: ["race"] }, 3);
    expect(hits.map((h) => h.chunk.ordinal)).toEqual([0, 1, 2]);
  });

  it("a new process finds the dense vectors and chunks stored by an earlier one", async () => {
    const collection = `docuchat_reopen_${run}`;
    await indexOn(collection).upsert([chunk("kept", 0, "persistent words", [0.1, 0.2, 0.3, 0.4, 0.5])]);
    const later = indexOn(collection);
    expect((await later.searchText("persistent", { documentIds: ["kept"] }, 5)).map((h) => h.chunk.chunkId)).toEqual(["kept:0"]);
    const [hit] = await later.searchVector([0.1, 0.2, 0.3, 0.4, 0.5], { documentIds: ["kept"] }, 5);
    expect(hit.score).toBeCloseTo(1, 4);
  });

  it("keeps vectors of different dimensions apart and stems like the embedded index", async () => {
    const index = indexOn(`docuchat_contract_${run}`);
    const doc = `dims-${run}`;
    await index.upsert([chunk(doc, 0, "All payments were terminated.", [1, 0, 0]), chunk(doc, 1, "Attach your résumé.", [1, 0])]);
    expect((await index.searchVector([1, 0], { documentIds: [doc] }, 5)).map((h) => h.chunk.ordinal)).toEqual([1]);
    expect((await index.searchText("payment terminating", { documentIds: [doc] }, 5)).map((h) => h.chunk.ordinal)).toEqual([0]);
    expect((await index.searchText("RESUME", { documentIds: [doc] }, 5)).map((h) => h.chunk.ordinal)).toEqual([1]);
  });
});
