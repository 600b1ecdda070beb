import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openDatabase } from "#infrastructure/embedded/sqlite/open-database";
import { SqliteSearchIndex, toFtsQuery } from "#infrastructure/embedded/sqlite/sqlite-search-index";
import { makeChunk, searchIndexContract } from "./search-index.contract";

searchIndexContract("SQLite", async () => {
  const dir = mkdtempSync(join(tmpdir(), "docuchat-search-"));
  const db = openDatabase(join(dir, "search.db"));
  const index = new SqliteSearchIndex(db);
  return {
    index,
    cleanup: async () => {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});

const chunk = makeChunk;

describe("SqliteSearchIndex", () => {
  it("folds diacritics and stems English words (porter unicode61 remove_diacritics 2)", async () => {
    const index = new SqliteSearchIndex(openDatabase(":memory:"));
    await index.upsert([chunk("d", 0, "Attach your résumé to the application."), chunk("d", 1, "All payments were terminated.")]);
    const scope = { documentIds: ["d"] };
    expect((await index.searchText("RESUME", scope, 5)).map((h) => h.chunk.ordinal)).toEqual([0]);
    expect((await index.searchText("payment terminating", scope, 5)).map((h) => h.chunk.ordinal)).toEqual([1]);
  });

  it("keeps the FTS index and the vectors consistent with the chunks table through upserts and deletes", async () => {
    const db = openDatabase(":memory:");
    const index = new SqliteSearchIndex(db);
    const chunks = [chunk("d", 0, "alpha beta"), chunk("d", 1, "gamma"), chunk("e", 0, "delta", { ownerId: "o2" })];
    await index.upsert(chunks);
    await index.upsertVectors("k/m", chunks.map((c) => ({ chunkId: c.chunkId, documentId: c.documentId, vector: [1, 2] })));
    await index.upsert([chunk("d", 0, "epsilon zeta")]);
    await index.deleteDocument("d");
    await index.upsert([chunk("d", 2, "eta")]);
    await index.deleteOwner("o2");
    // Throws SQLITE_CORRUPT_VTAB when the external-content index disagrees with its table.
    expect(() => db.exec("INSERT INTO chunks_fts (chunks_fts, rank) VALUES ('integrity-check', 1)")).not.toThrow();
    const indexed = db.prepare("SELECT count(*) AS n FROM chunks_fts WHERE chunks_fts MATCH 'eta OR alpha OR epsilon OR gamma OR delta'").get() as {
      n: number;
    };
    expect(indexed.n).toBe(1);
    // Vectors go with their chunks.
    expect(db.prepare("SELECT count(*) AS n FROM chunk_vectors").get()).toEqual({ n: 0 });
  });

  it("survives reopening the database file", async () => {
    const dir = mkdtempSync(join(tmpdir(), "docuchat-search-"));
    try {
      const first = openDatabase(join(dir, "search.db"));
      const written = new SqliteSearchIndex(first);
      await written.upsert([chunk("d", 0, "persistent words")]);
      await written.upsertVectors("k/m", [{ chunkId: "d:0", documentId: "d", vector: [0.1, 0.2, 0.3] }]);
      first.close();
      const second = openDatabase(join(dir, "search.db"));
      const index = new SqliteSearchIndex(second);
      expect((await index.searchText("persistent", { documentIds: ["d"] }, 5)).length).toBe(1);
      const [hit] = await index.searchVector("k/m", [0.1, 0.2, 0.3], { documentIds: ["d"] }, 5);
      expect(hit.score).toBeCloseTo(1, 5);
      second.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("skips stored vectors whose dimension differs from the query's", async () => {
    const index = new SqliteSearchIndex(openDatabase(":memory:"));
    await index.upsert([chunk("d", 0, "three"), chunk("d", 1, "two")]);
    await index.upsertVectors("k/m", [
      { chunkId: "d:0", documentId: "d", vector: [1, 0, 0] },
      { chunkId: "d:1", documentId: "d", vector: [1, 0] },
    ]);
    expect((await index.searchVector("k/m", [1, 0], { documentIds: ["d"] }, 5)).map((h) => h.chunk.ordinal)).toEqual([1]);
    expect(await index.searchVector("k/m", [0, 0], { documentIds: ["d"] }, 5)).toEqual([]);
  });

  it("accepts a scope of thousands of document ids (one JSON parameter, not one variable each)", async () => {
    const index = new SqliteSearchIndex(openDatabase(":memory:"));
    await index.upsert([chunk("d-4999", 0, "needle")]);
    const documentIds = Array.from({ length: 5000 }, (_, i) => `d-${i}`);
    expect((await index.searchText("needle", { documentIds }, 5)).length).toBe(1);
  });

  it("lists every chunk, then every space's vectors, in batches (to copy the index onto Qdrant)", async () => {
    const index = new SqliteSearchIndex(openDatabase(":memory:"));
    await index.upsert([chunk("d", 0, "zero"), chunk("d", 1, "one"), chunk("e", 0, "two", { blockIds: ["b1"] })]);
    await index.upsertVectors("k/small", [
      { chunkId: "d:0", documentId: "d", vector: [0.5, -1] },
      { chunkId: "e:0", documentId: "e", vector: [1, 2] },
    ]);
    await index.upsertVectors("k/large", [{ chunkId: "d:1", documentId: "d", vector: [1, 0, 0] }]);
    await index.upsert([chunk("d", 1, "one again")]);
    const batches = [...index.allChunks(2)];
    expect(batches.map((b) => b.length)).toEqual([2, 1]);
    expect(batches.flat()).toEqual([chunk("d", 0, "zero"), chunk("d", 1, "one again"), chunk("e", 0, "two", { blockIds: ["b1"] })]);
    expect([...index.allVectors(1)]).toEqual([
      { space: "k/small", vectors: [{ chunkId: "d:0", documentId: "d", vector: [0.5, -1] }] },
      { space: "k/small", vectors: [{ chunkId: "e:0", documentId: "e", vector: [1, 2] }] },
    ]);
  });

  it("drops a vector table from before vector spaces (never written outside tests) and starts clean", async () => {
    const db = openDatabase(":memory:");
    db.exec("CREATE TABLE chunk_vectors (id INTEGER PRIMARY KEY, document_id TEXT NOT NULL, vector BLOB NOT NULL)");
    const index = new SqliteSearchIndex(db);
    await index.upsert([chunk("d", 0, "zero")]);
    await index.upsertVectors("k/m", [{ chunkId: "d:0", documentId: "d", vector: [1] }]);
    expect(await index.countVectors("k/m", "d")).toBe(1);
  });

  it("rejects chunks without ids or with non-finite vectors", async () => {
    const index = new SqliteSearchIndex(openDatabase(":memory:"));
    await expect(index.upsert([chunk("d", 0, "x", { chunkId: "" })])).rejects.toThrow();
    await index.upsert([chunk("d", 0, "x")]);
    await expect(index.upsertVectors("k/m", [{ chunkId: "d:0", documentId: "d", vector: [Number.NaN] }])).rejects.toThrow();
    await expect(index.upsertVectors("", [{ chunkId: "d:0", documentId: "d", vector: [1] }])).rejects.toThrow();
  });
});

describe("toFtsQuery", () => {
  it("quotes each distinct lower-cased term and ORs them", () => {
    expect(toFtsQuery("Payment due, payment DUE!")).toBe('"payment" OR "due"');
  });

  it("drops FTS5 syntax and keeps only letters and digits", () => {
    expect(toFtsQuery('NEAR(a b) "x" col:y -z * ^w')).toBe('"near" OR "a" OR "b" OR "x" OR "col" OR "y" OR "z" OR "w"');
    expect(toFtsQuery("Ελληνικά 日本語 2024")).toBe('"ελληνικά" OR "日本語" OR "2024"');
  });

  it("returns null when nothing searchable remains", () => {
    expect(toFtsQuery("")).toBeNull();
    expect(toFtsQuery(' "*:-()^ ')).toBeNull();
  });

  it("caps the number of terms", () => {
    const query = toFtsQuery(Array.from({ length: 100 }, (_, i) => `w${i}`).join(" "));
    expect(query?.split(" OR ")).toHaveLength(32);
  });
});
