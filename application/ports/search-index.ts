/**
 * The chunk index behind retrieval (ARCHITECTURE §6): BM25 always, dense
 * vectors when an embedding model is chosen. Embedded: SQLite FTS5 + exact
 * vector scan; production: Qdrant. Searches are scoped to document ids BEFORE
 * ranking, never filtered after.
 */
export interface IndexedChunk {
  /** Deterministic (`<documentId>:<n>`), so re-indexing after a crash replaces instead of duplicating. */
  chunkId: string;
  documentId: string;
  ownerId: string;
  pageNumber: number;
  /** Order of the chunk inside its document. */
  ordinal: number;
  text: string;
  /** Ids of the page's layout blocks this chunk covers (for highlights). */
  blockIds: string[];
  /** Dense vector when the document has an embedding model. */
  vector?: number[];
}

export interface ChunkHit {
  chunk: IndexedChunk;
  score: number;
}

export interface SearchScope {
  documentIds: string[];
}

export interface SearchIndex {
  /** Idempotent by chunkId. */
  upsert(chunks: IndexedChunk[]): Promise<void>;
  deleteDocument(documentId: string): Promise<void>;
  deleteOwner(ownerId: string): Promise<void>;
  countChunks(documentId: string): Promise<number>;
  /** BM25 over chunk text, within the scope only. */
  searchText(query: string, scope: SearchScope, limit: number): Promise<ChunkHit[]>;
  /** Cosine similarity over chunk vectors, within the scope only. */
  searchVector(vector: number[], scope: SearchScope, limit: number): Promise<ChunkHit[]>;
}
