import type Database from "better-sqlite3";
import type { ChunkHit, ChunkVector, IndexedChunk, SearchIndex, SearchScope } from "#application/ports/search-index";
import { chunkFields, compareChunks, normalizeLimit, scopeIds, validateChunk, validateVectors } from "#infrastructure/search/chunks";
import { queryTerms } from "#infrastructure/search/terms";

/**
 * Embedded chunk index (ARCHITECTURE §4, §6): one `chunks` table holding every
 * chunk (text, page, layout block ids, optional Float32 vector) and an
 * external-content FTS5 table over its text, kept in sync by triggers.
 *
 * Tokenizer: `porter unicode61 remove_diacritics 2`.
 *  - unicode61 splits on Unicode letter/number classes and folds case for all
 *    scripts, not only ASCII; `remove_diacritics 2` makes "resume" find
 *    "résumé" (and folds diacritics the older mode 1 missed).
 *  - porter stems English words ("payments" finds "payment", "terminated"
 *    finds "termination"). Documents are mostly English; for other Latin-script
 *    languages the stemmer only strips a few English suffixes, which costs a
 *    little precision but never loses an exact match (query and text are stemmed
 *    alike). Non-Latin scripts pass through untouched.
 *
 * Scoping: the document-id restriction is part of the WHERE clause of the
 * ranking query, so BM25 ordering and LIMIT apply to scoped rows only — a
 * document outside the scope can never take a slot. (BM25's IDF statistics are
 * corpus-wide, as FTS5 keeps them per table; only the ordering of in-scope rows
 * depends on them, never which rows are returned.)
 *
 * Vectors live in their own table (`chunk_vectors`, Float32 BLOBs keyed by
 * space and the chunk's rowid, with the document id for scoping): a 384-d
 * vector is 1.5 KB, and keeping it inside `chunks` rows made every text search
 * ~4× slower (the join reads far sparser pages). Vector search is an exact
 * cosine scan over the space's scoped vectors of the query's dimension.
 *
 * Hits carry the chunk without its vector (callers rank and cite; they never
 * need the embedding back).
 */
export class SqliteSearchIndex implements SearchIndex {
  private readonly upsertStmt: Database.Statement;
  private readonly upsertVectorStmt: Database.Statement;
  private readonly deleteVectorStmt: Database.Statement;
  private readonly deleteDocumentStmt: Database.Statement;
  private readonly deleteOwnerStmt: Database.Statement;
  private readonly countStmt: Database.Statement;
  private readonly textStmt: Database.Statement;
  private readonly vectorStmt: Database.Statement;
  private readonly chunkByIdStmt: Database.Statement;
  private readonly pageStmt: Database.Statement;
  private readonly listStmt: Database.Statement;
  private readonly countVectorsStmt: Database.Statement;
  private readonly spacesStmt: Database.Statement;
  private readonly spacePageStmt: Database.Statement;
  private readonly upsertMany: (chunks: IndexedChunk[]) => void;
  private readonly upsertVectorsMany: (space: string, vectors: ChunkVector[]) => void;

  constructor(private readonly db: Database.Database) {
    migrateVectorTable(db);
    db.exec(SCHEMA);
    this.upsertStmt = db.prepare(`
      INSERT INTO chunks (chunk_id, document_id, owner_id, page_number, ordinal, text, block_ids)
      VALUES (@chunkId, @documentId, @ownerId, @pageNumber, @ordinal, @text, @blockIds)
      ON CONFLICT (chunk_id) DO UPDATE SET
        document_id = excluded.document_id, owner_id = excluded.owner_id,
        page_number = excluded.page_number, ordinal = excluded.ordinal, text = excluded.text,
        block_ids = excluded.block_ids
      RETURNING id`);
    this.upsertVectorStmt = db.prepare(`
      INSERT INTO chunk_vectors (space, id, document_id, vector)
      SELECT @space, id, document_id, @vector FROM chunks WHERE chunk_id = @chunkId
      ON CONFLICT (space, id) DO UPDATE SET vector = excluded.vector`);
    this.deleteVectorStmt = db.prepare("DELETE FROM chunk_vectors WHERE id = ?");
    this.listStmt = db.prepare(
      "SELECT chunk_id, document_id, owner_id, page_number, ordinal, text, block_ids FROM chunks WHERE document_id = ? ORDER BY ordinal",
    );
    this.countVectorsStmt = db.prepare("SELECT count(*) AS n FROM chunk_vectors WHERE space = ? AND document_id = ?");
    this.spacesStmt = db.prepare("SELECT DISTINCT space FROM chunk_vectors ORDER BY space");
    this.spacePageStmt = db.prepare(`
      SELECT v.id, c.chunk_id, c.document_id, v.vector FROM chunk_vectors v JOIN chunks c ON c.id = v.id
      WHERE v.space = @space AND v.id > @after ORDER BY v.id LIMIT @limit`);
    this.deleteDocumentStmt = db.prepare("DELETE FROM chunks WHERE document_id = ?");
    this.deleteOwnerStmt = db.prepare("DELETE FROM chunks WHERE owner_id = ?");
    this.countStmt = db.prepare("SELECT count(*) AS n FROM chunks WHERE document_id = ?");
    // The scope is one JSON array parameter, so any number of ids binds safely.
    this.textStmt = db.prepare(`
      SELECT c.chunk_id, c.document_id, c.owner_id, c.page_number, c.ordinal, c.text, c.block_ids,
             bm25(chunks_fts) AS bm25_score
      FROM chunks_fts JOIN chunks c ON c.id = chunks_fts.rowid
      WHERE chunks_fts MATCH @match
        AND c.document_id IN (SELECT value FROM json_each(@scope))
      ORDER BY bm25_score, c.document_id, c.ordinal
      LIMIT @limit`);
    this.vectorStmt = db.prepare(`
      SELECT id, vector FROM chunk_vectors
      WHERE space = @space AND document_id IN (SELECT value FROM json_each(@scope)) AND length(vector) = @bytes`);
    this.chunkByIdStmt = db.prepare(
      "SELECT chunk_id, document_id, owner_id, page_number, ordinal, text, block_ids FROM chunks WHERE id = ?",
    );
    this.pageStmt = db.prepare(`
      SELECT id, chunk_id, document_id, owner_id, page_number, ordinal, text, block_ids
      FROM chunks WHERE id > @after ORDER BY id LIMIT @limit`);
    this.upsertMany = db.transaction((chunks: IndexedChunk[]) => {
      for (const chunk of chunks) {
        const { id } = this.upsertStmt.get(toRow(chunk)) as { id: number };
        // The chunk's vectors embedded its previous text.
        this.deleteVectorStmt.run(id);
      }
    });
    this.upsertVectorsMany = db.transaction((space: string, vectors: ChunkVector[]) => {
      for (const { chunkId, vector } of vectors) this.upsertVectorStmt.run({ space, chunkId, vector: toBlob(vector) });
    });
  }

  async upsert(chunks: IndexedChunk[]): Promise<void> {
    for (const chunk of chunks) validateChunk(chunk);
    this.upsertMany(chunks);
  }

  async deleteDocument(documentId: string): Promise<void> {
    this.deleteDocumentStmt.run(documentId);
  }

  async deleteOwner(ownerId: string): Promise<void> {
    this.deleteOwnerStmt.run(ownerId);
  }

  /**
   * FTS5 'optimize': merges every segment into one, dropping the entries of
   * deleted chunks (a delete only adds a tombstone to a newer segment, and the
   * older segments keep the terms until merged). Run after a purge (decision 081).
   */
  mergeSegments(): void {
    if (this.db.open) this.db.prepare(`INSERT INTO chunks_fts (chunks_fts) VALUES ('optimize')`).run();
  }

  async countChunks(documentId: string): Promise<number> {
    return (this.countStmt.get(documentId) as { n: number }).n;
  }

  async listChunks(documentId: string): Promise<IndexedChunk[]> {
    return (this.listStmt.all(documentId) as ChunkRow[]).map(fromRow);
  }

  async upsertVectors(space: string, vectors: ChunkVector[]): Promise<void> {
    validateVectors(space, vectors);
    this.upsertVectorsMany(space, vectors);
  }

  async countVectors(space: string, documentId: string): Promise<number> {
    return (this.countVectorsStmt.get(space, documentId) as { n: number }).n;
  }

  async searchText(query: string, scope: SearchScope, limit: number): Promise<ChunkHit[]> {
    const match = toFtsQuery(query);
    const ids = scopeIds(scope);
    const max = normalizeLimit(limit);
    if (match === null || ids.length === 0 || max === 0) return [];
    const rows = this.textStmt.all({ match, scope: JSON.stringify(ids), limit: max }) as (ChunkRow & { bm25_score: number })[];
    // bm25() is lower-is-better; the port's score is higher-is-better.
    return rows.map((row) => ({ chunk: fromRow(row), score: -row.bm25_score }));
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
    for (const { space } of this.spacesStmt.all() as { space: string }[]) {
      for (let after = 0; ; ) {
        const rows = this.spacePageStmt.all({ space, after, limit: batchSize }) as { id: number; chunk_id: string; document_id: string; vector: Buffer }[];
        if (rows.length === 0) break;
        yield { space, vectors: rows.map((row) => ({ chunkId: row.chunk_id, documentId: row.document_id, vector: Array.from(toFloat32(row.vector)) })) };
        after = rows[rows.length - 1].id;
      }
    }
  }

  async searchVector(space: string, vector: number[], scope: SearchScope, limit: number): Promise<ChunkHit[]> {
    const ids = scopeIds(scope);
    const max = normalizeLimit(limit);
    if (ids.length === 0 || max === 0 || vector.length === 0) return [];
    const query = Float32Array.from(vector);
    const queryNorm = norm(query);
    if (!(queryNorm > 0) || !Number.isFinite(queryNorm)) return [];

    const top: Scored[] = [];
    for (const row of this.vectorStmt.iterate({ space, scope: JSON.stringify(ids), bytes: query.byteLength }) as IterableIterator<{
      id: number;
      vector: Buffer;
    }>) {
      const stored = toFloat32(row.vector);
      let dot = 0;
      let sq = 0;
      for (let i = 0; i < stored.length; i++) {
        dot += stored[i] * query[i];
        sq += stored[i] * stored[i];
      }
      if (!(sq > 0)) continue;
      const score = dot / (Math.sqrt(sq) * queryNorm);
      insertTopK(top, { id: row.id, score }, max);
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
  -- An explicit INTEGER PRIMARY KEY: FTS5 external content is keyed by rowid,
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
  CREATE TABLE IF NOT EXISTS chunk_vectors (
    space TEXT NOT NULL, -- the embedding model ("<keysetId>/<model>")
    id INTEGER NOT NULL, -- chunks.id
    document_id TEXT NOT NULL,
    vector BLOB NOT NULL, -- Float32Array bytes (platform order: little-endian everywhere Node runs)
    PRIMARY KEY (space, id)
  );
  CREATE INDEX IF NOT EXISTS chunk_vectors_document ON chunk_vectors (space, document_id);
  CREATE INDEX IF NOT EXISTS chunk_vectors_chunk ON chunk_vectors (id);
  CREATE INDEX IF NOT EXISTS chunks_document ON chunks (document_id, ordinal);
  CREATE INDEX IF NOT EXISTS chunks_owner ON chunks (owner_id);
  CREATE VIRTUAL TABLE IF NOT EXISTS chunks_fts USING fts5 (
    text,
    content = 'chunks',
    content_rowid = 'id',
    tokenize = 'porter unicode61 remove_diacritics 2'
  );
  CREATE TRIGGER IF NOT EXISTS chunks_fts_insert AFTER INSERT ON chunks BEGIN
    INSERT INTO chunks_fts (rowid, text) VALUES (new.id, new.text);
  END;
  CREATE TRIGGER IF NOT EXISTS chunks_fts_delete AFTER DELETE ON chunks BEGIN
    INSERT INTO chunks_fts (chunks_fts, rowid, text) VALUES ('delete', old.id, old.text);
    DELETE FROM chunk_vectors WHERE id = old.id;
  END;
  CREATE TRIGGER IF NOT EXISTS chunks_fts_update AFTER UPDATE OF text ON chunks BEGIN
    INSERT INTO chunks_fts (chunks_fts, rowid, text) VALUES ('delete', old.id, old.text);
    INSERT INTO chunks_fts (rowid, text) VALUES (new.id, new.text);
  END;
`;

/**
 * Turns user text into a safe FTS5 query: every distinct term (`queryTerms`)
 * becomes a double-quoted string (so `NEAR`, `AND`, `*`, `:`, `^`, `-`,
 * parentheses and column filters are plain text), terms are OR-ed so chunks
 * matching only part of the question still rank (BM25 sums per-term scores, so
 * more matched terms rank higher). Returns null when nothing searchable remains.
 */
export function toFtsQuery(text: string): string | null {
  const terms = queryTerms(text);
  if (terms.length === 0) return null;
  // Terms hold no `"` (TERM excludes it), but escape anyway: FTS5 strings double their quotes.
  return terms.map((term) => `"${term.replace(/"/g, '""')}"`).join(" OR ");
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
function migrateVectorTable(db: Database.Database): void {
  const columns = db.prepare("SELECT name FROM pragma_table_info('chunk_vectors')").all() as { name: string }[];
  if (columns.length > 0 && !columns.some((c) => c.name === "space")) {
    db.exec("DROP INDEX IF EXISTS chunk_vectors_document; DROP TABLE chunk_vectors;");
  }
}

function toBlob(vector: number[]): Buffer {
  const floats = Float32Array.from(vector);
  return Buffer.from(floats.buffer, floats.byteOffset, floats.byteLength);
}

function toFloat32(blob: Buffer): Float32Array {
  // Float32Array views need 4-byte alignment; copy when the Buffer's slice is not aligned.
  if (blob.byteOffset % 4 === 0) return new Float32Array(blob.buffer, blob.byteOffset, blob.byteLength / 4);
  return new Float32Array(blob.buffer.slice(blob.byteOffset, blob.byteOffset + blob.byteLength));
}

function norm(v: Float32Array): number {
  let sq = 0;
  for (let i = 0; i < v.length; i++) sq += v[i] * v[i];
  return Math.sqrt(sq);
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

