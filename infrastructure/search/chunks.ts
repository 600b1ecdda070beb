import type { ChunkVector, IndexedChunk, SearchScope } from "#application/ports/search-index";

/**
 * Input rules every SearchIndex adapter shares (ARCHITECTURE §6), so the
 * embedded and the production index accept, scope and order alike.
 */

export function validateChunk(chunk: IndexedChunk): void {
  if (!chunk.chunkId) throw new Error("IndexedChunk.chunkId is required");
  if (!chunk.documentId || !chunk.ownerId) throw new Error(`Chunk ${chunk.chunkId} needs a documentId and an ownerId`);
  if (!Number.isInteger(chunk.pageNumber) || !Number.isInteger(chunk.ordinal)) {
    throw new Error(`Chunk ${chunk.chunkId}: pageNumber and ordinal must be integers`);
  }
}

/** A space names one embedding model; it travels into keys and collection names. */
export function validateVectors(space: string, vectors: ChunkVector[]): void {
  if (!space || space.length > 300) throw new Error("A vector space needs a name of at most 300 characters");
  for (const { chunkId, vector } of vectors) {
    if (!chunkId) throw new Error("ChunkVector.chunkId is required");
    if (vector.length === 0 || vector.some((x) => !Number.isFinite(x))) throw new Error(`Chunk ${chunkId}: the vector is empty or holds a non-finite number`);
  }
}

/** The scope's distinct, non-empty document ids. */
export function scopeIds(scope: SearchScope): string[] {
  return [...new Set(scope.documentIds.filter((id) => typeof id === "string" && id.length > 0))];
}

/** A usable result count: a positive integer, else 0 (no search). */
export function normalizeLimit(limit: number): number {
  return Number.isFinite(limit) && limit > 0 ? Math.floor(limit) : 0;
}

/** Order among equal scores: document, then position inside it. */
export function compareChunks(a: IndexedChunk, b: IndexedChunk): number {
  if (a.documentId !== b.documentId) return a.documentId < b.documentId ? -1 : 1;
  return a.ordinal - b.ordinal;
}

/** A chunk's stored fields, and nothing a caller may have added. */
export function chunkFields(chunk: IndexedChunk): IndexedChunk {
  return {
    chunkId: chunk.chunkId,
    documentId: chunk.documentId,
    ownerId: chunk.ownerId,
    pageNumber: chunk.pageNumber,
    ordinal: chunk.ordinal,
    text: chunk.text,
    blockIds: chunk.blockIds,
  };
}
