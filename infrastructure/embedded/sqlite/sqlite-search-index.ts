import type Database from "better-sqlite3";
import type { ChunkHit, ChunkVector, IndexedChunk, SearchIndex, SearchScope } from "#application/ports/search-index";
import { chunkFields, compareChunks, normalizeLimit, scopeIds, validateChunk, validateVectors } from "#infrastructure/search/chunks";
import { analyzedQueryTerms } from "#infrastructure/search/terms";
import { decodeVarints, documentPostings, encodeVarints, rankBm25, type ScopedPostings } from "./document-postings";
import { type StoredVector, VectorSegments, vectorNorm } from "./vector-segments";

/**
 * Embedded chunk index (ARCHITECTURE §4, §6): one `chunks` table holding every
 * chunk (text, page, layout block ids), an inverted index kept per document,
 * and Float32 vectors per embedding space.
 *
 * Text search ranks only the scope (decision 158). Each document's postings
 * are rows keyed by (document, term) (`document_postings`: the chunks holding
 * the term, by position, with their frequency) beside the document's chunk ids
 * and lengths (`document_index`). A search reads the scope's rows for the
 * query's terms — one index seek per document and term — and ranks them with
 * BM25 as FTS5 computes it, over the scope's statistics. Nothing outside the
 * scope is read, so neither another user's chunks nor the installation's size
 * change what a search costs or returns. (An FTS5 table cannot do this: its
 * bm25() counts each term over the whole table, which costs the installation
 * even when the match expression is restricted to the scope.)
 *
 * Terms are the shared analysis (`indexTerms`: Unicode letters and digits,
 * case and Latin diacritics folded, Porter-stemmed), the one the production
 * index and the built-in model use, so "résumé" finds "resume" and "payments"
 * finds "payment" everywhere.
 *
 * Vectors live in their own table, apart from the chunks (a 384-d vector is
 * 1.5 KB, and keeping it inside `chunks` rows made every text search ~4×
 * slower): each document's vectors of a space are stored back to back in a few
 * segments (`VectorSegments`, decision 170), so vector search — an exact
 * cosine scan over the scope's vectors of the space — reads about one row per
 * document in scope, as text search does.
 *
 * Hits carry the chunk without its vector (callers rank and cite; they never
 * need the embedding back).
 */
export class SqliteSearchIndex implements SearchIndex {
  private readonly upsertStmt: Database.Statement;
  private readonly documentOfChunkStmt: Database.Statement;
  private readonly deleteDocumentStmt: Database.Statement;
  private readonly ownerDocumentsStmt: Database.Statement;
  private readonly countStmt: Database.Statement;
  private readonly documentTextsStmt: Database.Statement;
  private readonly deletePostingsStmt: Database.Statement;
  private readonly deleteDocumentIndexStmt: Database.Statement;
  private readonly insertPostingsStmt: Database.Statement;
  private readonly insertDocumentIndexStmt: Database.Statement;
  private readonly scopeIndexStmt: Database.Statement;
  private readonly scopePostingsStmt: Database.Statement;
  private readonly chunkByIdStmt: Database.Statement;
  private readonly pageStmt: Database.Statement;
  private readonly listStmt: Database.Statement;
  private readonly atStmt: Database.Statement;
  private readonly chunkRefStmt: Database.Statement;
  private readonly chunkIdStmt: Database.Statement;
  private readonly vectors: VectorSegments;
  private readonly upsertMany: (chunks: IndexedChunk[]) => void;
  private readonly deleteDocuments: (documentIds: string[]) => void;
  private readonly upsertVectorsMany: (space: string, vectors: ChunkVector[]) => void;

  constructor(db: Database.Database) {
    dropVectorTableWithoutSpaces(db);
    dropFts5Index(db);
    db.exec(SCHEMA);
    this.vectors = new VectorSegments(db);
    this.upsertStmt = db.prepare(`
      INSERT INTO chunks (chunk_id, document_id, owner_id, page_number, ordinal, text, block_ids)
      VALUES (@chunkId, @documentId, @ownerId, @pageNumber, @ordinal, @text, @blockIds)
      ON CONFLICT (chunk_id) DO UPDATE SET
        document_id = excluded.document_id, owner_id = excluded.owner_id,
        page_number = excluded.page_number, ordinal = excluded.ordinal, text = excluded.text,
        block_ids = excluded.block_ids
      RETURNING id`);
    this.chunkRefStmt = db.prepare("SELECT id, document_id FROM chunks WHERE chunk_id = ?");
    this.chunkIdStmt = db.prepare("SELECT chunk_id FROM chunks WHERE id = ?").pluck();
    this.listStmt = db.prepare(
      "SELECT chunk_id, document_id, owner_id, page_number, ordinal, text, block_ids FROM chunks WHERE document_id = ? ORDER BY ordinal",
    );
    // A seek on chunks_document per document; the positions are a JSON array parameter.
    this.atStmt = db.prepare(`
      SELECT chunk_id, document_id, owner_id, page_number, ordinal, text, block_ids FROM chunks
      WHERE document_id = @documentId AND ordinal IN (SELECT value FROM json_each(@ordinals)) ORDER BY ordinal`);
    this.documentOfChunkStmt = db.prepare("SELECT document_id FROM chunks WHERE chunk_id = ?").pluck();
    this.deleteDocumentStmt = db.prepare("DELETE FROM chunks WHERE document_id = ?");
    this.ownerDocumentsStmt = db.prepare("SELECT DISTINCT document_id FROM chunks WHERE owner_id = ?").pluck();
    this.countStmt = db.prepare("SELECT count(*) AS n FROM chunks WHERE document_id = ?");
    this.documentTextsStmt = db.prepare("SELECT id, text FROM chunks WHERE document_id = ? ORDER BY ordinal, id");
    this.deletePostingsStmt = db.prepare("DELETE FROM document_postings WHERE document_id = ?");
    this.deleteDocumentIndexStmt = db.prepare("DELETE FROM document_index WHERE document_id = ?");
    this.insertPostingsStmt = db.prepare("INSERT INTO document_postings (document_id, term, postings) VALUES (?, ?, ?)");
    this.insertDocumentIndexStmt = db.prepare("INSERT INTO document_index (document_id, chunk_ids, lengths) VALUES (?, ?, ?)");
    // The scope and the terms are JSON array parameters, so any number of ids binds safely; both reads are index seeks.
    this.scopeIndexStmt = db.prepare(`
      SELECT document_id, chunk_ids, lengths FROM document_index
      WHERE document_id IN (SELECT value FROM json_each(@scope))`);
    this.scopePostingsStmt = db.prepare(`
      SELECT document_id, term, postings FROM document_postings
      WHERE document_id IN (SELECT value FROM json_each(@scope)) AND term IN (SELECT value FROM json_each(@terms))`);
    this.chunkByIdStmt = db.prepare(
      "SELECT chunk_id, document_id, owner_id, page_number, ordinal, text, block_ids FROM chunks WHERE id = ?",
    );
    this.pageStmt = db.prepare(`
      SELECT id, chunk_id, document_id, owner_id, page_number, ordinal, text, block_ids
      FROM chunks WHERE id > @after ORDER BY id LIMIT @limit`);
    // IMMEDIATE, as every transaction that reads before it writes (decision 250).
    this.upsertMany = db.transaction((chunks: IndexedChunk[]) => {
      const touched = new Set<string>();
      // Chunks written again, by the document they were in: their vectors embedded the previous text.
      const rewritten = new Map<string, Set<number>>();
      for (const chunk of chunks) {
        const previous = this.documentOfChunkStmt.get(chunk.chunkId) as string | undefined;
        if (previous !== undefined) touched.add(previous);
        touched.add(chunk.documentId);
        const { id } = this.upsertStmt.get(toRow(chunk)) as { id: number };
        if (previous !== undefined) {
          const ids = rewritten.get(previous);
          if (ids) ids.add(id);
          else rewritten.set(previous, new Set([id]));
        }
      }
      for (const [documentId, ids] of rewritten) this.vectors.remove(documentId, ids);
      for (const documentId of touched) this.indexDocument(documentId);
    }).immediate;
    this.deleteDocuments = db.transaction((documentIds: string[]) => {
      for (const documentId of documentIds) {
        this.deleteDocumentStmt.run(documentId);
        this.vectors.deleteDocument(documentId);
        this.indexDocument(documentId);
      }
    });
    this.upsertVectorsMany = db.transaction((space: string, vectors: ChunkVector[]) => {
      // By the document the index holds each chunk in; a chunk it does not hold is ignored.
      const byDocument = new Map<string, StoredVector[]>();
      for (const { chunkId, vector } of vectors) {
        const chunk = this.chunkRefStmt.get(chunkId) as { id: number; document_id: string } | undefined;
        if (!chunk) continue;
        const stored = { id: chunk.id, vector: Float32Array.from(vector) };
        const group = byDocument.get(chunk.document_id);
        if (group) group.push(stored);
        else byDocument.set(chunk.document_id, [stored]);
      }
      for (const [documentId, stored] of byDocument) this.vectors.write(space, documentId, stored);
    }).immediate;
    this.indexUnindexedChunks(db);
    migrateChunkVectors(db, this.vectors);
  }

  /** Rewrites a document's postings from its chunks as they now stand (none left: its rows go). */
  private indexDocument(documentId: string): void {
    this.deletePostingsStmt.run(documentId);
    this.deleteDocumentIndexStmt.run(documentId);
    const chunks = this.documentTextsStmt.all(documentId) as { id: number; text: string }[];
    if (chunks.length === 0) return;
    const { lengths, terms } = documentPostings(chunks.map((c) => c.text));
    this.insertDocumentIndexStmt.run(documentId, encodeVarints(chunks.map((c) => c.id)), encodeVarints(lengths));
    for (const [term, postings] of terms) this.insertPostingsStmt.run(documentId, term, encodeVarints(postings));
  }

  /**
   * An index written before decision 158 has chunks and no per-document
   * postings (they were in FTS5): build them from the chunks, in one
   * transaction, so an interrupted start simply builds them again.
   */
  private indexUnindexedChunks(db: Database.Database): void {
    const unindexed = db.prepare("SELECT EXISTS (SELECT 1 FROM chunks) AND NOT EXISTS (SELECT 1 FROM document_index)").pluck().get();
    if (!unindexed) return;
    db.transaction(() => {
      for (const documentId of db.prepare("SELECT DISTINCT document_id FROM chunks").pluck().all() as string[]) this.indexDocument(documentId);
    }).immediate();
  }

  async upsert(chunks: IndexedChunk[]): Promise<void> {
    for (const chunk of chunks) validateChunk(chunk);
    this.upsertMany(chunks);
  }

  async deleteDocument(documentId: string): Promise<void> {
    this.deleteDocuments([documentId]);
  }

  async deleteOwner(ownerId: string): Promise<void> {
    this.deleteDocuments(this.ownerDocumentsStmt.all(ownerId) as string[]);
  }

  async countChunks(documentId: string): Promise<number> {
    return (this.countStmt.get(documentId) as { n: number }).n;
  }

  async listChunks(documentId: string): Promise<IndexedChunk[]> {
    return (this.listStmt.all(documentId) as ChunkRow[]).map(fromRow);
  }

  async chunksAt(documentId: string, ordinals: number[]): Promise<IndexedChunk[]> {
    const wanted = [...new Set(ordinals.filter(Number.isInteger))];
    if (!documentId || wanted.length === 0) return [];
    return (this.atStmt.all({ documentId, ordinals: JSON.stringify(wanted) }) as ChunkRow[]).map(fromRow);
  }

  async upsertVectors(space: string, vectors: ChunkVector[]): Promise<void> {
    validateVectors(space, vectors);
    this.upsertVectorsMany(space, vectors);
  }

  async countVectors(space: string, documentId: string): Promise<number> {
    return this.vectors.count(space, documentId);
  }

  async searchText(query: string, scope: SearchScope, limit: number): Promise<ChunkHit[]> {
    const terms = analyzedQueryTerms(query);
    const ids = scopeIds(scope);
    const max = normalizeLimit(limit);
    if (terms.length === 0 || ids.length === 0 || max === 0) return [];
    const parameters = { scope: JSON.stringify(ids), terms: JSON.stringify(terms) };
    const scoped: ScopedPostings = { lengths: new Map(), postings: new Map(terms.map((term) => [term, new Map()])) };
    const chunkIds = new Map<string, Buffer>();
    for (const row of this.scopeIndexStmt.iterate(parameters) as IterableIterator<{ document_id: string; chunk_ids: Buffer; lengths: Buffer }>) {
      scoped.lengths.set(row.document_id, decodeVarints(row.lengths));
      chunkIds.set(row.document_id, row.chunk_ids);
    }
    for (const row of this.scopePostingsStmt.iterate(parameters) as IterableIterator<{ document_id: string; term: string; postings: Buffer }>) {
      scoped.postings.get(row.term)?.set(row.document_id, decodeVarints(row.postings));
    }
    const idsByDocument = new Map<string, number[]>();
    const hits: ChunkHit[] = [];
    for (const { documentId, position, score } of rankBm25(scoped, max)) {
      let ids = idsByDocument.get(documentId);
      if (!ids) idsByDocument.set(documentId, (ids = decodeVarints(chunkIds.get(documentId) ?? Buffer.alloc(0))));
      const row = this.chunkByIdStmt.get(ids[position]) as ChunkRow | undefined;
      if (row) hits.push({ chunk: fromRow(row), score });
    }
    return hits;
  }

  /** Every chunk, `batchSize` at a time in storage order: for copying the index to another adapter. */
  *allChunks(batchSize = 500): Generator<IndexedChunk[]> {
    for (let after = 0; ; ) {
      const rows = this.pageStmt.all({ after, limit: batchSize }) as (ChunkRow & { id: number })[];
      if (rows.length === 0) return;
      yield rows.map(fromRow);
      after = rows[rows.length - 1].id;
    }
  }

  /** Every space's vectors, `batchSize` at a time: for copying the index to another adapter (after its chunks). */
  *allVectors(batchSize = 500): Generator<{ space: string; vectors: ChunkVector[] }> {
    for (const space of this.vectors.spaces()) {
      let batch: ChunkVector[] = [];
      for (const segment of this.vectors.all(space)) {
        for (const { id, vector } of segment.vectors) {
          batch.push({ chunkId: this.chunkIdStmt.get(id) as string, documentId: segment.documentId, vector: Array.from(vector) });
          if (batch.length === batchSize) {
            yield { space, vectors: batch };
            batch = [];
          }
        }
      }
      if (batch.length > 0) yield { space, vectors: batch };
    }
  }

  async searchVector(space: string, vector: number[], scope: SearchScope, limit: number): Promise<ChunkHit[]> {
    const ids = scopeIds(scope);
    const max = normalizeLimit(limit);
    if (ids.length === 0 || max === 0 || vector.length === 0) return [];
    const query = Float32Array.from(vector);
    const queryNorm = vectorNorm(query);
    if (!(queryNorm > 0) || !Number.isFinite(queryNorm)) return [];

    const dimensions = query.length;
    const top: Scored[] = [];
    // Stored vectors of another length (another model version) are never compared.
    for (const { ids: chunkIds, vectors, norms } of this.vectors.scope(space, ids, dimensions)) {
      for (let n = 0; n < norms.length; n++) {
        if (!(norms[n] > 0)) continue;
        let dot = 0;
        for (let i = 0, at = n * dimensions; i < dimensions; i++, at++) dot += vectors[at] * query[i];
        const score = dot / (norms[n] * queryNorm);
        insertTopK(top, { id: chunkIds[n], score }, max);
      }
    }
    const hits: ChunkHit[] = [];
    for (const { id, score } of top) {
      const row = this.chunkByIdStmt.get(id) as ChunkRow | undefined;
      if (row) hits.push({ chunk: fromRow(row), score });
    }
    // Equal scores: document, then ordinal, like text search.
    return hits.sort((a, b) => b.score - a.score || compareChunks(a.chunk, b.chunk));
  }
}

const SCHEMA = `
  -- An explicit INTEGER PRIMARY KEY: postings and vectors name chunks by it,
  -- and implicit rowids may be renumbered by VACUUM.
  CREATE TABLE IF NOT EXISTS chunks (
    id INTEGER PRIMARY KEY,
    chunk_id TEXT NOT NULL UNIQUE,
    document_id TEXT NOT NULL,
    owner_id TEXT NOT NULL,
    page_number INTEGER NOT NULL,
    ordinal INTEGER NOT NULL,
    text TEXT NOT NULL,
    block_ids TEXT NOT NULL
  );
  -- Per document, aligned by position in reading order (varints): chunks.id and term count.
  CREATE TABLE IF NOT EXISTS document_index (
    document_id TEXT PRIMARY KEY,
    chunk_ids BLOB NOT NULL,
    lengths BLOB NOT NULL
  ) WITHOUT ROWID;
  -- Per document and term (varints): position, frequency, position, frequency, …
  CREATE TABLE IF NOT EXISTS document_postings (
    document_id TEXT NOT NULL,
    term TEXT NOT NULL,
    postings BLOB NOT NULL,
    PRIMARY KEY (document_id, term)
  ) WITHOUT ROWID;
  CREATE INDEX IF NOT EXISTS chunks_document ON chunks (document_id, ordinal);
  CREATE INDEX IF NOT EXISTS chunks_owner ON chunks (owner_id);
`;

/**
 * Before decision 158 the postings lived in an external-content FTS5 table
 * (`chunks_fts`, kept in sync by triggers): drop it and its triggers (the
 * chunks hold every text; the constructor builds the new postings from them).
 * secure_delete zeroes the dropped pages, so no purged term survives (decision 081).
 */
function dropFts5Index(db: Database.Database): void {
  db.exec(`
    DROP TRIGGER IF EXISTS chunks_fts_insert;
    DROP TRIGGER IF EXISTS chunks_fts_delete;
    DROP TRIGGER IF EXISTS chunks_fts_update;
    DROP TABLE IF EXISTS chunks_fts;`);
}

interface ChunkRow {
  chunk_id: string;
  document_id: string;
  owner_id: string;
  page_number: number;
  ordinal: number;
  text: string;
  block_ids: string;
}

function toRow(chunk: IndexedChunk) {
  return { ...chunkFields(chunk), blockIds: JSON.stringify(chunk.blockIds) };
}

function fromRow(row: ChunkRow): IndexedChunk {
  return {
    chunkId: row.chunk_id,
    documentId: row.document_id,
    ownerId: row.owner_id,
    pageNumber: row.page_number,
    ordinal: row.ordinal,
    text: row.text,
    blockIds: parseBlockIds(row.block_ids),
  };
}

function parseBlockIds(json: string): string[] {
  const value: unknown = JSON.parse(json);
  return Array.isArray(value) ? value.filter((id): id is string => typeof id === "string") : [];
}

/**
 * Before vector spaces, `chunk_vectors` held one vector per chunk with no
 * model; nothing ever wrote to it outside tests, so the old table is dropped
 * rather than guessed into a space.
 */
function dropVectorTableWithoutSpaces(db: Database.Database): void {
  const columns = db.prepare("SELECT name FROM pragma_table_info('chunk_vectors')").all() as { name: string }[];
  if (columns.length > 0 && !columns.some((c) => c.name === "space")) {
    db.exec("DROP TRIGGER IF EXISTS chunk_vectors_follow_chunks; DROP INDEX IF EXISTS chunk_vectors_document; DROP TABLE chunk_vectors;");
  }
}

/**
 * Before decision 170, vectors were rows of `chunk_vectors`, one per chunk and
 * space: move them into their documents' segments and drop the table, its
 * indexes and the trigger that deleted them with their chunks, in one
 * transaction (an interrupted start moves them again). secure_delete zeroes
 * the dropped pages (decision 081).
 */
function migrateChunkVectors(db: Database.Database, segments: VectorSegments): void {
  const exists = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'chunk_vectors'").get();
  if (!exists) return;
  db.transaction(() => {
    const groups = db
      .prepare("SELECT DISTINCT v.space, c.document_id FROM chunk_vectors v JOIN chunks c ON c.id = v.id ORDER BY v.space, c.document_id")
      .all() as { space: string; document_id: string }[];
    const rows = db.prepare(`
      SELECT v.id, v.vector FROM chunk_vectors v JOIN chunks c ON c.id = v.id
      WHERE v.space = ? AND c.document_id = ? ORDER BY c.ordinal, v.id`);
    for (const { space, document_id } of groups) {
      const vectors = (rows.all(space, document_id) as { id: number; vector: Buffer }[]).map((row) => ({
        id: row.id,
        vector: new Float32Array(row.vector.buffer.slice(row.vector.byteOffset, row.vector.byteOffset + row.vector.byteLength)),
      }));
      segments.write(space, document_id, vectors);
    }
    db.exec("DROP TRIGGER IF EXISTS chunk_vectors_follow_chunks; DROP TABLE chunk_vectors;");
  }).immediate();
}

interface Scored {
  id: number;
  score: number;
}

/** Keeps `top` sorted by descending score and at most k long (ties keep scan order). */
function insertTopK(top: Scored[], item: Scored, k: number): void {
  if (top.length === k && item.score <= top[k - 1].score) return;
  let i = top.length;
  while (i > 0 && item.score > top[i - 1].score) i--;
  top.splice(i, 0, item);
  if (top.length > k) top.pop();
}

