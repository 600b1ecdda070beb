import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Schemas } from "@qdrant/js-client-rest";
import { afterEach, describe, expect, it } from "vitest";
import type { IndexedChunk } from "#application/ports/search-index";
import { makeChunk } from "../../tests/contracts/search-index.contract";
import {
  chunkPointId,
  DEFAULT_QDRANT_COLLECTION,
  QdrantSearchIndex,
  sparseDocumentVector,
  spaceVectorName,
  sparseQueryVector,
  termId,
} from "./qdrant-search-index";

/**
 * The Qdrant adapter without a Qdrant server: the pure parts (point ids, the
 * sparse BM25 vectors) and the exact requests it sends, answered by a small
 * local server with responses shaped like Qdrant's REST API (envelope
 * `{ result, status: "ok", time }`, errors `{ status: { error } }`; bodies
 * typed with the client's own OpenAPI schemas). The adapter's behaviour
 * against a real server is tests/contracts/qdrant-search-index.production.test.ts.
 */

interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: IncomingHttpHeaders;
  body: any;
}

interface Reply {
  status?: number;
  result?: unknown;
  error?: string;
}

const C = DEFAULT_QDRANT_COLLECTION;

/**
 * Just enough Qdrant: collection existence and configuration are kept; points
 * are not (queries answer `queryPoints`, retrieve answers the ids in
 * `pointIds`, scroll answers `scrollPages` one after another).
 */
class FakeQdrant {
  readonly requests: RecordedRequest[] = [];
  exists = false;
  vectors: Record<string, Schemas["VectorParams"]> = {};
  sparseVectors: Record<string, Schemas["SparseVectorParams"]> = {};
  payloadSchema: Record<string, Schemas["PayloadIndexInfo"]> = {};
  queryPoints: Schemas["ScoredPoint"][] = [];
  pointIds = new Set<string>();
  scrollPages: Schemas["ScrollResult"][] = [];
  count = 0;
  /** Replies that replace the normal one, by "METHOD /path". */
  overrides = new Map<string, (request: RecordedRequest) => Reply>();
  private server!: Server;
  url = "";

  constructor(readonly name = C) {}

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      let raw = "";
      req.on("data", (chunk: Buffer) => (raw += chunk.toString("utf8")));
      req.on("end", () => {
        const url = new URL(req.url ?? "/", "http://qdrant.test");
        const request: RecordedRequest = {
          method: req.method ?? "GET",
          path: url.pathname,
          query: Object.fromEntries(url.searchParams),
          headers: req.headers,
          body: raw ? JSON.parse(raw) : undefined,
        };
        this.requests.push(request);
        const override = this.overrides.get(`${request.method} ${request.path}`);
        const reply = override ? override(request) : this.route(request);
        res.writeHead(reply.status ?? 200, { "content-type": "application/json" });
        res.end(JSON.stringify(reply.error ? { status: { error: reply.error }, time: 0.0001 } : { result: reply.result, status: "ok", time: 0.0001 }));
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }

  /** The requests after set-up (the collection check, creation, info and payload indexes). */
  pointRequests(): RecordedRequest[] {
    return this.requests.filter((r) => r.path.includes("/points"));
  }

  info(): Schemas["CollectionInfo"] {
    return {
      status: "green",
      optimizer_status: "ok",
      segments_count: 2,
      points_count: 0,
      indexed_vectors_count: 0,
      config: {
        params: { vectors: this.vectors, shard_number: 1, replication_factor: 1, write_consistency_factor: 1, on_disk_payload: true, sparse_vectors: this.sparseVectors },
        hnsw_config: { m: 16, ef_construct: 100, full_scan_threshold: 10000, max_indexing_threads: 0, on_disk: false },
        optimizer_config: { deleted_threshold: 0.2, vacuum_min_vector_number: 1000, default_segment_number: 0, flush_interval_sec: 5 },
      },
      payload_schema: this.payloadSchema,
    };
  }

  private route(request: RecordedRequest): Reply {
    const done: Schemas["UpdateResult"] = { operation_id: this.requests.length, status: "completed" };
    const key = `${request.method} ${request.path}`;
    if (key === `GET /collections/${this.name}/exists`) return { result: { exists: this.exists } satisfies Schemas["CollectionExistence"] };
    if (key === `PUT /collections/${this.name}`) {
      this.exists = true;
      this.sparseVectors = request.body.sparse_vectors ?? {};
      this.vectors = request.body.vectors ?? {};
      return { result: true };
    }
    if (!this.exists) return { status: 404, error: `Not found: Collection \`${this.name}\` doesn't exist!` };
    if (key === `GET /collections/${this.name}`) return { result: this.info() };
    if (key === `PUT /collections/${this.name}/index`) {
      this.payloadSchema[request.body.field_name] = { data_type: request.body.field_schema, points: 0 };
      return { result: done };
    }
    const vector = /^PUT \/collections\/[^/]+\/vectors\/([^/]+)$/.exec(key);
    if (vector) {
      this.vectors[vector[1]] = request.body.dense;
      return { result: done };
    }
    if (key === `PUT /collections/${this.name}/points`) return { result: done };
    if (key === `POST /collections/${this.name}/points`) {
      const records: Schemas["Record"][] = request.body.ids.filter((id: string) => this.pointIds.has(id)).map((id: string) => ({ id }));
      return { result: records };
    }
    if (key === `PUT /collections/${this.name}/points/vectors`) {
      const missing = request.body.points.find((p: { id: string }) => !this.pointIds.has(p.id));
      return missing ? { status: 404, error: `Not found: No point with id ${missing.id} found` } : { result: done };
    }
    if (key === `POST /collections/${this.name}/points/scroll`) return { result: this.scrollPages.shift() ?? { points: [], next_page_offset: null } };
    if (key === `POST /collections/${this.name}/points/delete`) return { result: done };
    if (key === `POST /collections/${this.name}/points/query`) return { result: { points: this.queryPoints } satisfies Schemas["QueryResponse"] };
    if (key === `POST /collections/${this.name}/points/count`) return { result: { count: this.count } satisfies Schemas["CountResult"] };
    return { status: 404, error: `Not found: ${key}` };
  }
}

/** Chunks with an owner, a page and a layout block, so the payload carries them all. */
const chunk = (documentId: string, ordinal: number, text: string, extra: Partial<IndexedChunk> = {}): IndexedChunk =>
  makeChunk(documentId, ordinal, text, { ownerId: "owner-1", pageNumber: 3, blockIds: ["p3-b1"], ...extra });

/** The contract's two embedding models. */
const SPACE = "keyset-a/embed-small";
const OTHER_SPACE = "keyset-b/embed-large";
const vectorOf = (c: IndexedChunk, vector: number[]) => ({ chunkId: c.chunkId, documentId: c.documentId, vector });

const scored = (c: IndexedChunk, score: number): Schemas["ScoredPoint"] => ({
  id: chunkPointId(c.chunkId),
  version: 1,
  score,
  payload: { ...c },
});

let qdrant: FakeQdrant;
afterEach(async () => {
  await qdrant?.stop();
});

async function started(setUp: (fake: FakeQdrant) => void = () => undefined) {
  qdrant = await new FakeQdrant().start();
  setUp(qdrant);
  return new QdrantSearchIndex({ url: qdrant.url });
}

/** A collection as the adapter leaves it after its first use. */
const existing = (fake: FakeQdrant) => {
  fake.exists = true;
  fake.sparseVectors = { text: { modifier: "idf" } };
  fake.payloadSchema = { documentId: { data_type: "keyword", points: 0 }, ownerId: { data_type: "keyword", points: 0 } };
};

describe("Qdrant point ids", () => {
  it("are a stable UUIDv5 of the chunkId (changing them would orphan every indexed chunk)", () => {
    expect(chunkPointId("doc-1:0")).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(chunkPointId("doc-1:0")).toBe("0366eca7-a431-5dfa-ac66-ffd9b413136c");
    expect(chunkPointId("doc-1:0")).toBe(chunkPointId("doc-1:0"));
    expect(chunkPointId("doc-1:1")).not.toBe(chunkPointId("doc-1:0"));
  });
});

describe("space vector names", () => {
  it("are a stable, URL-safe hash of the space (changing them would orphan every stored vector)", () => {
    expect(spaceVectorName(SPACE)).toMatch(/^space_[0-9a-f]{16}$/);
    expect(spaceVectorName(SPACE)).toBe("space_972256df424cae0b");
    expect(spaceVectorName(OTHER_SPACE)).not.toBe(spaceVectorName(SPACE));
    expect(spaceVectorName("k/../../x y?#")).toMatch(/^space_[0-9a-f]{16}$/);
  });
});

describe("sparse BM25 vectors", () => {
  it("give a term the same stable id in documents and queries, after the embedded index's analysis", () => {
    expect(termId("payment")).toBe(termId("payment"));
    expect(termId("payment")).toBe(3898758834);
    const document = sparseDocumentVector("Payments were TERMINATED; the résumé is attached.");
    const query = sparseQueryVector("payment terminating RESUME");
    expect(query).not.toBeNull();
    for (const id of query!.indices) expect(document.indices).toContain(id);
    expect(query!.indices).toEqual([termId("payment"), termId("termin"), termId("resum")].sort((a, b) => a - b));
    expect(query!.values).toEqual([1, 1, 1]);
  });

  it("count each query term once and find nothing in syntax or punctuation", () => {
    expect(sparseQueryVector("payment payments PAYMENT")).toEqual({ indices: [termId("payment")], values: [1] });
    expect(sparseQueryVector(' "*:-()^ ')).toBeNull();
    expect(sparseQueryVector("")).toBeNull();
  });

  it("weigh terms by saturated, length-normalised frequency (BM25's document side)", () => {
    const weight = (text: string, term: string) => {
      const v = sparseDocumentVector(text);
      return v.values[v.indices.indexOf(termId(term))];
    };
    const once = weight("merger plan", "merger");
    const twice = weight("merger merger plan", "merger");
    const tenTimes = weight(`${"merger ".repeat(10)}plan`, "merger");
    expect(twice).toBeGreaterThan(once);
    expect(tenTimes).toBeGreaterThan(twice);
    expect(tenTimes).toBeLessThan(2.2); // saturates at k1 + 1
    expect(weight(`merger ${"filler ".repeat(300)}`, "merger")).toBeLessThan(weight("merger filler", "merger"));
    const v = sparseDocumentVector("b a c a");
    expect(v.indices).toEqual([...v.indices].sort((x, y) => x - y));
    expect(new Set(v.indices).size).toBe(3);
  });
});

describe("QdrantSearchIndex requests", () => {
  it("creates the collection on first use: sparse text vector with IDF, keyword indexes on documentId and ownerId", async () => {
    const index = await started();
    expect(await index.countChunks("doc-1")).toBe(0);
    expect(qdrant.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      `GET /collections/${C}/exists`,
      `PUT /collections/${C}`,
      `GET /collections/${C}`,
      `PUT /collections/${C}/index`,
      `PUT /collections/${C}/index`,
      `POST /collections/${C}/points/count`,
    ]);
    expect(qdrant.requests[1].body).toEqual({ sparse_vectors: { text: { modifier: "idf" } } });
    expect(qdrant.requests[3].body).toEqual({ field_name: "documentId", field_schema: "keyword" });
    expect(qdrant.requests[4].body).toEqual({ field_name: "ownerId", field_schema: "keyword" });
    expect(qdrant.requests[3].query).toEqual({ wait: "true" });
    // Set up once per process.
    await index.countChunks("doc-1");
    expect(qdrant.requests.filter((r) => r.path.endsWith("/exists"))).toHaveLength(1);
  });

  it("goes on when another process created the collection first", async () => {
    const index = await started((fake) =>
      fake.overrides.set(`PUT /collections/${C}`, () => {
        existing(fake);
        fake.overrides.delete(`PUT /collections/${C}`);
        return { status: 409, error: `Wrong input: Collection \`${C}\` already exists!` };
      }),
    );
    expect(await index.countChunks("doc-1")).toBe(0);
  });

  it("refuses a collection of the same name that is not a chunk index, saying what to do", async () => {
    const index = await started((fake) => {
      fake.exists = true;
      fake.vectors = {};
    });
    await expect(index.countChunks("doc-1")).rejects.toThrow(/not a chunk index.*QDRANT_COLLECTION/);
  });

  it("upserts one point per chunk: UUID id, only the sparse text vector (so a rewritten chunk loses its space vectors), payload with the chunkId; the last copy of a chunkId wins", async () => {
    const index = await started(existing);
    const first = chunk("doc-1", 0, "The invoice lists a payment.");
    const second = chunk("doc-1", 1, "Old text");
    await index.upsert([first, second, { ...second, text: "New text" }]);
    const [upsert] = qdrant.pointRequests();
    expect(`${upsert.method} ${upsert.path}`).toBe(`PUT /collections/${C}/points`);
    expect(upsert.query).toEqual({ wait: "true" });
    expect(upsert.body).toEqual({
      points: [
        {
          id: chunkPointId("doc-1:0"),
          vector: { text: sparseDocumentVector(first.text) },
          payload: { chunkId: "doc-1:0", documentId: "doc-1", ownerId: "owner-1", pageNumber: 3, ordinal: 0, text: first.text, blockIds: ["p3-b1"] },
        },
        {
          id: chunkPointId("doc-1:1"),
          vector: { text: sparseDocumentVector("New text") },
          payload: { chunkId: "doc-1:1", documentId: "doc-1", ownerId: "owner-1", pageNumber: 3, ordinal: 1, text: "New text", blockIds: ["p3-b1"] },
        },
      ],
    });
  });

  it("adds a named vector per space on first use, sized by its first vectors, and sets vectors on existing points only", async () => {
    const index = await started(existing);
    const [a, b, gone] = [chunk("doc-1", 0, "north"), chunk("doc-1", 1, "east"), chunk("doc-9", 0, "not indexed")];
    qdrant.pointIds = new Set([chunkPointId(a.chunkId), chunkPointId(b.chunkId)]);
    await index.upsertVectors(SPACE, [vectorOf(a, [9, 9, 9, 9]), vectorOf(b, [0, 1, 0, 0]), vectorOf(gone, [1, 1, 0, 0]), vectorOf(a, [1, 0, 0, 0])]);
    const name = spaceVectorName(SPACE);
    expect(qdrant.requests.filter((r) => !r.path.endsWith("/exists") && r.method !== "GET").map((r) => `${r.method} ${r.path}`)).toEqual([
      `PUT /collections/${C}/vectors/${name}`,
      `POST /collections/${C}/points`,
      `PUT /collections/${C}/points/vectors`,
    ]);
    const [added, lookup, update] = qdrant.requests.filter((r) => r.method !== "GET");
    expect(added.body).toEqual({ dense: { size: 4, distance: "Cosine" } });
    // The last vector of a chunkId wins; a chunk not in the index is looked up and left out.
    expect(lookup.body).toEqual({ ids: [a, b, gone].map((c) => chunkPointId(c.chunkId)), with_payload: false, with_vector: false });
    expect(update.query).toEqual({ wait: "true" });
    expect(update.body).toEqual({
      points: [
        { id: chunkPointId(a.chunkId), vector: { [name]: [1, 0, 0, 0] } },
        { id: chunkPointId(b.chunkId), vector: { [name]: [0, 1, 0, 0] } },
      ],
    });
    // Known from now on: no second request to add it; another space gets its own vector.
    await index.upsertVectors(SPACE, [vectorOf(b, [0, 0, 1, 0])]);
    await index.upsertVectors(OTHER_SPACE, [vectorOf(b, [0, 0, 1, 0, 0, 0])]);
    const adds = qdrant.requests.filter((r) => /\/vectors\/space_/.test(r.path));
    expect(adds.map((r) => [r.path.split("/").pop(), r.body.dense.size])).toEqual([
      [name, 4],
      [spaceVectorName(OTHER_SPACE), 6],
    ]);
    expect(qdrant.pointRequests().at(-1)!.body).toEqual({ points: [{ id: chunkPointId(b.chunkId), vector: { [spaceVectorName(OTHER_SPACE)]: [0, 0, 1, 0, 0, 0] } }] });
  });

  it("sends no update when none of the chunks is in the index", async () => {
    const index = await started(existing);
    await index.upsertVectors(SPACE, [vectorOf(chunk("doc-9", 0, "gone"), [1, 0, 0, 0])]);
    expect(qdrant.pointRequests().map((r) => `${r.method} ${r.path}`)).toEqual([`POST /collections/${C}/points`]);
  });

  it("looks the chunks up again when one is deleted between the look-up and the update", async () => {
    const index = await started(existing);
    const [a, b] = [chunk("doc-1", 0, "north"), chunk("doc-1", 1, "east")];
    qdrant.pointIds = new Set([chunkPointId(a.chunkId), chunkPointId(b.chunkId)]);
    qdrant.overrides.set(`POST /collections/${C}/points`, (request) => {
      qdrant.overrides.delete(`POST /collections/${C}/points`);
      const records = request.body.ids.map((id: string) => ({ id }));
      qdrant.pointIds.delete(chunkPointId(b.chunkId)); // deleted right after the look-up
      return { result: records };
    });
    await index.upsertVectors(SPACE, [vectorOf(a, [1, 0, 0, 0]), vectorOf(b, [0, 1, 0, 0])]);
    const updates = qdrant.pointRequests().filter((r) => r.path.endsWith("/points/vectors"));
    expect(updates).toHaveLength(2);
    expect(updates[1].body.points.map((p: { id: string }) => p.id)).toEqual([chunkPointId(a.chunkId)]);
  });

  it("keeps a space at the size it started with, within a batch and across processes", async () => {
    const index = await started(existing);
    const name = spaceVectorName(SPACE);
    const a = chunk("doc-1", 0, "north");
    await expect(index.upsertVectors(SPACE, [vectorOf(a, [1, 0, 0, 0]), vectorOf(chunk("doc-1", 1, "east"), [1, 0])])).rejects.toThrow(
      /keyset-a\/embed-small.*2 dimensions/,
    );
    // Another process created the space's vector with 6 dimensions just before this one tried.
    qdrant.overrides.set(`PUT /collections/${C}/vectors/${name}`, () => {
      qdrant.vectors[name] = { size: 6, distance: "Cosine" };
      return { status: 409, error: `Wrong input: Vector name ${name} already exists` };
    });
    await expect(index.upsertVectors(SPACE, [vectorOf(a, [1, 0, 0, 0])])).rejects.toThrow(
      'Vector space "keyset-a/embed-small" holds vectors of 6 dimensions, not 4',
    );
    await expect(index.upsertVectors(SPACE, [vectorOf(a, [1, 0, 0, 0])])).rejects.toThrow(/6 dimensions, not 4/);
    expect(qdrant.pointRequests()).toEqual([]);
    await expect(index.upsertVectors("", [vectorOf(a, [1, 0, 0, 0])])).rejects.toThrow(/at most 300 characters/);
  });

  it("says a Qdrant older than 1.18 cannot add a space's vector", async () => {
    const index = await started(existing);
    const name = spaceVectorName(SPACE);
    qdrant.overrides.set(`PUT /collections/${C}/vectors/${name}`, () => ({ status: 404, error: "Not Found" }));
    await expect(index.upsertVectors(SPACE, [vectorOf(chunk("doc-1", 0, "north"), [1, 0, 0, 0])])).rejects.toThrow(
      new RegExp(`${name}.*Qdrant 1\\.18`),
    );
  });

  it("counts a space's vectors of one document with a has_vector filter, and zero for a space never seen", async () => {
    const index = await started(existing);
    const name = spaceVectorName(SPACE);
    qdrant.vectors = { [name]: { size: 4, distance: "Cosine" } };
    qdrant.count = 3;
    expect(await index.countVectors(SPACE, "doc-1")).toBe(3);
    expect(await index.countVectors(OTHER_SPACE, "doc-1")).toBe(0);
    const counts = qdrant.pointRequests();
    expect(counts).toHaveLength(1);
    expect(`${counts[0].method} ${counts[0].path}`).toBe(`POST /collections/${C}/points/count`);
    expect(counts[0].body).toEqual({ filter: { must: [{ key: "documentId", match: { value: "doc-1" } }, { has_vector: name }] }, exact: true });
  });

  it("lists a document's chunks by scrolling every page with its filter, in reading order", async () => {
    const index = await started(existing);
    const [c0, c1, c2] = [chunk("doc-1", 0, "first"), chunk("doc-1", 1, "second"), chunk("doc-1", 2, "third")];
    const record = (c: IndexedChunk): Schemas["Record"] => ({ id: chunkPointId(c.chunkId), payload: { ...c } });
    qdrant.scrollPages = [
      { points: [record(c2), record(c0)], next_page_offset: chunkPointId(c1.chunkId) },
      { points: [record(c1)], next_page_offset: null },
    ];
    expect(await index.listChunks("doc-1")).toEqual([c0, c1, c2]);
    const scrolls = qdrant.pointRequests();
    expect(scrolls.map((r) => `${r.method} ${r.path}`)).toEqual([`POST /collections/${C}/points/scroll`, `POST /collections/${C}/points/scroll`]);
    const filter = { must: [{ key: "documentId", match: { value: "doc-1" } }] };
    expect(scrolls[0].body).toEqual({ filter, limit: 256, with_payload: true, with_vector: false });
    expect(scrolls[1].body).toEqual({ filter, limit: 256, offset: chunkPointId(c1.chunkId), with_payload: true, with_vector: false });
  });

  it("reads a document's chunks at given positions with one filtered scroll, in reading order", async () => {
    const index = await started(existing);
    const [c1, c3] = [chunk("doc-1", 1, "second"), chunk("doc-1", 3, "fourth")];
    qdrant.scrollPages = [{ points: [{ id: chunkPointId(c3.chunkId), payload: { ...c3 } }, { id: chunkPointId(c1.chunkId), payload: { ...c1 } }], next_page_offset: null }];
    expect(await index.chunksAt("doc-1", [3, 1, 1])).toEqual([c1, c3]);
    const scrolls = qdrant.pointRequests();
    expect(scrolls).toHaveLength(1);
    expect(scrolls[0].body).toEqual({
      filter: { must: [{ key: "documentId", match: { value: "doc-1" } }, { key: "ordinal", match: { any: [3, 1] } }] },
      limit: 2,
      with_payload: true,
      with_vector: false,
    });
    expect(await index.chunksAt("doc-1", [])).toEqual([]);
    expect(qdrant.pointRequests()).toHaveLength(1);
  });

  it("searches text with the scope as a filter inside the query, and maps hits back to chunks", async () => {
    const index = await started(existing);
    const a = chunk("doc-a", 2, "Payment due.");
    const b = chunk("doc-b", 0, "Payment received.");
    const c = chunk("doc-a", 1, "Payment terms.");
    qdrant.queryPoints = [scored(b, 2.5), scored(a, 1.25), scored(c, 1.25), scored(chunk("doc-a", 9, "zero"), 0)];
    const hits = await index.searchText("payment due", { documentIds: ["doc-a", "doc-b", "doc-a", ""] }, 10);
    const [query] = qdrant.pointRequests();
    expect(`${query.method} ${query.path}`).toBe(`POST /collections/${C}/points/query`);
    expect(query.body).toEqual({
      query: sparseQueryVector("payment due"),
      using: "text",
      filter: { must: [{ key: "documentId", match: { any: ["doc-a", "doc-b"] } }] },
      limit: 10,
      with_payload: true,
      with_vector: false,
    });
    // Qdrant's order; ties by document then ordinal; zero scores (no shared term) dropped.
    expect(hits.map((h) => [h.chunk.chunkId, h.score])).toEqual([
      ["doc-b:0", 2.5],
      ["doc-a:1", 1.25],
      ["doc-a:2", 1.25],
    ]);
    expect(hits[0].chunk).toEqual(b);
  });

  it("sends no search for an empty scope, a zero limit or a query without words", async () => {
    const index = await started(existing);
    expect(await index.searchText("payment", { documentIds: [] }, 10)).toEqual([]);
    expect(await index.searchText("payment", { documentIds: ["doc-a"] }, 0)).toEqual([]);
    expect(await index.searchText('"*:-()^', { documentIds: ["doc-a"] }, 10)).toEqual([]);
    expect(await index.searchVector(SPACE, [1, 0], { documentIds: [] }, 10)).toEqual([]);
    expect(await index.searchVector(SPACE, [0, 0], { documentIds: ["doc-a"] }, 10)).toEqual([]);
    expect(await index.searchVector(SPACE, [], { documentIds: ["doc-a"] }, 10)).toEqual([]);
    expect(await index.searchVector(SPACE, [1, 0], { documentIds: ["doc-a"] }, 0)).toEqual([]);
    expect(qdrant.pointRequests()).toEqual([]);
  });

  it("searches vectors by cosine using the space's vector, scoped by the same filter", async () => {
    const index = await started(existing);
    qdrant.vectors = { [spaceVectorName(SPACE)]: { size: 4, distance: "Cosine" }, [spaceVectorName(OTHER_SPACE)]: { size: 6, distance: "Cosine" } };
    const north = chunk("doc-a", 0, "north");
    qdrant.queryPoints = [scored(north, 0.995)];
    const hits = await index.searchVector(SPACE, [10, 1, 0, 0], { documentIds: ["doc-a", "doc-b", "doc-a"] }, 3);
    const [query] = qdrant.pointRequests();
    expect(`${query.method} ${query.path}`).toBe(`POST /collections/${C}/points/query`);
    expect(query.body).toEqual({
      query: [10, 1, 0, 0],
      using: spaceVectorName(SPACE),
      filter: { must: [{ key: "documentId", match: { any: ["doc-a", "doc-b"] } }] },
      limit: 3,
      with_payload: true,
      with_vector: false,
    });
    expect(hits).toEqual([{ chunk: north, score: 0.995 }]);
  });

  it("finds nothing, without querying, in a space never seen or with a query of another dimension than the space's", async () => {
    const index = await started(existing);
    qdrant.vectors = { [spaceVectorName(SPACE)]: { size: 4, distance: "Cosine" }, dense_3: { size: 3, distance: "Cosine" } };
    expect(await index.searchVector(OTHER_SPACE, [1, 0, 0, 0], { documentIds: ["doc-a"] }, 3)).toEqual([]);
    expect(await index.searchVector(SPACE, [1, 0, 0], { documentIds: ["doc-a"] }, 3)).toEqual([]);
    expect(qdrant.pointRequests()).toEqual([]);
  });

  it("deletes and counts by payload filter", async () => {
    const index = await started(existing);
    qdrant.count = 7;
    await index.deleteDocument("doc-1");
    await index.deleteOwner("owner-1");
    expect(await index.countChunks("doc-1")).toBe(7);
    const [byDocument, byOwner, count] = qdrant.pointRequests();
    expect([byDocument.method, byDocument.path, byDocument.query]).toEqual(["POST", `/collections/${C}/points/delete`, { wait: "true" }]);
    expect(byDocument.body).toEqual({ filter: { must: [{ key: "documentId", match: { value: "doc-1" } }] } });
    expect(byOwner.body).toEqual({ filter: { must: [{ key: "ownerId", match: { value: "owner-1" } }] } });
    expect(count.body).toEqual({ filter: { must: [{ key: "documentId", match: { value: "doc-1" } }] }, exact: true });
  });

  it("uses the configured collection and API key", async () => {
    qdrant = await new FakeQdrant("team_chunks").start();
    const index = new QdrantSearchIndex({ url: qdrant.url, apiKey: "secret-key", collection: "team_chunks" });
    expect(await index.countChunks("doc-1")).toBe(0);
    expect(qdrant.requests.every((r) => r.path.startsWith("/collections/team_chunks"))).toBe(true);
    expect(qdrant.requests.every((r) => r.headers["api-key"] === "secret-key")).toBe(true);
    expect(() => new QdrantSearchIndex({ url: qdrant.url, collection: "../x" })).toThrow(/Invalid Qdrant collection name/);
  });

  it("reports what it was doing and Qdrant's own error text, and tries the set-up again next time", async () => {
    const index = await started(existing);
    qdrant.overrides.set(`GET /collections/${C}/exists`, () => ({ status: 503, error: "Service Unavailable: shard is not ready" }));
    await expect(index.countChunks("doc-1")).rejects.toThrow("Qdrant could not look up the collection (HTTP 503): Service Unavailable: shard is not ready");
    qdrant.overrides.clear();
    expect(await index.countChunks("doc-1")).toBe(0);
  });
});
