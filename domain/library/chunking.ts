/**
 * Splits a document's extracted pages into retrieval chunks (ARCHITECTURE §6).
 *
 * - A chunk never crosses a page boundary: a citation names one page.
 * - Chunks end at paragraph or sentence boundaries where possible, then at
 *   word boundaries, and only cut inside a word that is longer than a chunk.
 * - Consecutive chunks of a page overlap by up to `overlapChars`, starting the
 *   overlap at a sentence boundary when one is close enough, else at a word.
 * - Each chunk keeps the ids of the layout blocks whose text it covers.
 * - Pure and deterministic: the same input gives the same chunk ids and texts,
 *   so re-indexing after a crash replaces chunks instead of duplicating them.
 *   (When a re-chunk can give FEWER chunks — other options, changed text — the
 *   indexer should delete the document's chunks first.)
 */

export interface PageBlock {
  id: string;
  text: string;
}

export interface PageText {
  pageNumber: number;
  /** The page's text; when blank it is rebuilt from the blocks, joined by blank lines. */
  text: string;
  blocks: PageBlock[];
}

export interface ChunkingOptions {
  /** Preferred maximum chunk length in characters (default 800). */
  targetChars?: number;
  /** Characters repeated from the end of one chunk at the start of the next on the same page (default 120). */
  overlapChars?: number;
}

export interface Chunk {
  chunkId: `${string}:${number}`;
  pageNumber: number;
  /** Position of the chunk in the whole document, from 0. */
  ordinal: number;
  text: string;
  blockIds: string[];
}

export const DEFAULT_TARGET_CHARS = 800;
export const DEFAULT_OVERLAP_CHARS = 120;

export function chunkPages(documentId: string, pages: PageText[], options: ChunkingOptions = {}): Chunk[] {
  const targetChars = options.targetChars ?? DEFAULT_TARGET_CHARS;
  if (!Number.isInteger(targetChars) || targetChars < 1) throw new RangeError(`targetChars must be a positive integer, got ${targetChars}`);
  const requestedOverlap = options.overlapChars ?? DEFAULT_OVERLAP_CHARS;
  if (!Number.isInteger(requestedOverlap) || requestedOverlap < 0) {
    throw new RangeError(`overlapChars must be a non-negative integer, got ${requestedOverlap}`);
  }
  // An overlap of half a chunk or more would make chunks mostly repeats (and could stall progress).
  const overlapChars = Math.min(requestedOverlap, Math.floor(targetChars / 2));

  const ordered = pages.map((page, i) => ({ page, i })).sort((a, b) => a.page.pageNumber - b.page.pageNumber || a.i - b.i);
  const chunks: Chunk[] = [];
  for (const { page } of ordered) {
    const text = page.text.trim() ? page.text : page.blocks.map((b) => b.text).join("\n\n");
    const blockSpans = locateBlocks(text, page.blocks);
    for (const [start, end] of splitPage(text, targetChars, overlapChars)) {
      const ordinal = chunks.length;
      chunks.push({
        chunkId: `${documentId}:${ordinal}`,
        pageNumber: page.pageNumber,
        ordinal,
        text: text.slice(start, end),
        blockIds: blockSpans.filter((s) => s.start < end && s.end > start).map((s) => s.id),
      });
    }
  }
  return chunks;
}

type Range = [start: number, end: number];

/** Boundary strength: where a chunk may end. Higher is better. */
const PARAGRAPH = 3;
const SENTENCE = 2;
const LINE = 1;

/**
 * Character ranges (trimmed, non-empty) of the chunks of one page.
 * Greedy: each chunk extends as far as `targetChars` allows and ends at the
 * strongest boundary in its last part (paragraph > sentence > line > word).
 */
function splitPage(text: string, targetChars: number, overlapChars: number): Range[] {
  const boundaries = findBoundaries(text);
  const ranges: Range[] = [];
  let start = skipSpace(text, 0);
  // End of the previous chunk: the next one must reach past it, or it would only repeat it.
  let previousEnd = start;
  while (start < text.length) {
    const limit = start + targetChars;
    let end: number;
    if (trimEnd(text, start, text.length) <= limit) {
      end = text.length;
    } else {
      end = bestBreak(text, boundaries, start, Math.max(start, previousEnd), limit, targetChars);
    }
    const trimmedEnd = trimEnd(text, start, end);
    if (trimmedEnd > start) ranges.push([start, trimmedEnd]);
    previousEnd = trimmedEnd;
    if (end >= text.length) break;
    const next = skipSpace(text, overlapStart(text, boundaries, start, trimmedEnd, end, overlapChars));
    // Progress guarantee: the next chunk must start after this one did.
    start = next > start ? next : skipSpace(text, end);
  }
  return ranges;
}

/** Where to end a chunk starting at `start` that cannot reach the page end within `limit`. */
function bestBreak(
  text: string,
  boundaries: Map<number, number>,
  start: number,
  mustPass: number,
  limit: number,
  targetChars: number,
): number {
  // Only the last half of the window is considered for a clean break, so chunks stay near the target size.
  const floor = Math.max(start + Math.max(1, Math.floor(targetChars / 2)), mustPass + 1);
  let best = -1;
  let bestStrength = 0;
  for (let pos = limit; pos >= floor; pos--) {
    const strength = boundaries.get(pos);
    if (strength !== undefined && strength > bestStrength) {
      best = pos;
      bestStrength = strength;
      if (strength === PARAGRAPH) break;
    }
  }
  if (best > start) return best;
  // No sentence or line break: end at the last word boundary inside the window.
  for (let pos = limit; pos > mustPass; pos--) if (isSpace(text[pos]) && !isSpace(text[pos - 1])) return pos;
  // A single "word" longer than a chunk (URLs, tables without spaces): cut it, but not inside a surrogate pair.
  const cut = isLowSurrogate(text.charCodeAt(limit)) ? limit - 1 : limit;
  return cut > mustPass ? cut : limit + 1;
}

/**
 * Start of the next chunk: the earliest sentence (or stronger) boundary inside
 * the last `overlapChars` characters of the chunk, else the earliest word start
 * there; no overlap when neither exists or the overlap is disabled.
 */
function overlapStart(
  text: string,
  boundaries: Map<number, number>,
  chunkStart: number,
  chunkEnd: number,
  rawEnd: number,
  overlapChars: number,
): number {
  if (overlapChars === 0) return rawEnd;
  const from = Math.max(chunkStart + 1, chunkEnd - overlapChars);
  for (let pos = from; pos < chunkEnd; pos++) {
    const strength = boundaries.get(pos);
    if (strength !== undefined && strength >= SENTENCE) return pos;
  }
  for (let pos = from; pos < chunkEnd; pos++) if (!isSpace(text[pos]) && isSpace(text[pos - 1])) return pos;
  return rawEnd;
}

/**
 * Positions where a new sentence, line or paragraph begins (the index of its
 * first whitespace character, so the previous chunk ends cleanly there).
 */
function findBoundaries(text: string): Map<number, number> {
  const boundaries = new Map<number, number>();
  const mark = (pos: number, strength: number) => {
    if (strength > (boundaries.get(pos) ?? 0)) boundaries.set(pos, strength);
  };
  for (const m of text.matchAll(/\n[^\S\n]*\n\s*/g)) mark(m.index, PARAGRAPH);
  // Sentence ends: terminal punctuation, optional closing quotes/brackets, then whitespace.
  for (const m of text.matchAll(/[.!?…]+["'”’)\]]*(?=\s)/g)) mark(m.index + m[0].length, SENTENCE);
  // CJK full stops need no following space.
  for (const m of text.matchAll(/[。！？]+(?=\S)/g)) mark(m.index + m[0].length, SENTENCE);
  for (const m of text.matchAll(/\n/g)) mark(m.index, LINE);
  return boundaries;
}

/** Each block's character range in the page text, searched in reading order, whitespace-insensitively. */
function locateBlocks(text: string, blocks: PageBlock[]): { id: string; start: number; end: number }[] {
  const page = collapseSpace(text);
  const spans: { id: string; start: number; end: number }[] = [];
  let cursor = 0;
  for (const block of blocks) {
    const needle = collapseSpace(block.text.trim()).text;
    if (!needle) continue;
    // In order first; a block out of reading order is looked for from the top.
    let at = page.text.indexOf(needle, cursor);
    if (at < 0) at = page.text.indexOf(needle);
    if (at < 0) continue; // Text that is not on the page cannot be highlighted from a chunk.
    const startOriginal = page.map[at];
    const endOriginal = page.map[at + needle.length - 1] + 1;
    spans.push({ id: block.id, start: startOriginal, end: endOriginal });
    if (at >= cursor) cursor = at + needle.length;
  }
  return spans;
}

/** Collapses each whitespace run to one space, remembering each kept character's original index. */
function collapseSpace(text: string): { text: string; map: number[] } {
  let out = "";
  const map: number[] = [];
  for (let i = 0; i < text.length; i++) {
    if (isSpace(text[i])) {
      if (out.endsWith(" ")) continue;
      out += " ";
    } else {
      out += text[i];
    }
    map.push(i);
  }
  return { text: out, map };
}

function isSpace(ch: string | undefined): boolean {
  return ch !== undefined && /\s/.test(ch);
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

function skipSpace(text: string, pos: number): number {
  while (pos < text.length && isSpace(text[pos])) pos++;
  return pos;
}

function trimEnd(text: string, start: number, end: number): number {
  while (end > start && isSpace(text[end - 1])) end--;
  return end;
}
