import { describe, expect, it } from "vitest";
import type { ChunkHit, IndexedChunk, SearchIndex, SearchScope } from "#application/ports/search-index";
import { openDatabase } from "#infrastructure/embedded/sqlite/open-database";
import { SqliteSearchIndex } from "#infrastructure/embedded/sqlite/sqlite-search-index";
import { reciprocalRankFusion, reformulateQuery, retrievePassages } from "./retrieval";

const chunk = (documentId: string, ordinal: number, text: string, extra: Partial<IndexedChunk> = {}): IndexedChunk => ({
  chunkId: `${documentId}:${ordinal}`,
  documentId,
  ownerId: "alice",
  pageNumber: ordinal + 1,
  ordinal,
  text,
  blockIds: [],
  ...extra,
});

const hit = (c: IndexedChunk, score = 1): ChunkHit => ({ chunk: c, score });

/** An index that records what it was asked, for the calls the SQLite adapter cannot show. */
function recordingIndex(text: ChunkHit[], vector: ChunkHit[] = []) {
  const calls: { kind: "text" | "vector"; space?: string; query: string | number[]; scope: SearchScope; limit: number }[] = [];
  const index: SearchIndex = {
    upsert: async () => {},
    deleteDocument: async () => {},
    deleteOwner: async () => {},
    countChunks: async () => 0,
    listChunks: async () => [],
    chunksAt: async () => [],
    upsertVectors: async () => {},
    countVectors: async () => 0,
    searchText: async (query, scope, limit) => {
      calls.push({ kind: "text", query, scope, limit });
      return text;
    },
    searchVector: async (space, query, scope, limit) => {
      calls.push({ kind: "vector", space, query, scope, limit });
      return vector;
    },
  };
  return { index, calls };
}

describe("retrievePassages", () => {
  it("retrieves nothing, without asking the index, when the workspace has no documents", async () => {
    const { index, calls } = recordingIndex([hit(chunk("d", 0, "anything"))]);
    expect(await retrievePassages({ index, question: "anything", documentIds: [], limit: 5 })).toEqual([]);
    expect(calls).toEqual([]);
  });

  it("searches BM25 with the question's content words, scoped to the workspace's documents", async () => {
    const { index, calls } = recordingIndex([]);
    await retrievePassages({ index, question: "What is the notice period for ending the lease?", documentIds: ["a", "b", "a"], limit: 4 });
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ kind: "text", query: "notice period ending lease", scope: { documentIds: ["a", "b"] } });
    expect(calls[0].limit).toBeGreaterThanOrEqual(4);
  });

  it("asks the access policy at question time and scopes both searches to what it allows", async () => {
    const { index, calls } = recordingIndex([], []);
    const asked: string[][] = [];
    const readable = async (ids: string[]) => {
      asked.push(ids);
      return ids.filter((id) => id !== "left-community");
    };
    await retrievePassages({ index, question: "coolant pressure", documentIds: ["own", "left-community"], readable, limit: 4, vectors: { space: "k/m", embed: async () => [1, 0] } });
    expect(asked).toEqual([["own", "left-community"]]);
    expect(calls.map((c) => c.scope.documentIds)).toEqual([["own"], ["own"]]);
    // Nothing readable: the index is not asked at all.
    const none = recordingIndex([hit(chunk("left-community", 0, "coolant pressure"))]);
    expect(await retrievePassages({ index: none.index, question: "coolant pressure", documentIds: ["left-community"], readable: async () => [], limit: 4 })).toEqual([]);
    expect(none.calls).toEqual([]);
  });

  it("returns passages with page, text and the document's name from the lookup", async () => {
    const index = new SqliteSearchIndex(openDatabase(":memory:"));
    await index.upsert([
      chunk("lease", 0, "The apartment has two bedrooms and a balcony."),
      chunk("lease", 1, "The security deposit equals two months of rent."),
      chunk("memo", 0, "The deposit for the company party is due Friday."),
    ]);
    const passages = await retrievePassages({
      index,
      question: "How much is the security deposit?",
      documentIds: ["lease", "memo"],
      limit: 5,
      documentName: (id) => (id === "lease" ? "Lease agreement" : undefined),
    });
    expect(passages[0]).toMatchObject({
      chunkId: "lease:1",
      documentId: "lease",
      documentName: "Lease agreement",
      pageNumber: 2,
      text: "The security deposit equals two months of rent.",
    });
    expect(passages.find((p) => p.documentId === "memo")?.documentName).toBe("Untitled document");
    expect(passages.map((p) => p.chunkId)).not.toContain("lease:0");
  });

  it("never returns another user's chunk, even one that matches the question far better", async () => {
    const index = new SqliteSearchIndex(openDatabase(":memory:"));
    await index.upsert([
      chunk("alice-notes", 0, "Salary review meeting moved to Monday."),
      chunk("bob-payroll", 0, "Salary of every employee: salary table, salary bands, salary review, salary secret 98,000.", { ownerId: "bob" }),
      chunk("bob-payroll", 1, "Salary review outcomes and salary increases for the salary committee.", { ownerId: "bob" }),
    ]);
    const passages = await retrievePassages({ index, question: "salary review salary bands", documentIds: ["alice-notes"], limit: 10 });
    expect(passages.map((p) => p.documentId)).toEqual(["alice-notes"]);
    // The scope reaches the vector side too.
    const vectors = new SqliteSearchIndex(openDatabase(":memory:"));
    await vectors.upsert([chunk("alice-notes", 0, "alice"), chunk("bob-payroll", 0, "bob", { ownerId: "bob" })]);
    await vectors.upsertVectors("k/m", [
      { chunkId: "alice-notes:0", documentId: "alice-notes", vector: [0, 1] },
      { chunkId: "bob-payroll:0", documentId: "bob-payroll", vector: [1, 0] },
    ]);
    const dense = await retrievePassages({ index: vectors, question: "zzz", documentIds: ["alice-notes"], limit: 10, vectors: { space: "k/m", embed: async () => [1, 0] } });
    expect(dense.map((p) => p.documentId)).toEqual(["alice-notes"]);
  });

  it("fuses BM25 and dense results by reciprocal rank, once per chunk, when an embedding model is set", async () => {
    const a = chunk("d", 0, "a");
    const b = chunk("d", 1, "b");
    const c = chunk("d", 2, "c");
    const { index, calls } = recordingIndex([hit(a, 9), hit(b, 5)], [hit(c, 0.9), hit(b, 0.8)]);
    const passages = await retrievePassages({ index, question: "question", documentIds: ["d"], limit: 3, vectors: { space: "k/m", embed: async () => [0.1, 0.2] } });
    // b is in both rankings: 1/62 + 1/62 beats a's 1/61 alone and c's 1/61 alone.
    expect(passages.map((p) => p.chunkId)).toEqual(["d:1", "d:0", "d:2"]);
    expect(passages[0].score).toBeCloseTo(2 / 62, 10);
    expect(calls.find((call) => call.kind === "vector")).toMatchObject({ space: "k/m", query: [0.1, 0.2], scope: { documentIds: ["d"] } });
  });

  it("keeps keyword search when the embedding provider fails", async () => {
    const a = chunk("d", 0, "a");
    const { index } = recordingIndex([hit(a, 9)], [hit(chunk("d", 1, "b"), 0.9)]);
    const passages = await retrievePassages({
      index,
      question: "question",
      documentIds: ["d"],
      limit: 3,
      vectors: { space: "k/m", embed: async () => Promise.reject(new Error("provider down")) },
    });
    expect(passages.map((p) => p.chunkId)).toEqual(["d:0"]);
  });

  it("skips dense search when the workspace has no embedding model", async () => {
    const { index, calls } = recordingIndex([]);
    await retrievePassages({ index, question: "question", documentIds: ["d"], limit: 3 });
    expect(calls.map((call) => call.kind)).toEqual(["text"]);
  });

  it("finds a passage worded unlike the question through another phrasing, and fuses both rankings", async () => {
    const index = new SqliteSearchIndex(openDatabase(":memory:"));
    await index.upsert([
      chunk("farm", 0, "Low-flying military aircraft frightened the chickens; many flew into the barn walls and died."),
      chunk("farm", 1, "The farmers sued the government over the hens they lost."),
      chunk("farm", 2, "Army surplus stores sell boots and planes models."),
    ]);
    const question = "Which farmers sued because army planes scared their hens?";
    const alone = await retrievePassages({ index, question, documentIds: ["farm"], limit: 2 });
    expect(alone.map((p) => p.chunkId)).not.toContain("farm:0");

    const asked: string[] = [];
    const withPhrasings = await retrievePassages({
      index,
      question,
      documentIds: ["farm"],
      limit: 2,
      alternateQueries: ["military aircraft frightened chickens", " ", question.toUpperCase()],
      vectors: {
        space: "k/m",
        embed: async (text) => {
          asked.push(text);
          return [1, 0];
        },
      },
    });
    // The question's own ranking and the phrasing's are fused: the chunk only the phrasing finds is handed over.
    expect(withPhrasings.map((p) => p.chunkId)).toContain("farm:0");
    // Blank phrasings and the question itself again are not searched twice.
    expect(asked).toEqual([question, "military aircraft frightened chickens"]);
  });

  it("keeps the question's own similarity on a passage an alternate phrasing also found", async () => {
    const a = chunk("d", 0, "a");
    const b = chunk("d", 1, "b");
    const index = new SqliteSearchIndex(openDatabase(":memory:"));
    await index.upsert([a, b]);
    await index.upsertVectors("k/m", [
      { chunkId: "d:0", documentId: "d", vector: [1, 0] },
      { chunkId: "d:1", documentId: "d", vector: [0, 1] },
    ]);
    const passages = await retrievePassages({
      index,
      question: "question",
      documentIds: ["d"],
      limit: 2,
      alternateQueries: ["phrasing"],
      vectors: { space: "k/m", embed: async (text) => (text === "question" ? [1, 0] : [0, 1]) },
    });
    expect(passages.find((p) => p.chunkId === "d:0")?.similarity).toBeCloseTo(1, 6);
    expect(passages.find((p) => p.chunkId === "d:1")?.similarity).toBeCloseTo(0, 6);
  });

  it("hands one passage per page: chunks of a page already chosen join it, and the slot goes to another page", async () => {
    const index = new SqliteSearchIndex(openDatabase(":memory:"));
    // Page 1 is cut into three chunks that overlap, as the chunker cuts them.
    const page1 = ["The deposit is two months of rent.", "two months of rent. It is paid into an escrow account.", "escrow account. The deposit is returned within thirty days."];
    await index.upsert([
      ...page1.map((text, ordinal) => chunk("lease", ordinal, text, { pageNumber: 1 })),
      chunk("lease", 3, "Pets need the landlord's consent; the deposit does not cover them.", { pageNumber: 2 }),
    ]);
    const passages = await retrievePassages({ index, question: "When is the deposit returned?", documentIds: ["lease"], limit: 2 });
    expect(passages.map((p) => p.pageNumber)).toEqual([1, 2]);
    // The page's chunks read as one stretch of the page, their overlap written once.
    expect(passages[0].text).toBe("The deposit is two months of rent. It is paid into an escrow account. The deposit is returned within thirty days.");
    expect(passages[0].chunkId).toBe("lease:2");
  });

  it("reads a short passage's neighbouring chunks on its page, never another page's", async () => {
    const index = new SqliteSearchIndex(openDatabase(":memory:"));
    const long = "The harbour authority publishes the winter timetable in October, with the first sailing at 06:40 from the quay. ";
    await index.upsert([
      chunk("memo", 0, long.repeat(3).trim(), { pageNumber: 1 }),
      chunk("memo", 1, "Questions about rosters go to Mrs Haugland.", { pageNumber: 1 }),
      chunk("memo", 2, "Page two starts here with rosters for the summer.", { pageNumber: 2 }),
    ]);
    const [passage] = await retrievePassages({ index, question: "Who answers questions about rosters?", documentIds: ["memo"], limit: 1 });
    expect(passage.pageNumber).toBe(1);
    expect(passage.text).toContain("06:40");
    expect(passage.text).toContain("Mrs Haugland");
    expect(passage.text).not.toContain("Page two");
  });

  it("honours the limit", async () => {
    const hits = Array.from({ length: 10 }, (_, i) => hit(chunk("d", i, `t${i}`)));
    const { index } = recordingIndex(hits);
    expect(await retrievePassages({ index, question: "t", documentIds: ["d"], limit: 3 })).toHaveLength(3);
  });
});

describe("reciprocalRankFusion", () => {
  it("scores 1/(k + rank), sums across rankings and counts a chunk once per ranking", () => {
    const a = chunk("d", 0, "a");
    const b = chunk("d", 1, "b");
    const fused = reciprocalRankFusion([[hit(a), hit(b), hit(a)], [hit(b)]], 60);
    expect(fused.map((h) => h.chunk.chunkId)).toEqual(["d:1", "d:0"]);
    expect(fused[0].score).toBeCloseTo(1 / 62 + 1 / 61, 12);
    expect(fused[1].score).toBeCloseTo(1 / 61, 12);
  });

  it("keeps a single ranking's order", () => {
    const hits = [0, 1, 2].map((i) => hit(chunk("d", i, String(i))));
    expect(reciprocalRankFusion([hits]).map((h) => h.chunk.ordinal)).toEqual([0, 1, 2]);
  });
});

describe("query analysis", () => {
  it("drops question words and stop words for BM25, in several languages", () => {
    expect(reformulateQuery("How many vacation days do full-time staff get?")).toBe("vacation days full time staff");
    expect(reformulateQuery("¿Cuál es el plazo de preaviso?")).toBe("plazo preaviso");
    expect(reformulateQuery("Quelle est la durée de la garantie ?")).toBe("durée garantie");
  });

  it("falls back to the question when nothing but stop words remain", () => {
    expect(reformulateQuery("What is it?")).toBe("What is it?");
  });
});
