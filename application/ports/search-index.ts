/**
 * The chunk index behind retrieval (ARCHITECTURE §6): BM25 always, dense
 * vectors when an embedding model is chosen. Embedded: SQLite, per-document
 * postings (decision 158) and per-document vector segments scanned exactly
 * (decision 170); production: Qdrant. Searches are scoped to document ids BEFORE
 * ranking, never filtered after.
 *
 * Vectors live in spaces, one per embedding model ("<keysetId>/<model>"): a
 * document in two workspaces with different models has a vector in each, and a
 * query vector is only ever compared with vectors of its own model.
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
}

/** One chunk's embedding in one space. */
export interface ChunkVector {
  chunkId: string;
  documentId: string;
  vector: number[];
}

export interface ChunkHit {
  chunk: IndexedChunk;
  score: number;
}

export interface SearchScope {
  documentIds: string[];
}

export interface SearchIndex {
  /** Idempotent by chunkId. A chunk written again loses its vectors in every space (they embedded the old text). */
  upsert(chunks: IndexedChunk[]): Promise<void>;
  deleteDocument(documentId: string): Promise<void>;
  deleteOwner(ownerId: string): Promise<void>;
  countChunks(documentId: string): Promise<number>;
  /** A document's chunks in reading order (ordinal), for embedding them. */
  listChunks(documentId: string): Promise<IndexedChunk[]>;
  /** A document's chunks at these positions (ordinal), in reading order; positions it does not hold are left out. Retrieval reads a hit's neighbours with it. */
  chunksAt(documentId: string, ordinals: number[]): Promise<IndexedChunk[]>;
  /** BM25 over chunk text, within the scope only. */
  searchText(query: string, scope: SearchScope, limit: number): Promise<ChunkHit[]>;
  /** Sets chunks' vectors in one space; idempotent by (space, chunkId). A vector for a chunk not in the index is ignored. */
  upsertVectors(space: string, vectors: ChunkVector[]): Promise<void>;
  /** How many of a document's chunks have a vector in the space. */
  countVectors(space: string, documentId: string): Promise<number>;
  /** Cosine similarity over the space's vectors, within the scope only. */
  searchVector(space: string, vector: number[], scope: SearchScope, limit: number): Promise<ChunkHit[]>;
}
