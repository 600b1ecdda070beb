import { randomUUID } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ChunkHit, IndexedChunk, SearchIndex } from "#application/ports/search-index";

export interface SearchIndexFixture {
  index: SearchIndex;
  cleanup(): Promise<void>;
}

/** A chunk as tests write one: id `<documentId>:<ordinal>`, owner "owner", page 1, no layout blocks, no vector. */
export function makeChunk(documentId: string, ordinal: number, text: string, extra: Partial<IndexedChunk> = {}): IndexedChunk {
  return { chunkId: `${documentId}:${ordinal}`, documentId, ownerId: "owner", pageNumber: 1, ordinal, text, blockIds: [], ...extra };
}

/**
 * Shared guarantees of every SearchIndex adapter (ARCHITECTURE §4, §6).
 * Ids are unique per test, so adapters backed by a shared server need no
 * clean slate; every assertion goes through a scope or a document id.
 */
export function searchIndexContract(name: string, makeIndex: () => Promise<SearchIndexFixture>): void {
  describe(`SearchIndex contract: ${name}`, () => {
    let fixture: SearchIndexFixture;
    let index: SearchIndex;
    let run: string;

    beforeEach(async () => {
      fixture = await makeIndex();
      index = fixture.index;
      run = randomUUID().replace(/-/g, "").slice(0, 10);
    });
    afterEach(async () => {
      await fixture.cleanup();
    });

    const doc = (name: string) => `${run}-doc-${name}`;
    const owner = (name: string) => `${run}-owner-${name}`;
    const chunk = (documentName: string, ordinal: number, text: string, extra: Partial<IndexedChunk> = {}): IndexedChunk =>
      makeChunk(doc(documentName), ordinal, text, { ownerId: owner("a"), ...extra });
    const chunkIds = (hits: ChunkHit[]) => hits.map((h) => h.chunk.chunkId);
    const documents = (hits: ChunkHit[]) => [...new Set(hits.map((h) => h.chunk.documentId))];

    describe("upsert", () => {
      it("is idempotent by chunkId: the same chunk twice is one chunk and one hit", async () => {
        const c = chunk("x", 0, "The lease terminates on the last day of March.");
        await index.upsert([c]);
        await index.upsert([c]);
        expect(await index.countChunks(doc("x"))).toBe(1);
        const hits = await index.searchText("lease terminates", { documentIds: [doc("x")] }, 10);
        expect(chunkIds(hits)).toEqual([c.chunkId]);
      });

      it("replaces a chunk's text: the old words no longer find it, the new ones do", async () => {
        await index.upsert([chunk("x", 0, "Quarterly revenue grew in the northern region.")]);
        await index.upsert([chunk("x", 0, "Employee onboarding checklist and badge request.")]);
        const scope = { documentIds: [doc("x")] };
        expect(await index.searchText("revenue northern", scope, 10)).toEqual([]);
        expect(chunkIds(await index.searchText("onboarding badge", scope, 10))).toEqual([`${doc("x")}:0`]);
        expect(await index.countChunks(doc("x"))).toBe(1);
      });

      it("accepts an empty batch and counts zero for an unknown document", async () => {
        await index.upsert([]);
        expect(await index.countChunks(doc("nothing"))).toBe(0);
      });

      it("round-trips page numbers, ordinals, owner and blockIds", async () => {
        const c = chunk("x", 7, "Appendix B lists the calibration constants.", {
          pageNumber: 42,
          ownerId: owner("b"),
          blockIds: ["p42-b3", "p42-b4", "p42-b5"],
        });
        await index.upsert([c, chunk("x", 8, "Nothing relevant here.", { pageNumber: 43 })]);
        const [hit] = await index.searchText("calibration constants", { documentIds: [doc("x")] }, 1);
        expect(hit.chunk).toMatchObject({
          chunkId: c.chunkId,
          documentId: doc("x"),
          ownerId: owner("b"),
          pageNumber: 42,
          ordinal: 7,
          text: c.text,
          blockIds: ["p42-b3", "p42-b4", "p42-b5"],
        });
      });
    });

    describe("text search (BM25)", () => {
      it("finds the chunk whose text contains the terms and ranks more matched terms higher", async () => {
        await index.upsert([
          chunk("x", 0, "The invoice lists a payment due within thirty days."),
          chunk("x", 1, "Our office kitchen has a new coffee machine today."),
          chunk("x", 2, "A payment was received from the customer yesterday."),
        ]);
        const hits = await index.searchText("invoice payment due", { documentIds: [doc("x")] }, 10);
        expect(chunkIds(hits)).toEqual([`${doc("x")}:0`, `${doc("x")}:2`]);
        expect(hits[0].score).toBeGreaterThan(hits[1].score);
      });

      it("is case-insensitive and respects the limit", async () => {
        await index.upsert([1, 2, 3, 4, 5].map((n) => chunk("x", n, `Warranty clause number ${n} of the contract.`)));
        const hits = await index.searchText("WARRANTY", { documentIds: [doc("x")] }, 3);
        expect(hits).toHaveLength(3);
        for (const hit of hits) expect(hit.chunk.text).toMatch(/Warranty/);
      });

      it("returns nothing for a query without searchable words, an empty scope or a zero limit", async () => {
        await index.upsert([chunk("x", 0, "Shipping address and billing address.")]);
        const scope = { documentIds: [doc("x")] };
        expect(await index.searchText("", scope, 10)).toEqual([]);
        expect(await index.searchText("   ?!  ", scope, 10)).toEqual([]);
        expect(await index.searchText("address", { documentIds: [] }, 10)).toEqual([]);
        expect(await index.searchText("address", scope, 0)).toEqual([]);
        expect(await index.searchText("nonexistentword", scope, 10)).toEqual([]);
      });
    });

    describe("scope", () => {
      // Owner A's document repeats the query words many times; owner B's matches weakly.
      const seedTwoOwners = async () => {
        const strong = Array.from({ length: 30 }, (_, i) =>
          chunk("a", i, "Confidential merger plan: merger price, merger date, merger partner.", { ownerId: owner("a") }),
        );
        await index.upsert([
          ...strong,
          chunk("b", 0, "Notes on the company picnic and the merger rumour.", { ownerId: owner("b") }),
          chunk("b", 1, "Unrelated text about gardening.", { ownerId: owner("b") }),
        ]);
      };

      it("ranks only inside the scope: better matches elsewhere never take a slot", async () => {
        await seedTwoOwners();
        const hits = await index.searchText("confidential merger plan price", { documentIds: [doc("b")] }, 3);
        expect(chunkIds(hits)).toEqual([`${doc("b")}:0`]);
      });

      it("never returns another owner's documents, however the query is phrased", async () => {
        await seedTwoOwners();
        for (const query of ["merger", "confidential merger plan", "merger OR confidential", '"merger" *', "doc-a"]) {
          const hits = await index.searchText(query, { documentIds: [doc("b"), doc("unknown")] }, 50);
          expect(documents(hits).every((id) => id === doc("b"))).toBe(true);
        }
      });

      it("another owner's chunks repeating every word of the query neither appear nor change the order inside the scope", async () => {
        await seedTwoOwners();
        const scope = { documentIds: [doc("b")] };
        await index.upsert([chunk("b", 2, "The merger closed; the merger was announced.", { ownerId: owner("b") })]);
        const before = chunkIds(await index.searchText("merger", scope, 10));
        await index.upsert(
          Array.from({ length: 50 }, (_, i) => chunk(`c-${i % 5}`, i, "merger notes picnic company rumour merger", { ownerId: owner("c") })),
        );
        const after = chunkIds(await index.searchText("merger", scope, 10));
        expect(after).toEqual(before);
        expect(after).toEqual([`${doc("b")}:2`, `${doc("b")}:0`]);
      });

      it("covers every document listed in the scope", async () => {
        await seedTwoOwners();
        const hits = await index.searchText("merger", { documentIds: [doc("a"), doc("b")] }, 100);
        expect(documents(hits).sort()).toEqual([doc("a"), doc("b")].sort());
        expect(hits).toHaveLength(31);
      });
    });

    describe("hostile queries", () => {
      const hostile = [
        '"',
        '""',
        '"unbalanced quote',
        "NEAR(",
        "NEAR(payment invoice, 2)",
        "payment*",
        "*",
        "text:payment",
        "chunk_id:x",
        "-payment",
        "payment -invoice",
        "(payment",
        "payment)",
        "(())",
        "^payment",
        "payment AND",
        "AND OR NOT",
        "payment'; DROP TABLE chunks; --",
        "1=1 OR 'a'='a'",
        "{payment invoice}",
        "payment + invoice",
        "\u0000payment",
        "💸 payment 💸",
        "payment ".repeat(500),
      ];

      it("never throw, never leave the scope and still find the plain words in them", async () => {
        await index.upsert([
          chunk("x", 0, "The invoice lists a payment due within thirty days."),
          chunk("y", 0, "payment payment payment invoice", { ownerId: owner("other") }),
        ]);
        for (const query of hostile) {
          const hits = await index.searchText(query, { documentIds: [doc("x")] }, 10);
          expect(documents(hits).every((id) => id === doc("x")), query).toBe(true);
          if (/payment/.test(query)) expect(chunkIds(hits), query).toEqual([`${doc("x")}:0`]);
        }
        expect(await index.countChunks(doc("x"))).toBe(1);
      });

      it("treat keywords and punctuation-only queries as text, not syntax", async () => {
        await index.upsert([chunk("x", 0, "Rock and roll, near the river, or not at all.")]);
        const scope = { documentIds: [doc("x")] };
        expect(chunkIds(await index.searchText("NEAR", scope, 10))).toEqual([`${doc("x")}:0`]);
        expect(chunkIds(await index.searchText("NOT", scope, 10))).toEqual([`${doc("x")}:0`]);
        expect(await index.searchText('"*:-()^', scope, 10)).toEqual([]);
      });
    });

    /** Two embedding models' spaces (4 and 6 dimensions): a vector is only ever compared with vectors of its own model. */
    const SPACE = "keyset-a/embed-small";
    const OTHER_SPACE = "keyset-b/embed-large";
    const embed = (space: string, entries: [IndexedChunk, number[]][]) =>
      index.upsertVectors(space, entries.map(([c, vector]) => ({ chunkId: c.chunkId, documentId: c.documentId, vector })));

    describe("vector search (cosine)", () => {
      // Built per test: the ids carry the test's run prefix.
      let x: IndexedChunk[];
      let y: IndexedChunk;
      beforeEach(() => {
        x = [chunk("x", 0, "north"), chunk("x", 1, "north-east"), chunk("x", 2, "east"), chunk("x", 3, "south"), chunk("x", 4, "no vector")];
        y = chunk("y", 0, "other owner, exactly north", { ownerId: owner("other") });
      });
      const seedVectors = async () => {
        await index.upsert([...x, y]);
        await embed(SPACE, [
          [x[0], [1, 0, 0, 0]],
          [x[1], [0.7, 0.7, 0, 0]],
          [x[2], [0, 1, 0, 0]],
          [x[3], [-1, 0, 0, 0]],
          [y, [2, 0, 0, 0]],
        ]);
      };

      it("ranks by cosine similarity, independent of vector length", async () => {
        await seedVectors();
        const hits = await index.searchVector(SPACE, [10, 1, 0, 0], { documentIds: [doc("x")] }, 10);
        expect(chunkIds(hits)).toEqual([`${doc("x")}:0`, `${doc("x")}:1`, `${doc("x")}:2`, `${doc("x")}:3`]);
        expect(hits[0].score).toBeCloseTo(10 / Math.sqrt(101), 4);
        expect(hits[3].score).toBeCloseTo(-10 / Math.sqrt(101), 4);
        expect(hits[0].chunk).toEqual(x[0]);
      });

      it("respects the scope and the limit", async () => {
        await seedVectors();
        const hits = await index.searchVector(SPACE, [1, 0, 0, 0], { documentIds: [doc("x")] }, 2);
        expect(chunkIds(hits)).toEqual([`${doc("x")}:0`, `${doc("x")}:1`]);
        expect(await index.searchVector(SPACE, [1, 0, 0, 0], { documentIds: [] }, 5)).toEqual([]);
        const other = await index.searchVector(SPACE, [1, 0, 0, 0], { documentIds: [doc("y")] }, 5);
        expect(chunkIds(other)).toEqual([`${doc("y")}:0`]);
      });

      it("replaces a chunk's vector in its space", async () => {
        await seedVectors();
        await embed(SPACE, [[x[3], [0, 0, 0, 1]]]);
        const [hit] = await index.searchVector(SPACE, [0, 0, 0, 1], { documentIds: [doc("x")] }, 1);
        expect(hit.chunk.chunkId).toBe(`${doc("x")}:3`);
        expect(hit.score).toBeCloseTo(1, 4);
        expect(await index.countVectors(SPACE, doc("x"))).toBe(4);
      });

      it("keeps spaces apart: another model's vectors are neither found nor counted", async () => {
        await seedVectors();
        await embed(OTHER_SPACE, [[x[4], [0, 0, 1, 0, 0, 0]]]);
        const scope = { documentIds: [doc("x")] };
        expect(chunkIds(await index.searchVector(OTHER_SPACE, [0, 0, 1, 0, 0, 0], scope, 10))).toEqual([`${doc("x")}:4`]);
        expect(chunkIds(await index.searchVector(SPACE, [0, 0, 1, 0], scope, 10))).not.toContain(`${doc("x")}:4`);
        expect(await index.countVectors(SPACE, doc("x"))).toBe(4);
        expect(await index.countVectors(OTHER_SPACE, doc("x"))).toBe(1);
        expect(await index.countVectors("keyset-c/never-used", doc("x"))).toBe(0);
      });

      it("lists a document's chunks in reading order, and ignores a vector for a chunk it does not hold", async () => {
        await seedVectors();
        expect((await index.listChunks(doc("x"))).map((c) => c.text)).toEqual(["north", "north-east", "east", "south", "no vector"]);
        expect(await index.listChunks(doc("nothing"))).toEqual([]);
        // A hit's neighbours, by position: in reading order, positions the document lacks left out.
        expect((await index.chunksAt(doc("x"), [3, 1, 99, 1])).map((c) => c.text)).toEqual(["north-east", "south"]);
        expect(await index.chunksAt(doc("nothing"), [0])).toEqual([]);
        await index.upsertVectors(SPACE, [{ chunkId: `${doc("z")}:0`, documentId: doc("z"), vector: [1, 0, 0, 0] }]);
        expect(await index.countVectors(SPACE, doc("z"))).toBe(0);
        expect(await index.searchVector(SPACE, [1, 0, 0, 0], { documentIds: [doc("z")] }, 5)).toEqual([]);
      });
    });

    describe("vector replacement", () => {
      it("a chunk written again leaves vector search in every space but stays in text search", async () => {
        const c = chunk("x", 0, "embedded once");
        await index.upsert([c]);
        await embed(SPACE, [[c, [1, 0, 0, 0]]]);
        await embed(OTHER_SPACE, [[c, [1, 0, 0, 0, 0, 0]]]);
        await index.upsert([{ ...c, text: "embedded once, then rewritten" }]);
        const scope = { documentIds: [doc("x")] };
        expect(await index.searchVector(SPACE, [1, 0, 0, 0], scope, 5)).toEqual([]);
        expect(await index.searchVector(OTHER_SPACE, [1, 0, 0, 0, 0, 0], scope, 5)).toEqual([]);
        expect(await index.countVectors(SPACE, doc("x"))).toBe(0);
        expect(chunkIds(await index.searchText("rewritten", scope, 5))).toEqual([`${doc("x")}:0`]);
      });
    });

    describe("deletion", () => {
      it("deleteDocument removes the document's chunks from text and vector search", async () => {
        const chunks = [chunk("x", 0, "Termination for convenience."), chunk("x", 1, "Termination for cause."), chunk("y", 0, "Termination notice period.")];
        await index.upsert(chunks);
        await embed(SPACE, [
          [chunks[0], [1, 0, 0, 0]],
          [chunks[1], [0, 1, 0, 0]],
          [chunks[2], [1, 0, 0, 0]],
        ]);
        await index.deleteDocument(doc("x"));
        const scope = { documentIds: [doc("x"), doc("y")] };
        expect(await index.countChunks(doc("x"))).toBe(0);
        expect(await index.countChunks(doc("y"))).toBe(1);
        expect(documents(await index.searchText("termination", scope, 10))).toEqual([doc("y")]);
        expect(documents(await index.searchVector(SPACE, [1, 0, 0, 0], scope, 10))).toEqual([doc("y")]);
        expect(await index.countVectors(SPACE, doc("x"))).toBe(0);
      });

      it("deleteOwner removes every document of that owner and nobody else's", async () => {
        const chunks = [
          chunk("a1", 0, "Shared vocabulary: budget forecast.", { ownerId: owner("a") }),
          chunk("a2", 0, "Shared vocabulary: budget review.", { ownerId: owner("a") }),
          chunk("b1", 0, "Shared vocabulary: budget approval.", { ownerId: owner("b") }),
        ];
        await index.upsert(chunks);
        await embed(SPACE, chunks.map((c): [IndexedChunk, number[]] => [c, [1, 0, 0, 0]]));
        await index.deleteOwner(owner("a"));
        const scope = { documentIds: [doc("a1"), doc("a2"), doc("b1")] };
        expect(await index.countChunks(doc("a1"))).toBe(0);
        expect(await index.countChunks(doc("a2"))).toBe(0);
        expect(await index.countChunks(doc("b1"))).toBe(1);
        expect(documents(await index.searchText("budget vocabulary", scope, 10))).toEqual([doc("b1")]);
        expect(documents(await index.searchVector(SPACE, [1, 0, 0, 0], scope, 10))).toEqual([doc("b1")]);
      });

      it("re-indexing after deletion works", async () => {
        const c = chunk("x", 0, "Indemnification cap equals fees paid.");
        await index.upsert([c]);
        await index.deleteDocument(doc("x"));
        await index.upsert([c]);
        expect(await index.countChunks(doc("x"))).toBe(1);
        expect(chunkIds(await index.searchText("indemnification", { documentIds: [doc("x")] }, 5))).toEqual([c.chunkId]);
      });
    });
  });
}
