import { createHash } from "node:crypto";
import { QdrantClient, type Schemas } from "@qdrant/js-client-rest";
import { v5 as uuidv5 } from "uuid";
import type { ChunkHit, IndexedChunk, SearchIndex, SearchScope } from "#application/ports/search-index";
import { chunkFields, compareChunks, normalizeLimit, scopeIds, validateChunk } from "#infrastructure/search/chunks";
import { analyzedQueryTerms, indexTerms } from "#infrastructure/search/terms";

export const DEFAULT_QDRANT_COLLECTION = "docuchat_chunks";
/** The sparse vector holding each chunk's terms (BM25 with Qdrant's IDF modifier). */
export const TEXT_VECTOR = "text";
/** One dense vector per dimension, added to the collection the first time a chunk of that dimension arrives. */
export const denseVectorName = (dimensions: number) => `dense_${dimensions}`;

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
const DENSE_NAME = /^dense_(\d+)$/;
const PAYLOAD_INDEXES = ["documentId", "ownerId"] as const;

type QueryRequest = Pick<Schemas["QueryRequest"], "query" | "using" | "filter" | "limit">;

/**
 * The search-index port on Qdrant (ARCHITECTURE §4, §6; `QDRANT_URL`).
 * docs/decisions/040-qdrant-search-index.md explains the layout:
 *
 * - One collection (default `docuchat_chunks`), one point per chunk, id =
 *   UUIDv5(chunkId), the chunk's fields as payload (keyword indexes on
 *   `documentId` and `ownerId`). Upsert replaces the whole point, vectors
 *   included, so a chunk upserted without a vector leaves vector search.
 * - Text: the sparse vector `text` with `modifier: "idf"`; the app turns text
 *   into terms exactly as the embedded FTS5 index does (infrastructure/search).
 * - Vectors: cosine, one named dense vector per dimension (`dense_384`, …),
 *   added on first use with Qdrant's create-named-vector API (Qdrant ≥ 1.18);
 *   a query vector is compared only with chunks of its own dimension.
 * - Scope: every query carries the filter `documentId ∈ scope`, so Qdrant
 *   ranks and limits inside the scope; nothing is filtered afterwards.
 *
 * The collection is created on first use; several processes may race to
 * create it or a dense vector, and the loser finds it there.
 */
export class QdrantSearchIndex implements SearchIndex {
  readonly collection: string;
  private readonly client: QdrantClient;
  private readonly batchSize: number;
  private ready: Promise<void> | null = null;
  /** Dense vector names the collection is known to have. */
  private readonly denseVectors = new Set<string>();
  private readonly addingDense = new Map<string, Promise<void>>();

  constructor(options: QdrantSearchIndexOptions) {
    this.collection = options.collection ?? DEFAULT_QDRANT_COLLECTION;
    if (!QDRANT_COLLECTION_NAME.test(this.collection)) throw new Error(`Invalid Qdrant collection name: ${JSON.stringify(this.collection)}`);
    this.batchSize = options.batchSize ?? 128;
    // The version check would only print to the console; an old server fails with a clear message where it matters.
    this.client = new QdrantClient({ url: options.url, apiKey: options.apiKey, timeout: options.timeoutMs ?? 60_000, checkCompatibility: false });
  }

  async upsert(chunks: IndexedChunk[]): Promise<void> {
    for (const chunk of chunks) validateChunk(chunk);
    if (chunks.length === 0) return;
    // The last copy of a chunkId in one batch wins, as if they were upserted one after another.
    const latest = [...new Map(chunks.map((chunk) => [chunk.chunkId, chunk])).values()];
    await this.ensureCollection();
    const dimensions = new Set(latest.flatMap((chunk) => (hasDirection(chunk.vector) ? [chunk.vector.length] : [])));
    for (const size of dimensions) await this.ensureDenseVector(size);
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

  async searchVector(vector: number[], scope: SearchScope, limit: number): Promise<ChunkHit[]> {
    const ids = scopeIds(scope);
    const max = normalizeLimit(limit);
    if (ids.length === 0 || max === 0 || !hasDirection(vector)) return [];
    await this.ensureCollection();
    const using = denseVectorName(vector.length);
    // No chunk was ever embedded with this dimension: nothing to compare with.
    if (!(await this.hasDenseVector(using))) return [];
    return this.query({ query: vector, using, filter: inScope(ids), limit: max });
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

  /** Reads the collection's configuration and remembers its dense vectors. */
  private async describe(): Promise<Schemas["CollectionInfo"]> {
    const info = await this.call("read the collection", () => this.client.getCollection(this.collection));
    const vectors = info.config.params.vectors;
    // A collection made by this adapter has only named dense vectors (`size` at the top would be an unnamed one).
    if (vectors && !("size" in vectors)) {
      for (const [name, params] of Object.entries(vectors)) {
        const match = DENSE_NAME.exec(name);
        if (!match || !params) continue;
        if (params.size !== Number(match[1]) || params.distance !== "Cosine") {
          throw new Error(`The Qdrant collection ${this.collection} has a vector ${name} of size ${params.size} (${params.distance}), not ${match[1]} (Cosine).`);
        }
        this.denseVectors.add(name);
      }
    }
    return info;
  }

  private async hasDenseVector(name: string): Promise<boolean> {
    if (!this.denseVectors.has(name)) await this.describe();
    return this.denseVectors.has(name);
  }

  private ensureDenseVector(size: number): Promise<void> {
    const name = denseVectorName(size);
    if (this.denseVectors.has(name)) return Promise.resolve();
    let pending = this.addingDense.get(name);
    if (!pending) {
      pending = this.addDenseVector(name, size).finally(() => this.addingDense.delete(name));
      this.addingDense.set(name, pending);
    }
    return pending;
  }

  private async addDenseVector(name: string, size: number): Promise<void> {
    if (await this.hasDenseVector(name)) return;
    try {
      await this.client.createVectorName(this.collection, name, { dense: { size, distance: "Cosine" } }, { wait: true });
    } catch (error) {
      // Added by another process meanwhile?
      if (await this.hasDenseVector(name)) return;
      throw qdrantError(`add the dense vector ${name} to ${this.collection} (adding named vectors needs Qdrant 1.18 or later)`, error);
    }
    this.denseVectors.add(name);
  }

  private async call<T>(action: string, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (error) {
      throw qdrantError(action, error);
    }
  }
}

/** The point's payload: the chunk without its vector. */
type ChunkPayload = Omit<IndexedChunk, "vector">;

function toPoint(chunk: IndexedChunk): Schemas["PointStruct"] {
  const vector: Record<string, Schemas["Vector"]> = { [TEXT_VECTOR]: sparseDocumentVector(chunk.text) };
  if (hasDirection(chunk.vector)) vector[denseVectorName(chunk.vector.length)] = chunk.vector;
  return { id: chunkPointId(chunk.chunkId), vector, payload: { ...chunkFields(chunk) } };
}

function fromPayload(payload: Schemas["Payload"] | null | undefined): IndexedChunk {
  const p = (payload ?? {}) as Partial<Record<keyof ChunkPayload, unknown>>;
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

/** A vector Qdrant can compare by cosine: non-empty and not all zeros (the embedded index skips those too). */
function hasDirection(vector: number[] | undefined): vector is number[] {
  return vector !== undefined && vector.length > 0 && vector.every(Number.isFinite) && vector.some((x) => x !== 0);
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
