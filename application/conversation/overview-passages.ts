import type { Passage } from "#application/ports/language-model";
import type { SearchIndex } from "#application/ports/search-index";

/** Enough passages to find a document's headings, captions and recurring terms; few enough for a provider model's prompt. */
const OVERVIEW_PASSAGES = 24;

/**
 * Passages spread evenly over each document, in reading order, for the overview of a workspace
 * nobody has asked anything in yet: its first passages (title, abstract, first heading) and then
 * every n-th, so the suggested questions come from the whole document. Searching for the
 * documents' names instead found nothing when the name is a file name ("pdkids.pdf") and only the
 * passages that repeat the name otherwise.
 */
export async function spreadPassages(index: SearchIndex, documentIds: string[], documentName: (id: string) => string | undefined): Promise<Passage[]> {
  if (documentIds.length === 0) return [];
  const perDocument = Math.max(4, Math.ceil(OVERVIEW_PASSAGES / documentIds.length));
  const passages: Passage[] = [];
  for (const documentId of documentIds) {
    const chunks = (await index.listChunks(documentId)).sort((a, b) => a.pageNumber - b.pageNumber || a.ordinal - b.ordinal);
    const step = Math.max(1, chunks.length / perDocument);
    const picked = new Set<number>();
    for (let i = 0; i < chunks.length && picked.size < perDocument; i += step) picked.add(Math.floor(i));
    for (const [rank, i] of [...picked].entries()) {
      const chunk = chunks[i];
      passages.push({ chunkId: chunk.chunkId, documentId, documentName: documentName(documentId) ?? "", pageNumber: chunk.pageNumber, text: chunk.text, score: 1 / (rank + 1) });
    }
  }
  return passages.slice(0, Math.max(OVERVIEW_PASSAGES, documentIds.length * 4));
}
