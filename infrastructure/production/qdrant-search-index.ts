import { createHash } from "node:crypto";
import type { QdrantClient, Schemas } from "@qdrant/js-client-rest";
import { v5 as uuidv5 } from "uuid";
import type { ChunkHit, ChunkVector, IndexedChunk, SearchIndex, SearchScope } from "#application/ports/search-index";
import { chunkFields, compareChunks, normalizeLimit, scopeIds, validateChunk, validateVectors } from "#infrastructure/search/chunks";
import { analyzedQueryTerms, indexTerms } from "#infrastructure/search/terms";

export const DEFAULT_QDRANT_COLLECTION = "docuchat_chunks";
/** The sparse vector holding each chunk's terms (BM25 with Qdrant's IDF modifier). */
export const TEXT_VECTOR = "text";
/**
 * The named dense vector of a space (one embedding model, "<keysetId>/<model>"):
 * `space_` and the first 16 hex digits of SHA-1 of the space, since a space may
 * hold any character and vector names go into URL paths. Added to the
 * collection the first time vectors of that space arrive. Changing it would
 * orphan every stored vector.
 */
export function spaceVectorName(space: string): string {
  return `space_${createHash("sha1").update(space, "utf8").digest("hex").slice(0, 16)}`;
}

/** Namespace of the point ids: UUIDv5 of the chunkId. Changing it would orphan every indexed chunk. */
const CHUNK_POINT_NAMESPACE = "122fc242-c868-40e9-838e-0cf46fbee381";

/**
 * Qdrant point ids must be UUIDs or unsigned integers; a chunk's point id is
 * the UUIDv5 of its chunkId, so upserting a chunk again replaces its point
 * (the chunkId itself travels in the payload).
 */
export function chunkPointId(chunkId: string): string {
  return uuidv5(chunkId, CHUNK_POINT_NAMESPACE);
}

/** A term's sparse-vector index: the first 32 bits of SHA-1 of its UTF-8 bytes (stable across processes and releases). */
export function termId(term: string): number {
  return createHash("sha1").update(term, "utf8").digest().readUInt32BE(0);
}

export interface SparseVector {
  indices: number[];
  values: number[];
}

/** BM25's k1 and b, as SQLite's bm25() uses them. */
const K1 = 1.2;
const B = 0.75;
/** BM25 needs an average document length; chunks aim at ~800 characters (domain/library/chunking.ts), ~130 terms. */
const AVERAGE_CHUNK_TERMS = 130;

/**
 * The document side of BM25: each term's weight is its saturated, length-
 * normalised frequency tf·(k1+1) / (tf + k1·(1 − b + b·len/avglen)). Qdrant
 * multiplies it by the term's IDF over the collection (`modifier: "idf"`), so
 * a query's score is Σ idf(t)·weight(t) over its matched terms: BM25.
 */
export function sparseDocumentVector(text: string): SparseVector {
  const terms = indexTerms(text);
  const frequencies = new Map<number, number>();
  for (const term of terms) {
    const id = termId(term);
    frequencies.set(id, (frequencies.get(id) ?? 0) + 1);
  }
  const lengthNorm = K1 * (1 - B + (B * terms.length) / AVERAGE_CHUNK_TERMS);
  const entries = [...frequencies].sort((a, b) => a[0] - b[0]);
  return { indices: entries.map(([id]) => id), values: entries.map(([, tf]) => (tf * (K1 + 1)) / (tf + lengthNorm)) };
}

/** The query side: each distinct analyzed term once, weight 1 (IDF comes from Qdrant). Null when nothing is searchable. */
export function sparseQueryVector(query: string): SparseVector | null {
  const ids = [...new Set(analyzedQueryTerms(query).map(termId))].sort((a, b) => a - b);
  return ids.length === 0 ? null : { indices: ids, values: ids.map(() => 1) };
}

export interface QdrantSearchIndexOptions {
  /** QDRANT_URL, e.g. http://qdrant:6333 (https://…:6333 for Qdrant Cloud). */
  url: string;
  /** QDRANT_API_KEY, when the server wants one. */
  apiKey?: string;
  /** QDRANT_COLLECTION; default docuchat_chunks. */
  collection?: string;
  /** Points per upsert request (default 128). */
  batchSize?: number;
  /** Per-request timeout (default 60 s). */
  timeoutMs?: number;
}

/** Letters, digits, `_` and `-`: the name goes into URL paths. */
export const QDRANT_COLLECTION_NAME = /^[A-Za-z0-9_-]{1,255}$/;
const SPACE_VECTOR_NAME = /^space_[0-9a-f]{16}$/;
/** Points per scroll page of listChunks. */
const SCROLL_PAGE = 256;
const PAYLOAD_INDEXES = ["documentId", "ownerId"] as const;

type QueryRequest = Pick<Schemas["QueryRequest"], "query" | "using" | "filter" | "limit">;

/**
 * The search-index port on Qdrant (ARCHITECTURE §4, §6; `QDRANT_URL`).
 * docs/decisions/040-qdrant-search-index.md explains the layout:
 *
 * - One collection (default `docuchat_chunks`), one point per chunk, id =
 *   UUIDv5(chunkId), the chunk's fields as payload (keyword indexes on
 *   `documentId` and `ownerId`).
 * - Text: the sparse vector `text` with `modifier: "idf"`; the app turns text
 *   into terms exactly as the embedded FTS5 index does (infrastructure/search).
 * - Vectors: cosine, one named dense vector per space (`spaceVectorName`),
 *   its size that of the first vectors stored in the space, added on first
 *   use with Qdrant's create-named-vector API (Qdrant ≥ 1.18). Vectors are set
 *   on existing points with update-vectors, which leaves the payload and the
 *   other spaces alone; a query vector is compared only within its space.
 * - Rewriting a chunk: a point upsert replaces the whole point, and a
 *   named vector the upsert does not carry is deleted (Qdrant's
 *   `replace_all_vectors`); chunks are upserted with the `text` vector only,
 *   so a rewritten chunk loses its vectors in every space, as the port asks.
 * - Scope: every query carries the filter `documentId ∈ scope`, so Qdrant
 *   ranks and limits inside the scope; nothing is filtered afterwards.
 *
 * The collection is created on first use; several processes may race to
 * create it or a space's vector, and the loser finds it there.
 */
export class QdrantSearchIndex implements SearchIndex {
  readonly collection: string;
  private readonly clientOptions: ConstructorParameters<typeof QdrantClient>[0];
  private connected: QdrantClient | null = null;
  private readonly batchSize: number;
  private ready: Promise<void> | null = null;
  /** The collection's space vectors known so far: name → size. */
  private readonly spaceVectors = new Map<string, number>();
  private readonly addingVectors = new Map<string, Promise<void>>();

  constructor(options: QdrantSearchIndexOptions) {
    this.collection = options.collection ?? DEFAULT_QDRANT_COLLECTION;
    if (!QDRANT_COLLECTION_NAME.test(this.collection)) throw new Error(`Invalid Qdrant collection name: ${JSON.stringify(this.collection)}`);
    this.batchSize = options.batchSize ?? 128;
    // The version check would only print to the console; an old server fails with a clear message where it matters.
    this.clientOptions = { url: options.url, apiKey: options.apiKey, timeout: options.timeoutMs ?? 60_000, checkCompatibility: false };
  }

  /** The client, made when the collection is first set up: every use follows ensureCollection. */
  private get client(): QdrantClient {
    if (!this.connected) throw new Error("The Qdrant client is used before the collection is set up");
    return this.connected;
  }

  async upsert(chunks: IndexedChunk[]): Promise<void> {
    for (const chunk of chunks) validateChunk(chunk);
    if (chunks.length === 0) return;
    // The last copy of a chunkId in one batch wins, as if they were upserted one after another.
    const latest = [...new Map(chunks.map((chunk) => [chunk.chunkId, chunk])).values()];
    await this.ensureCollection();
    // Only the `text` vector: the upsert replaces the whole point, so an existing chunk's space vectors are dropped.
    const points = latest.map(toPoint);
    for (let i = 0; i < points.length; i += this.batchSize) {
      const batch = points.slice(i, i + this.batchSize);
      await this.call("store chunks", () => this.client.upsert(this.collection, { wait: true, points: batch }));
    }
  }

  async deleteDocument(documentId: string): Promise<void> {
    await this.deleteWhere("documentId", documentId);
  }

  async deleteOwner(ownerId: string): Promise<void> {
    await this.deleteWhere("ownerId", ownerId);
  }

  async countChunks(documentId: string): Promise<number> {
    await this.ensureCollection();
    const { count } = await this.call("count chunks", () =>
      this.client.count(this.collection, { filter: fieldIs("documentId", documentId), exact: true }),
    );
    return count;
  }

  async listChunks(documentId: string): Promise<IndexedChunk[]> {
    await this.ensureCollection();
    const chunks: IndexedChunk[] = [];
    let offset: Schemas["ExtendedPointId"] | undefined;
    do {
      const page = await this.call("list chunks", () =>
        this.client.scroll(this.collection, { filter: fieldIs("documentId", documentId), limit: SCROLL_PAGE, offset, with_payload: true, with_vector: false }),
      );
      for (const point of page.points) chunks.push(fromPayload(point.payload));
      offset = pointId(page.next_page_offset);
    } while (offset !== undefined);
    // Scroll goes by point id (a hash of the chunkId); reading order is the ordinal.
    return chunks.sort(compareChunks);
  }

  async chunksAt(documentId: string, ordinals: number[]): Promise<IndexedChunk[]> {
    const wanted = [...new Set(ordinals.filter(Number.isInteger))];
    if (!documentId || wanted.length === 0) return [];
    await this.ensureCollection();
    // Filtered by the indexed documentId first; a few positions of one document are one small scroll.
    const filter: Schemas["Filter"] = { must: [{ key: "documentId", match: { value: documentId } }, { key: "ordinal", match: { any: wanted } }] };
    const page = await this.call("read chunks", () =>
      this.client.scroll(this.collection, { filter, limit: wanted.length, with_payload: true, with_vector: false }),
    );
    return page.points.map((point) => fromPayload(point.payload)).sort(compareChunks);
  }

  async upsertVectors(space: string, vectors: ChunkVector[]): Promise<void> {
    validateVectors(space, vectors);
    if (vectors.length === 0) return;
    // The last vector of a chunkId in one batch wins, as if they were upserted one after another.
    const latest = [...new Map(vectors.map((v) => [v.chunkId, v])).values()];
    const size = latest[0].vector.length;
    const odd = latest.find((v) => v.vector.length !== size);
    if (odd) throw new Error(`Vector space ${JSON.stringify(space)}: chunk ${odd.chunkId} has ${odd.vector.length} dimensions, ${latest[0].chunkId} has ${size}`);
    await this.ensureCollection();
    const name = await this.ensureSpaceVector(space, size);
    const points = latest.map((v) => ({ id: chunkPointId(v.chunkId), vector: { [name]: v.vector } }));
    for (let i = 0; i < points.length; i += this.batchSize) await this.updateExisting(points.slice(i, i + this.batchSize));
  }

  async countVectors(space: string, documentId: string): Promise<number> {
    await this.ensureCollection();
    const name = spaceVectorName(space);
    if ((await this.spaceSize(name)) === undefined) return 0;
    const filter: Schemas["Filter"] = { must: [{ key: "documentId", match: { value: documentId } }, { has_vector: name }] };
    const { count } = await this.call("count vectors", () => this.client.count(this.collection, { filter, exact: true }));
    return count;
  }

  async searchText(query: string, scope: SearchScope, limit: number): Promise<ChunkHit[]> {
    const ids = scopeIds(scope);
    const max = normalizeLimit(limit);
    const sparse = sparseQueryVector(query);
    if (sparse === null || ids.length === 0 || max === 0) return [];
    await this.ensureCollection();
    const hits = await this.query({ query: sparse, using: TEXT_VECTOR, filter: inScope(ids), limit: max });
    // Only chunks sharing a term score above 0; a zero could only trail the real matches.
    return hits.filter((hit) => hit.score > 0);
  }

  async searchVector(space: string, vector: number[], scope: SearchScope, limit: number): Promise<ChunkHit[]> {
    const ids = scopeIds(scope);
    const max = normalizeLimit(limit);
    if (ids.length === 0 || max === 0 || !hasDirection(vector)) return [];
    await this.ensureCollection();
    const using = spaceVectorName(space);
    // No chunk was ever embedded in this space, or not with the query's dimension (the embedded index compares only equal lengths): nothing to compare with.
    if ((await this.spaceSize(using)) !== vector.length) return [];
    return this.query({ query: vector, using, filter: inScope(ids), limit: max });
  }

  /**
   * Sets named vectors on the points that exist. Update-vectors fails on a
   * missing point, and the port ignores vectors of chunks it does not hold, so
   * the ids are looked up first; a chunk deleted between the look-up and the
   * update (Qdrant answers 404) is looked up again.
   */
  private async updateExisting(points: Schemas["PointVectors"][]): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      const found = await this.call("look up chunks", () =>
        this.client.retrieve(this.collection, { ids: points.map((p) => p.id), with_payload: false, with_vector: false }),
      );
      const existing = new Set(found.map((record) => String(record.id)));
      const update = points.filter((p) => existing.has(String(p.id)));
      if (update.length === 0) return;
      try {
        await this.client.updateVectors(this.collection, { wait: true, points: update });
        return;
      } catch (error) {
        if (attempt < 3 && (error as { status?: number })?.status === 404) continue;
        throw qdrantError("store vectors", error);
      }
    }
  }

  private async query(request: QueryRequest): Promise<ChunkHit[]> {
    const { points } = await this.call("search", () =>
      this.client.query(this.collection, { ...request, with_payload: true, with_vector: false }),
    );
    const hits = points.map((point) => ({ chunk: fromPayload(point.payload), score: point.score }));
    // Equal scores: document, then ordinal, like the embedded index.
    return hits.sort((a, b) => b.score - a.score || compareChunks(a.chunk, b.chunk));
  }

  private async deleteWhere(field: "documentId" | "ownerId", value: string): Promise<void> {
    await this.ensureCollection();
    await this.call("delete chunks", () => this.client.delete(this.collection, { wait: true, filter: fieldIs(field, value) }));
  }

  private ensureCollection(): Promise<void> {
    this.ready ??= this.setUp().catch((error: unknown) => {
      this.ready = null;
      throw error;
    });
    return this.ready;
  }

  private async setUp(): Promise<void> {
    // The client library is imported here, not with the server bundle: an installation without Qdrant never loads it (decision 253).
    this.connected ??= new (await import("@qdrant/js-client-rest")).QdrantClient(this.clientOptions);
    const { exists } = await this.call("look up the collection", () => this.client.collectionExists(this.collection));
    if (!exists) {
      try {
        await this.client.createCollection(this.collection, { sparse_vectors: { [TEXT_VECTOR]: { modifier: "idf" } } });
      } catch (error) {
        // Another process may have created it meanwhile; otherwise the failure stands.
        const again = await this.call("look up the collection", () => this.client.collectionExists(this.collection));
        if (!again.exists) throw qdrantError(`create the collection ${this.collection}`, error);
      }
    }
    const info = await this.describe();
    const text = info.config.params.sparse_vectors?.[TEXT_VECTOR];
    if (!text || text.modifier !== "idf") {
      throw new Error(
        `The Qdrant collection ${this.collection} exists but is not a chunk index (it needs the sparse vector "${TEXT_VECTOR}" with modifier "idf"). Set QDRANT_COLLECTION to another name, or delete the collection.`,
      );
    }
    for (const field of PAYLOAD_INDEXES) {
      if (info.payload_schema[field]) continue;
      await this.call(`index the payload field ${field}`, () =>
        this.client.createPayloadIndex(this.collection, { field_name: field, field_schema: "keyword", wait: true }),
      );
    }
  }

  /** Reads the collection's configuration and remembers its space vectors. */
  private async describe(): Promise<Schemas["CollectionInfo"]> {
    const info = await this.call("read the collection", () => this.client.getCollection(this.collection));
    const vectors = info.config.params.vectors;
    // A collection made by this adapter has only named dense vectors (`size` at the top would be an unnamed one).
    // Others (such as the per-dimension `dense_<n>` of earlier releases) are left alone.
    if (vectors && !("size" in vectors)) {
      for (const [name, params] of Object.entries(vectors)) {
        if (!SPACE_VECTOR_NAME.test(name) || !params) continue;
        if (params.distance !== "Cosine") throw new Error(`The Qdrant collection ${this.collection} has a vector ${name} with distance ${params.distance}, not Cosine.`);
        this.spaceVectors.set(name, params.size);
      }
    }
    return info;
  }

  /** The size of a space's vector, or undefined while the collection has none. */
  private async spaceSize(name: string): Promise<number | undefined> {
    if (!this.spaceVectors.has(name)) await this.describe();
    return this.spaceVectors.get(name);
  }

  /** The space's vector name, after adding it (`size`) if the collection lacks it; a space keeps the size it started with. */
  private async ensureSpaceVector(space: string, size: number): Promise<string> {
    const name = spaceVectorName(space);
    if (!this.spaceVectors.has(name)) {
      let pending = this.addingVectors.get(name);
      if (!pending) {
        pending = this.addSpaceVector(name, size).finally(() => this.addingVectors.delete(name));
        this.addingVectors.set(name, pending);
      }
      await pending;
    }
    const known = this.spaceVectors.get(name);
    if (known !== size) throw new Error(`Vector space ${JSON.stringify(space)} holds vectors of ${known} dimensions, not ${size}`);
    return name;
  }

  private async addSpaceVector(name: string, size: number): Promise<void> {
    if ((await this.spaceSize(name)) !== undefined) return;
    try {
      await this.client.createVectorName(this.collection, name, { dense: { size, distance: "Cosine" } }, { wait: true });
    } catch (error) {
      // Added by another process meanwhile (perhaps with another size, which the caller reports)?
      if ((await this.spaceSize(name)) !== undefined) return;
      throw qdrantError(`add the vector ${name} to ${this.collection} (adding named vectors needs Qdrant 1.18 or later)`, error);
    }
    this.spaceVectors.set(name, size);
  }

  private async call<T>(action: string, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (error) {
      throw qdrantError(action, error);
    }
  }
}

function toPoint(chunk: IndexedChunk): Schemas["PointStruct"] {
  return { id: chunkPointId(chunk.chunkId), vector: { [TEXT_VECTOR]: sparseDocumentVector(chunk.text) }, payload: { ...chunkFields(chunk) } };
}

function fromPayload(payload: Schemas["Payload"] | null | undefined): IndexedChunk {
  const p = (payload ?? {}) as Partial<Record<keyof IndexedChunk, unknown>>;
  const strings = [p.chunkId, p.documentId, p.ownerId, p.text];
  if (!strings.every((s) => typeof s === "string") || typeof p.pageNumber !== "number" || typeof p.ordinal !== "number") {
    throw new Error(`A Qdrant point holds no chunk payload (chunkId ${JSON.stringify(p.chunkId)})`);
  }
  return {
    chunkId: p.chunkId as string,
    documentId: p.documentId as string,
    ownerId: p.ownerId as string,
    pageNumber: p.pageNumber,
    ordinal: p.ordinal,
    text: p.text as string,
    blockIds: Array.isArray(p.blockIds) ? p.blockIds.filter((id): id is string => typeof id === "string") : [],
  };
}

/** A query vector cosine can compare with: non-empty, finite and not all zeros (the embedded index answers nothing for those too). */
function hasDirection(vector: number[]): boolean {
  return vector.length > 0 && vector.every(Number.isFinite) && vector.some((x) => x !== 0);
}

/** Scroll's next page offset, when there is one. */
function pointId(offset: Schemas["ScrollResult"]["next_page_offset"]): Schemas["ExtendedPointId"] | undefined {
  return typeof offset === "string" || typeof offset === "number" ? offset : undefined;
}

function fieldIs(key: string, value: string): Schemas["Filter"] {
  return { must: [{ key, match: { value } }] };
}

/** The scope, applied by Qdrant before ranking. */
function inScope(documentIds: string[]): Schemas["Filter"] {
  return { must: [{ key: "documentId", match: { any: documentIds } }] };
}

/** Qdrant's own explanation (`{"status":{"error":"…"}}`) when the server gave one. */
function qdrantError(action: string, error: unknown): Error {
  const e = error as { status?: number; message?: string; data?: { status?: { error?: string } } };
  const detail = e?.data?.status?.error ?? e?.message ?? String(error);
  return new Error(`Qdrant could not ${action}${e?.status ? ` (HTTP ${e.status})` : ""}: ${detail}`, { cause: error });
}
