import { randomUUID } from "node:crypto";
import { QdrantClient } from "@qdrant/js-client-rest";
import { afterAll, describe, expect, it } from "vitest";
import type { IndexedChunk } from "#application/ports/search-index";
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

  const chunk = (documentId: string, ordinal: number, text: string) => makeChunk(documentId, ordinal, text);
  const vectorOf = (c: IndexedChunk, vector: number[]) => ({ chunkId: c.chunkId, documentId: c.documentId, vector });

  it("lets several processes create the collection and the same space's vector at once", async () => {
    const collection = `docuchat_race_${run}`;
    const indexes = [indexOn(collection), indexOn(collection), indexOn(collection)];
    const chunks = [0, 1, 2].map((i) => chunk("race", i, `racing writer ${i}`));
    await Promise.all(indexes.map((index, i) => index.upsert([chunks[i]])));
    await Promise.all(indexes.map((index, i) => index.upsertVectors("keyset-race/embed", [vectorOf(chunks[i], [1, i, 0])])));
    expect(await indexes[0].countChunks("race")).toBe(3);
    expect(await indexes[2].countVectors("keyset-race/embed", "race")).toBe(3);
    const hits = await indexes[1].searchVector("keyset-race/embed", [1, 0, 0], { documentIds: ["race"] }, 3);
    expect(hits.map((h) => h.chunk.ordinal)).toEqual([0, 1, 2]);
  });

  it("a new process finds the spaces, vectors and chunks stored by an earlier one", async () => {
    const collection = `docuchat_reopen_${run}`;
    const first = indexOn(collection);
    const kept = chunk("kept", 0, "persistent words");
    await first.upsert([kept]);
    await first.upsertVectors("keyset-a/embed-5", [vectorOf(kept, [0.1, 0.2, 0.3, 0.4, 0.5])]);
    const later = indexOn(collection);
    expect((await later.searchText("persistent", { documentIds: ["kept"] }, 5)).map((h) => h.chunk.chunkId)).toEqual(["kept:0"]);
    expect(await later.countVectors("keyset-a/embed-5", "kept")).toBe(1);
    const [hit] = await later.searchVector("keyset-a/embed-5", [0.1, 0.2, 0.3, 0.4, 0.5], { documentIds: ["kept"] }, 5);
    expect(hit.score).toBeCloseTo(1, 4);
    // The space keeps the size it started with, in any process.
    await expect(later.upsertVectors("keyset-a/embed-5", [vectorOf(kept, [1, 0, 0])])).rejects.toThrow(/5 dimensions, not 3/);
  });

  it("sets a space's vectors without touching the payload or other spaces, and stems like the embedded index", async () => {
    const index = indexOn(`docuchat_contract_${run}`);
    const doc = `spaces-${run}`;
    const [a, b] = [chunk(doc, 0, "All payments were terminated."), chunk(doc, 1, "Attach your résumé.")];
    await index.upsert([a, b]);
    await index.upsertVectors(`keyset-a/${run}`, [vectorOf(a, [1, 0, 0]), vectorOf(b, [0, 1, 0])]);
    await index.upsertVectors(`keyset-b/${run}`, [vectorOf(b, [1, 0])]);
    await index.upsertVectors(`keyset-a/${run}`, [vectorOf(a, [0, 0, 1])]);
    expect((await index.searchVector(`keyset-b/${run}`, [1, 0], { documentIds: [doc] }, 5)).map((h) => h.chunk.ordinal)).toEqual([1]);
    expect((await index.searchVector(`keyset-a/${run}`, [0, 1, 0], { documentIds: [doc] }, 1)).map((h) => h.chunk.ordinal)).toEqual([1]);
    expect(await index.countVectors(`keyset-a/${run}`, doc)).toBe(2);
    expect(await index.listChunks(doc)).toEqual([a, b]);
    expect((await index.searchText("payment terminating", { documentIds: [doc] }, 5)).map((h) => h.chunk.ordinal)).toEqual([0]);
    expect((await index.searchText("RESUME", { documentIds: [doc] }, 5)).map((h) => h.chunk.ordinal)).toEqual([1]);
  });

  it("lists a document longer than one scroll page in reading order", async () => {
    const index = indexOn(`docuchat_contract_${run}`);
    const doc = `long-${run}`;
    const chunks = Array.from({ length: 600 }, (_, i) => chunk(doc, i, `part ${i}`));
    await index.upsert(chunks);
    expect((await index.listChunks(doc)).map((c) => c.ordinal)).toEqual(chunks.map((c) => c.ordinal));
  });
});
