import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openDatabase } from "#infrastructure/embedded/sqlite/open-database";
import { SqliteSearchIndex } from "#infrastructure/embedded/sqlite/sqlite-search-index";
import { SEGMENT_BYTES } from "#infrastructure/embedded/sqlite/vector-segments";
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

  it("keeps the postings and the vectors consistent with the chunks table through upserts and deletes", async () => {
    const db = openDatabase(":memory:");
    const index = new SqliteSearchIndex(db);
    const chunks = [chunk("d", 0, "alpha beta"), chunk("d", 1, "gamma"), chunk("e", 0, "delta", { ownerId: "o2" })];
    await index.upsert(chunks);
    await index.upsertVectors("k/m", chunks.map((c) => ({ chunkId: c.chunkId, documentId: c.documentId, vector: [1, 2] })));
    await index.upsert([chunk("d", 0, "epsilon zeta")]);
    await index.deleteDocument("d");
    await index.upsert([chunk("d", 2, "eta")]);
    await index.deleteOwner("o2");
    expect(db.prepare("SELECT document_id, term FROM document_postings").all()).toEqual([{ document_id: "d", term: "eta" }]);
    expect(db.prepare("SELECT document_id FROM document_index").all()).toEqual([{ document_id: "d" }]);
    // Vectors go with their chunks.
    expect(db.prepare("SELECT count(*) AS n FROM vector_segments").get()).toEqual({ n: 0 });
  });

  it("keeps a document embedded in batches in a few segments, each append rewriting at most one of them", async () => {
    const db = openDatabase(":memory:");
    const index = new SqliteSearchIndex(db);
    const dimensions = 512;
    const chunks = Array.from({ length: 1000 }, (_, i) => chunk("big", i, `chunk ${i}`));
    await index.upsert(chunks);
    const vectorOf = (i: number) => Array.from({ length: dimensions }, (_, k) => (k === i % dimensions ? 1 : 0.001 * ((i + k) % 7)));
    // Batches of 48 vectors (96 KB) against 128 KB segments: most appends fill the last segment up, then open a new one.
    for (let start = 0; start < chunks.length; start += 48) {
      const changesBefore = db.prepare("SELECT total_changes()").pluck().get() as number;
      await index.upsertVectors("k/m", chunks.slice(start, start + 48).map((c) => ({ chunkId: c.chunkId, documentId: "big", vector: vectorOf(c.ordinal) })));
      // A batch rewrites at most the one segment it fills up, besides the one it opens: never the document's earlier vectors.
      expect((db.prepare("SELECT total_changes()").pluck().get() as number) - changesBefore).toBeLessThanOrEqual(2);
    }
    const segments = db.prepare("SELECT count(*) FROM vector_segments").pluck().get() as number;
    expect(segments).toBe(Math.ceil((1000 * dimensions * 4) / SEGMENT_BYTES));
    expect(await index.countVectors("k/m", "big")).toBe(1000);
    expect(db.prepare("SELECT max(length(vectors)) FROM vector_segments").pluck().get()).toBeLessThanOrEqual(SEGMENT_BYTES);
    // Every vector is where it was written, and replacing or dropping one leaves the others alone.
    for (const i of [0, 63, 64, 500, 999]) {
      const [hit] = await index.searchVector("k/m", vectorOf(i), { documentIds: ["big"] }, 1);
      expect(hit.chunk.ordinal).toBe(i);
      expect(hit.score).toBeCloseTo(1, 5);
    }
    await index.upsertVectors("k/m", [{ chunkId: "big:500", documentId: "big", vector: vectorOf(3) }]);
    await index.upsert([chunk("big", 999, "chunk 999 rewritten")]);
    expect(await index.countVectors("k/m", "big")).toBe(999);
    expect((await index.searchVector("k/m", vectorOf(3), { documentIds: ["big"] }, 2)).map((h) => h.chunk.ordinal).sort()).toEqual([3, 500]);
    expect((await index.searchVector("k/m", vectorOf(998), { documentIds: ["big"] }, 1))[0].chunk.ordinal).toBe(998);
  });

  it("leaves no bytes of a deleted document's vectors, nor of a replaced vector, in the database file", async () => {
    const dir = mkdtempSync(join(tmpdir(), "docuchat-search-"));
    try {
      const file = join(dir, "search.db");
      const db = openDatabase(file);
      const index = new SqliteSearchIndex(db);
      // Distinctive float patterns, easy to find in raw bytes.
      const marked = (mark: number) => Array.from({ length: 64 }, (_, i) => mark + i / 1024);
      const bytesOf = (vector: number[]) => Buffer.from(Float32Array.from(vector).buffer);
      await index.upsert([chunk("gone", 0, "a"), chunk("gone", 1, "b"), chunk("kept", 0, "c"), chunk("kept", 1, "d")]);
      await index.upsertVectors("k/m", [
        { chunkId: "gone:0", documentId: "gone", vector: marked(101) },
        { chunkId: "gone:1", documentId: "gone", vector: marked(102) },
        { chunkId: "kept:0", documentId: "kept", vector: marked(103) },
        { chunkId: "kept:1", documentId: "kept", vector: marked(104) },
      ]);
      await index.upsert([chunk("kept", 0, "c rewritten")]);
      await index.upsertVectors("k/m", [{ chunkId: "kept:1", documentId: "kept", vector: marked(105) }]);
      await index.deleteDocument("gone");
      db.pragma("wal_checkpoint(TRUNCATE)");
      const onDisk = readFileSync(file);
      for (const mark of [101, 102, 103, 104]) expect(onDisk.includes(bytesOf(marked(mark)))).toBe(false);
      expect(onDisk.includes(bytesOf(marked(105)))).toBe(true);
      db.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("moves the vectors of an index written before decision 170 (one row per chunk) into segments, keeping every one", async () => {
    const dir = mkdtempSync(join(tmpdir(), "docuchat-search-"));
    try {
      const file = join(dir, "search.db");
      const old = openDatabase(file);
      old.exec(`
        CREATE TABLE chunks (id INTEGER PRIMARY KEY, chunk_id TEXT NOT NULL UNIQUE, document_id TEXT NOT NULL, owner_id TEXT NOT NULL,
          page_number INTEGER NOT NULL, ordinal INTEGER NOT NULL, text TEXT NOT NULL, block_ids TEXT NOT NULL);
        CREATE TABLE document_index (document_id TEXT PRIMARY KEY, chunk_ids BLOB NOT NULL, lengths BLOB NOT NULL) WITHOUT ROWID;
        CREATE TABLE document_postings (document_id TEXT NOT NULL, term TEXT NOT NULL, postings BLOB NOT NULL, PRIMARY KEY (document_id, term)) WITHOUT ROWID;
        CREATE TABLE chunk_vectors (space TEXT NOT NULL, id INTEGER NOT NULL, document_id TEXT NOT NULL, vector BLOB NOT NULL, PRIMARY KEY (space, id));
        CREATE INDEX chunk_vectors_document ON chunk_vectors (space, document_id);
        CREATE INDEX chunk_vectors_chunk ON chunk_vectors (id);
        CREATE TRIGGER chunk_vectors_follow_chunks AFTER DELETE ON chunks BEGIN DELETE FROM chunk_vectors WHERE id = old.id; END;`);
      const insertChunk = old.prepare("INSERT INTO chunks VALUES (?, ?, ?, 'o', 1, ?, ?, '[]')");
      const insertVector = old.prepare("INSERT INTO chunk_vectors VALUES (?, ?, ?, ?)");
      const blob = (v: number[]) => Buffer.from(Float32Array.from(v).buffer);
      insertChunk.run(1, "d:0", "d", 0, "north");
      insertChunk.run(2, "d:1", "d", 1, "east");
      insertChunk.run(3, "e:0", "e", 0, "south");
      insertVector.run("k/a", 1, "d", blob([1, 0]));
      insertVector.run("k/a", 2, "d", blob([0, 1]));
      insertVector.run("k/a", 3, "e", blob([-1, 0]));
      insertVector.run("k/b", 1, "d", blob([0, 0, 1]));
      old.close();

      const db = openDatabase(file);
      const index = new SqliteSearchIndex(db);
      expect(db.prepare("SELECT name FROM sqlite_master WHERE name LIKE 'chunk_vectors%'").all()).toEqual([]);
      expect(await index.countVectors("k/a", "d")).toBe(2);
      expect(await index.countVectors("k/a", "e")).toBe(1);
      expect(await index.countVectors("k/b", "d")).toBe(1);
      const scope = { documentIds: ["d", "e"] };
      expect((await index.searchVector("k/a", [0.9, 0.1], scope, 3)).map((h) => h.chunk.chunkId)).toEqual(["d:0", "d:1", "e:0"]);
      expect((await index.searchVector("k/b", [0, 0, 1], scope, 3)).map((h) => h.chunk.chunkId)).toEqual(["d:0"]);
      // The old trigger is gone with its table; deleting chunks still takes their vectors.
      await index.deleteDocument("d");
      expect(await index.countVectors("k/a", "d")).toBe(0);
      expect(await index.searchText("north", scope, 5)).toEqual([]);
      db.close();
      // Opening again finds nothing left to move.
      const again = new SqliteSearchIndex(openDatabase(file));
      expect(await again.countVectors("k/a", "e")).toBe(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("moves a chunk's postings when it is written again under another document", async () => {
    const index = new SqliteSearchIndex(openDatabase(":memory:"));
    await index.upsert([chunk("d", 0, "wandering words"), chunk("d", 1, "staying put")]);
    await index.upsert([chunk("e", 0, "wandering words", { chunkId: "d:0" })]);
    expect(await index.searchText("wandering", { documentIds: ["d"] }, 5)).toEqual([]);
    expect((await index.searchText("wandering", { documentIds: ["e"] }, 5)).map((h) => h.chunk.chunkId)).toEqual(["d:0"]);
    expect((await index.searchText("staying", { documentIds: ["d"] }, 5)).map((h) => h.chunk.chunkId)).toEqual(["d:1"]);
  });

  it("ranks as a bare FTS5 table holding only the scoped chunks would (same BM25, the scope's statistics)", async () => {
    const db = openDatabase(":memory:");
    const index = new SqliteSearchIndex(db);
    db.exec("CREATE VIRTUAL TABLE bare USING fts5 (chunk_id UNINDEXED, text, tokenize = 'porter unicode61 remove_diacritics 2')");
    const texts = [
      "The tenant pays the rent on the first day of each month.",
      "Rent increases need two months' notice to the tenant.",
      "The landlord repairs the heating; the tenant reports faults.",
      "Payments are made by bank transfer, never in cash.",
      "A late payment of rent costs the tenant a fee of 20 euros.",
    ];
    const scoped = texts.map((text, i) => chunk(i < 3 ? "lease" : "annex", i, text));
    // Another user's chunks, full of the query's words, change neither the order nor the scores.
    const foreign = Array.from({ length: 40 }, (_, i) => chunk(`other-${i % 4}`, i, "rent rent tenant payment notice", { ownerId: "o2" }));
    await index.upsert([...scoped, ...foreign]);
    const insert = db.prepare("INSERT INTO bare (chunk_id, text) VALUES (?, ?)");
    for (const c of scoped) insert.run(c.chunkId, c.text);
    const query = "rent payment notice tenant";
    const bare = db
      .prepare(`SELECT chunk_id, -bm25(bare) AS score FROM bare WHERE bare MATCH '"rent" OR "payment" OR "notice" OR "tenant"' ORDER BY bm25(bare)`)
      .all() as { chunk_id: string; score: number }[];
    const hits = await index.searchText(query, { documentIds: ["lease", "annex"] }, 10);
    expect(hits.map((h) => h.chunk.chunkId)).toEqual(bare.map((r) => r.chunk_id));
    hits.forEach((hit, i) => expect(hit.score).toBeCloseTo(bare[i].score, 9));
  });

  it("builds the postings of an index written with the FTS5 table (before decision 158), and drops that table", async () => {
    const dir = mkdtempSync(join(tmpdir(), "docuchat-search-"));
    try {
      const old = openDatabase(join(dir, "search.db"));
      old.exec(`
        CREATE TABLE chunks (id INTEGER PRIMARY KEY, chunk_id TEXT NOT NULL UNIQUE, document_id TEXT NOT NULL, owner_id TEXT NOT NULL,
          page_number INTEGER NOT NULL, ordinal INTEGER NOT NULL, text TEXT NOT NULL, block_ids TEXT NOT NULL);
        CREATE TABLE chunk_vectors (space TEXT NOT NULL, id INTEGER NOT NULL, document_id TEXT NOT NULL, vector BLOB NOT NULL, PRIMARY KEY (space, id));
        CREATE VIRTUAL TABLE chunks_fts USING fts5 (text, content = 'chunks', content_rowid = 'id', tokenize = 'porter unicode61 remove_diacritics 2');
        CREATE TRIGGER chunks_fts_insert AFTER INSERT ON chunks BEGIN INSERT INTO chunks_fts (rowid, text) VALUES (new.id, new.text); END;
        CREATE TRIGGER chunks_fts_delete AFTER DELETE ON chunks BEGIN
          INSERT INTO chunks_fts (chunks_fts, rowid, text) VALUES ('delete', old.id, old.text);
          DELETE FROM chunk_vectors WHERE id = old.id;
        END;
        INSERT INTO chunks VALUES (1, 'd:0', 'd', 'o', 1, 0, 'The deposit is returned within a month.', '["b1"]');
        INSERT INTO chunks VALUES (2, 'd:1', 'd', 'o', 2, 1, 'Pets are allowed.', '[]');
        INSERT INTO chunks VALUES (3, 'e:0', 'e', 'o', 1, 0, 'Deposits earn no interest.', '[]');`);
      old.close();
      const db = openDatabase(join(dir, "search.db"));
      const index = new SqliteSearchIndex(db);
      expect(db.prepare("SELECT name FROM sqlite_master WHERE name LIKE 'chunks_fts%'").all()).toEqual([]);
      const hits = await index.searchText("deposit", { documentIds: ["d", "e"] }, 5);
      expect(hits.map((h) => h.chunk.chunkId).sort()).toEqual(["d:0", "e:0"]);
      expect(hits.find((h) => h.chunk.chunkId === "d:0")?.chunk).toEqual(chunk("d", 0, "The deposit is returned within a month.", { ownerId: "o", blockIds: ["b1"] }));
      // Writes and deletes after the migration keep the chunks and postings in step.
      await index.deleteDocument("e");
      expect((await index.searchText("deposit", { documentIds: ["d", "e"] }, 5)).map((h) => h.chunk.chunkId)).toEqual(["d:0"]);
      db.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
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
