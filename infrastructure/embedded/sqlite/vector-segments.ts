import type Database from "better-sqlite3";
import { decodeVarints, encodeVarints } from "./document-postings";

/**
 * A document's vectors of one space, stored contiguously (decision 170): rows
 * ("segments") keyed by document and space, each holding up to
 * SEGMENT_BYTES of Float32 vectors back to back, their chunks' ids
 * (`chunks.id`, varints) and their norms (Float64, so a search computes one
 * dot product per vector and nothing else). A scope's vectors are then a
 * handful of row reads, about one per document, instead of one scattered
 * 1.5–2 KB row per chunk.
 *
 * Vectors arrive in batches while a document embeds: a batch fills the
 * document's last segment up to SEGMENT_BYTES, then opens new ones, so a
 * write rewrites at most one partly filled segment besides what it adds,
 * however large the document already is. A chunk's vector replaced or
 * removed rewrites only the segment holding it.
 */
export const SEGMENT_BYTES = 128 * 1024;

export interface StoredVector {
  /** chunks.id */
  id: number;
  vector: Float32Array;
}

/** One segment as a search reads it. */
export interface SegmentView {
  ids: number[];
  norms: Float64Array;
  vectors: Float32Array;
}

interface SegmentHead {
  id: number;
  space: string;
  dimensions: number;
  count: number;
  chunk_ids: Buffer;
}

export const VECTOR_SEGMENTS_SCHEMA = `
  CREATE TABLE IF NOT EXISTS vector_segments (
    id INTEGER PRIMARY KEY, -- write order: a document's segments are read and filled in this order
    space TEXT NOT NULL, -- the embedding model ("<keysetId>/<model>")
    document_id TEXT NOT NULL,
    dimensions INTEGER NOT NULL, -- every vector of a segment has this length
    count INTEGER NOT NULL,
    chunk_ids BLOB NOT NULL, -- varints: chunks.id of each vector, in order
    norms BLOB NOT NULL, -- Float64Array bytes: each vector's Euclidean norm
    vectors BLOB NOT NULL -- Float32Array bytes (platform order: little-endian everywhere Node runs)
  );
  CREATE INDEX IF NOT EXISTS vector_segments_document ON vector_segments (document_id, space, dimensions);
`;

export class VectorSegments {
  private readonly headsStmt: Database.Statement;
  private readonly spaceHeadsStmt: Database.Statement;
  private readonly bodyStmt: Database.Statement;
  private readonly insertStmt: Database.Statement;
  private readonly updateStmt: Database.Statement;
  private readonly deleteStmt: Database.Statement;
  private readonly deleteDocumentStmt: Database.Statement;
  private readonly countStmt: Database.Statement;
  private readonly scopeStmt: Database.Statement;
  private readonly spacesStmt: Database.Statement;
  private readonly spacePageStmt: Database.Statement;

  constructor(db: Database.Database) {
    db.exec(VECTOR_SEGMENTS_SCHEMA);
    this.headsStmt = db.prepare("SELECT id, space, dimensions, count, chunk_ids FROM vector_segments WHERE document_id = ? ORDER BY id");
    this.spaceHeadsStmt = db.prepare(
      "SELECT id, space, dimensions, count, chunk_ids FROM vector_segments WHERE document_id = ? AND space = ? ORDER BY id",
    );
    this.bodyStmt = db.prepare("SELECT chunk_ids, norms, vectors FROM vector_segments WHERE id = ?");
    this.insertStmt = db.prepare(`
      INSERT INTO vector_segments (space, document_id, dimensions, count, chunk_ids, norms, vectors)
      VALUES (@space, @documentId, @dimensions, @count, @chunkIds, @norms, @vectors)`);
    this.updateStmt = db.prepare("UPDATE vector_segments SET count = @count, chunk_ids = @chunkIds, norms = @norms, vectors = @vectors WHERE id = @id");
    this.deleteStmt = db.prepare("DELETE FROM vector_segments WHERE id = ?");
    this.deleteDocumentStmt = db.prepare("DELETE FROM vector_segments WHERE document_id = ?");
    this.countStmt = db.prepare("SELECT coalesce(sum(count), 0) AS n FROM vector_segments WHERE document_id = ? AND space = ?").pluck();
    // The scope is one JSON array parameter, so any number of ids binds safely; one index seek per document.
    this.scopeStmt = db.prepare(`
      SELECT chunk_ids, norms, vectors FROM vector_segments
      WHERE document_id IN (SELECT value FROM json_each(@scope)) AND space = @space AND dimensions = @dimensions`);
    this.spacesStmt = db.prepare("SELECT DISTINCT space FROM vector_segments ORDER BY space").pluck();
    this.spacePageStmt = db.prepare("SELECT id, document_id, chunk_ids, vectors, dimensions FROM vector_segments WHERE space = ? AND id > ? ORDER BY id LIMIT 1");
  }

  /**
   * Sets the vectors of chunks of one document in one space (each replacing
   * the chunk's previous vector there). Call inside a transaction.
   */
  write(space: string, documentId: string, vectors: StoredVector[]): void {
    const latest = new Map(vectors.map((v) => [v.id, v]));
    const heads = this.spaceHeadsStmt.all(documentId, space) as SegmentHead[];
    this.removeFrom(heads, new Set(latest.keys()));
    const byDimensions = new Map<number, StoredVector[]>();
    for (const v of latest.values()) {
      const group = byDimensions.get(v.vector.length);
      if (group) group.push(v);
      else byDimensions.set(v.vector.length, [v]);
    }
    for (const [dimensions, group] of byDimensions) this.append(space, documentId, dimensions, group);
  }

  /** Removes these chunks' vectors from the document's segments in every space (their text changed). Call inside a transaction. */
  remove(documentId: string, chunkIds: Set<number>): void {
    this.removeFrom(this.headsStmt.all(documentId) as SegmentHead[], chunkIds);
  }

  deleteDocument(documentId: string): void {
    this.deleteDocumentStmt.run(documentId);
  }

  count(space: string, documentId: string): number {
    return this.countStmt.get(documentId, space) as number;
  }

  /** The scope's segments of the space whose vectors have this length. */
  *scope(space: string, documentIds: string[], dimensions: number): Generator<SegmentView> {
    const rows = this.scopeStmt.iterate({ space, scope: JSON.stringify(documentIds), dimensions }) as IterableIterator<{
      chunk_ids: Buffer;
      norms: Buffer;
      vectors: Buffer;
    }>;
    for (const row of rows) yield view(row);
  }

  spaces(): string[] {
    return this.spacesStmt.all() as string[];
  }

  /** A space's vectors, segment by segment in write order. */
  *all(space: string): Generator<{ documentId: string; vectors: StoredVector[] }> {
    for (let after = 0; ; ) {
      const row = this.spacePageStmt.get(space, after) as
        | { id: number; document_id: string; chunk_ids: Buffer; vectors: Buffer; dimensions: number }
        | undefined;
      if (!row) return;
      const ids = decodeVarints(row.chunk_ids);
      const floats = toFloat32(row.vectors);
      yield { documentId: row.document_id, vectors: ids.map((id, i) => ({ id, vector: floats.subarray(i * row.dimensions, (i + 1) * row.dimensions) })) };
      after = row.id;
    }
  }

  private removeFrom(heads: SegmentHead[], chunkIds: Set<number>): void {
    if (chunkIds.size === 0) return;
    for (const head of heads) {
      const ids = decodeVarints(head.chunk_ids);
      if (!ids.some((id) => chunkIds.has(id))) continue;
      const body = view(this.bodyStmt.get(head.id) as { chunk_ids: Buffer; norms: Buffer; vectors: Buffer });
      const kept = unpack(body, head.dimensions).filter((v) => !chunkIds.has(v.id));
      if (kept.length === 0) this.deleteStmt.run(head.id);
      else this.updateStmt.run({ id: head.id, ...pack(kept, head.dimensions) });
    }
  }

  /** Fills the last segment of (space, document, dimensions) up to SEGMENT_BYTES, then opens new ones. */
  private append(space: string, documentId: string, dimensions: number, vectors: StoredVector[]): void {
    const perSegment = Math.max(1, Math.floor(SEGMENT_BYTES / (dimensions * 4)));
    const last = (this.spaceHeadsStmt.all(documentId, space) as SegmentHead[]).filter((h) => h.dimensions === dimensions).at(-1);
    let rest = vectors;
    if (last && last.count < perSegment) {
      const room = perSegment - last.count;
      const body = view(this.bodyStmt.get(last.id) as { chunk_ids: Buffer; norms: Buffer; vectors: Buffer });
      this.updateStmt.run({ id: last.id, ...pack([...unpack(body, dimensions), ...rest.slice(0, room)], dimensions) });
      rest = rest.slice(room);
    }
    for (let start = 0; start < rest.length; start += perSegment) {
      this.insertStmt.run({ space, documentId, dimensions, ...pack(rest.slice(start, start + perSegment), dimensions) });
    }
  }
}

/** The Euclidean norm as a search computes it (Float64 sum of Float32 squares), so stored norms score exactly as a scan did. */
export function vectorNorm(v: Float32Array): number {
  let sq = 0;
  for (let i = 0; i < v.length; i++) sq += v[i] * v[i];
  return Math.sqrt(sq);
}

function pack(vectors: StoredVector[], dimensions: number) {
  const floats = new Float32Array(vectors.length * dimensions);
  const norms = new Float64Array(vectors.length);
  vectors.forEach((v, i) => {
    floats.set(v.vector, i * dimensions);
    norms[i] = vectorNorm(v.vector);
  });
  return {
    count: vectors.length,
    chunkIds: encodeVarints(vectors.map((v) => v.id)),
    norms: Buffer.from(norms.buffer),
    vectors: Buffer.from(floats.buffer),
  };
}

function unpack(segment: SegmentView, dimensions: number): StoredVector[] {
  return segment.ids.map((id, i) => ({ id, vector: segment.vectors.subarray(i * dimensions, (i + 1) * dimensions) }));
}

function view(row: { chunk_ids: Buffer; norms: Buffer; vectors: Buffer }): SegmentView {
  return { ids: decodeVarints(row.chunk_ids), norms: toFloat64(row.norms), vectors: toFloat32(row.vectors) };
}

function toFloat32(blob: Buffer): Float32Array {
  // Typed array views need aligned offsets; copy when the Buffer's slice is not aligned.
  if (blob.byteOffset % 4 === 0) return new Float32Array(blob.buffer, blob.byteOffset, blob.byteLength / 4);
  return new Float32Array(blob.buffer.slice(blob.byteOffset, blob.byteOffset + blob.byteLength));
}

function toFloat64(blob: Buffer): Float64Array {
  if (blob.byteOffset % 8 === 0) return new Float64Array(blob.buffer, blob.byteOffset, blob.byteLength / 8);
  return new Float64Array(blob.buffer.slice(blob.byteOffset, blob.byteOffset + blob.byteLength));
}
