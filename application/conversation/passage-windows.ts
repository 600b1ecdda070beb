import type { ChunkHit, IndexedChunk, SearchIndex } from "#application/ports/search-index";

/**
 * What is handed to the model for the fused ranking of a question's chunks
 * (decision 195): one passage per page, not per chunk.
 *
 * - Chunks of a page already chosen that rank within `mergeDepth` join its
 *   passage instead of taking a slot, so the slots reach more pages (two
 *   overlapping chunks of one page used to fill two of the eight);
 * - a gap of one chunk between two chunks of a passage is filled, so it reads
 *   as one stretch of the page;
 * - a passage shorter than `minChars` reads its page's neighbouring chunks,
 *   the next one first (the answer to what a passage raises tends to follow
 *   it), best-ranked passages first, while all passages together stay within
 *   `maxChars`.
 *
 * A passage never crosses its page: a citation names one page.
 */
export interface PassageWindow {
  /** The page's chunks the passage covers, in reading order. */
  chunks: IndexedChunk[];
  /** The best-ranked of them: its fused score orders the passages. */
  lead: IndexedChunk;
  score: number;
  text: string;
}

export interface WindowOptions {
  limit: number;
  /** Hits ranked up to here may join a passage already chosen for their page. */
  mergeDepth: number;
  /** Passages shorter than this read their page's neighbouring chunks… */
  minChars: number;
  /** …while the characters of all passages stay within this. */
  maxChars: number;
  index: Pick<SearchIndex, "chunksAt">;
}

interface Window {
  chunks: Map<number, IndexedChunk>;
  lead: IndexedChunk;
  score: number;
}

export async function passageWindows(ranked: ChunkHit[], options: WindowOptions): Promise<PassageWindow[]> {
  const windows = choosePages(ranked, options);
  const neighbours = await readNeighbours(windows, options);
  const neighbour = (window: Window, ordinal: number) => {
    const chunk = neighbours.get(`${window.lead.documentId}:${ordinal}`);
    return chunk && chunk.pageNumber === window.lead.pageNumber ? chunk : undefined;
  };
  for (const window of windows) {
    for (const ordinal of gaps(window)) {
      const fill = neighbour(window, ordinal);
      if (fill) window.chunks.set(ordinal, fill);
    }
  }
  let total = windows.reduce((sum, window) => sum + textOf(window).length, 0);
  for (const window of windows) {
    for (const side of ["next", "previous"] as const) {
      const before = textOf(window).length;
      if (before >= options.minChars) break;
      const ordinals = [...window.chunks.keys()];
      const chunk = neighbour(window, side === "next" ? Math.max(...ordinals) + 1 : Math.min(...ordinals) - 1);
      if (!chunk) continue;
      window.chunks.set(chunk.ordinal, chunk);
      const added = textOf(window).length - before;
      if (total + added > options.maxChars) window.chunks.delete(chunk.ordinal);
      else total += added;
    }
  }
  return windows.map((window) => ({ chunks: inOrder(window), lead: window.lead, score: window.score, text: textOf(window) }));
}

/** The best-ranked hit of each page, up to `limit` pages; hits within `mergeDepth` of a page already chosen join it. */
function choosePages(ranked: ChunkHit[], options: WindowOptions): Window[] {
  const byPage = new Map<string, Window>();
  for (const [rank, { chunk, score }] of ranked.entries()) {
    const page = `${chunk.documentId}\u0000${chunk.pageNumber}`;
    const chosen = byPage.get(page);
    if (chosen) {
      if (rank < options.mergeDepth) chosen.chunks.set(chunk.ordinal, chunk);
    } else if (byPage.size < options.limit) {
      byPage.set(page, { chunks: new Map([[chunk.ordinal, chunk]]), lead: chunk, score });
    }
  }
  return [...byPage.values()];
}

/** One read per document: the chunk missing between two of a passage, and the next and previous of a short passage. */
async function readNeighbours(windows: Window[], options: WindowOptions): Promise<Map<string, IndexedChunk>> {
  const wanted = new Map<string, Set<number>>();
  for (const window of windows) {
    const ordinals = [...window.chunks.keys()];
    const around = textOf(window).length < options.minChars ? [Math.max(...ordinals) + 1, Math.min(...ordinals) - 1] : [];
    for (const ordinal of [...gaps(window), ...around].filter((o) => o >= 0)) {
      const set = wanted.get(window.lead.documentId) ?? new Set<number>();
      wanted.set(window.lead.documentId, set.add(ordinal));
    }
  }
  const found = new Map<string, IndexedChunk>();
  await Promise.all(
    [...wanted].map(async ([documentId, ordinals]) => {
      for (const chunk of await options.index.chunksAt(documentId, [...ordinals])) found.set(`${documentId}:${chunk.ordinal}`, chunk);
    }),
  );
  return found;
}

function gaps(window: Window): number[] {
  const ordinals = [...window.chunks.keys()].sort((a, b) => a - b);
  return ordinals.slice(1).filter((ordinal, i) => ordinal - ordinals[i] === 2).map((ordinal) => ordinal - 1);
}

function inOrder(window: Window): IndexedChunk[] {
  return [...window.chunks.values()].sort((a, b) => a.ordinal - b.ordinal);
}

function textOf(window: Window): string {
  return joinChunks(inOrder(window));
}

/**
 * The page text the chunks cover: consecutive chunks overlap (the chunker
 * repeats up to 120 characters at the start of the next), which is written
 * once; chunks that are not consecutive are separate paragraphs.
 */
export function joinChunks(chunks: IndexedChunk[]): string {
  let text = "";
  let previous: IndexedChunk | undefined;
  for (const chunk of chunks) {
    if (!previous) text = chunk.text;
    else if (chunk.ordinal === previous.ordinal + 1) text += continuation(previous.text, chunk.text);
    else text += `\n\n${chunk.text}`;
    previous = chunk;
  }
  return text;
}

/** What `next` adds after `previous`: its start repeated from the end of `previous` left out. */
function continuation(previous: string, next: string): string {
  for (let n = Math.min(previous.length, next.length, MAX_OVERLAP); n >= MIN_OVERLAP; n--) {
    if (previous.endsWith(next.slice(0, n))) return next.slice(n);
  }
  return `\n${next}`;
}

/** The chunker's overlap is at most 120 characters; a few more covers a longer configuration. */
const MAX_OVERLAP = 400;
/** Shorter matches are coincidences ("e" ending one chunk and starting the next), not the chunker's overlap. */
const MIN_OVERLAP = 4;
