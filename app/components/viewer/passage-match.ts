/**
 * Where a cited passage sits among a page's text pieces (pdf.js text-layer
 * items, layout blocks, or one page of plain text), so the viewer can
 * highlight exactly those characters.
 *
 * The quote comes from the stored chunk text (extracted, cleaned: hyphenation
 * rejoined, ligatures expanded, reading order fixed) while the pieces come
 * from whatever the browser shows (pdf.js's raw text items: "ﬁ" ligatures,
 * "SunSpi-" + "der" split across lines, odd spacing). Both sides are reduced
 * to letters and digits only (NFKC, accents dropped, lower case), so those
 * differences vanish; each reduced character remembers the piece and offsets
 * it came from. An exact hit is taken at once; otherwise the longest in-order
 * chain of short anchors (a tolerant alignment) must cover most of the quote.
 */

/** Characters of one piece that belong to the passage: `text.slice(start, end)`. */
export type PieceRange = { piece: number; start: number; end: number };

type Reduced = { text: string; piece: Int32Array; start: Int32Array; end: Int32Array };

const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;
const COMBINING_MARK = /\p{M}/u;

/** One source character reduced to what is compared: NFKC ("ﬁ" → "fi", full-width → ASCII), no accents, lower case, letters and digits only. */
function reduceChar(ch: string): string {
  let out = "";
  for (const c of ch.normalize("NFKC").normalize("NFKD").toLowerCase()) {
    if (!COMBINING_MARK.test(c) && LETTER_OR_DIGIT.test(c)) out += c;
  }
  return out;
}

function reduce(pieces: readonly string[]): Reduced {
  let text = "";
  const piece: number[] = [];
  const start: number[] = [];
  const end: number[] = [];
  pieces.forEach((source, index) => {
    let offset = 0;
    for (const ch of source) {
      const reduced = reduceChar(ch);
      for (const r of reduced) {
        text += r;
        piece.push(index);
        start.push(offset);
        end.push(offset + ch.length);
      }
      offset += ch.length;
    }
  });
  return { text, piece: Int32Array.from(piece), start: Int32Array.from(start), end: Int32Array.from(end) };
}

/** The reduced form of a text: what the matcher compares (exported for tests and callers that compare quotes). */
export const reducedText = (text: string) => reduce([text]).text;

/** Anchor length in reduced characters: long enough to be rare on a page, short enough to survive small differences. */
const ANCHOR = 10;
/** How far the gap between two anchors on the page may differ from their gap in the quote (extra or missing text). */
const slack = (quoteGap: number) => 24 + quoteGap * 0.35;
/** Share of the quote the anchor chain must cover, unless the chain alone is long (a quote that runs onto the next page). */
const MIN_COVERAGE = 0.5;
const MIN_CHAIN_CHARS = 80;

/** The reduced span [from, to) of `needle` in `hay`, exactly or by an in-order chain of anchors; null when the page does not hold it. */
function alignSpan(hay: string, needle: string): { from: number; to: number } | null {
  if (needle.length === 0 || hay.length === 0) return null;
  const exact = hay.indexOf(needle);
  if (exact >= 0) return { from: exact, to: exact + needle.length };
  if (needle.length < 2 * ANCHOR) return null;

  // Anchors: non-overlapping slices of the quote, each found wherever it occurs on the page.
  const hits: { q: number; p: number }[] = [];
  for (let q = 0; q + ANCHOR <= needle.length; q += ANCHOR) {
    const anchor = needle.slice(q, q + ANCHOR);
    for (let p = hay.indexOf(anchor), seen = 0; p >= 0 && seen < 50; p = hay.indexOf(anchor, p + 1), seen++) hits.push({ q, p });
  }
  if (hits.length === 0) return null;
  hits.sort((a, b) => a.p - b.p || a.q - b.q);

  // Longest chain increasing in both quote and page position whose page gaps track the quote gaps.
  const length = new Array<number>(hits.length).fill(1);
  const previous = new Array<number>(hits.length).fill(-1);
  let best = 0;
  for (let i = 0; i < hits.length; i++) {
    for (let j = 0; j < i; j++) {
      const dq = hits[i].q - hits[j].q;
      const dp = hits[i].p - hits[j].p;
      if (dq <= 0 || dp < ANCHOR || Math.abs(dp - dq) > slack(dq)) continue;
      if (length[j] + 1 > length[i]) {
        length[i] = length[j] + 1;
        previous[i] = j;
      }
    }
    if (length[i] > length[best]) best = i;
  }
  const covered = length[best] * ANCHOR;
  const wanted = Math.floor(needle.length / ANCHOR) * ANCHOR;
  if (covered < wanted * MIN_COVERAGE && covered < MIN_CHAIN_CHARS) return null;
  let first = best;
  while (previous[first] >= 0) first = previous[first];
  // Stretch to the quote's ends where the page's text there is the same, so the first and last words are whole.
  let from = hits[first].p;
  for (let q = hits[first].q; q > 0 && from > 0 && hay[from - 1] === needle[q - 1]; q--) from--;
  let to = hits[best].p + ANCHOR;
  for (let q = hits[best].q + ANCHOR; q < needle.length && to < hay.length && hay[to] === needle[q]; q++) to++;
  return { from, to };
}

/**
 * The characters of `pieces` that hold `passage`, piece by piece in order, or
 * null when the pieces do not hold it (an empty passage, another page, a
 * provider's paraphrase).
 */
export function locatePassage(pieces: readonly string[], passage: string): PieceRange[] | null {
  const page = reduce(pieces);
  const span = alignSpan(page.text, reducedText(passage));
  if (!span) return null;
  const ranges: PieceRange[] = [];
  for (let i = span.from; i < span.to; i++) {
    const last = ranges.at(-1);
    if (last && last.piece === page.piece[i]) last.end = Math.max(last.end, page.end[i]);
    else ranges.push({ piece: page.piece[i], start: page.start[i], end: page.end[i] });
  }
  // A span that goes on in the next piece takes the line-end hyphen or spaces it stopped before.
  for (const range of ranges.slice(0, -1)) {
    const rest = pieces[range.piece].slice(range.end);
    if (!LETTER_OR_DIGIT.test(rest)) range.end += rest.length;
  }
  // The quote's own opening and closing punctuation (“…”, the full stop) is marked too where the page has it.
  const quote = passage.trim();
  const opening = /^[^\p{L}\p{N}\s]+/u.exec(quote)?.[0] ?? "";
  const closing = /[^\p{L}\p{N}\s]+$/u.exec(quote)?.[0] ?? "";
  const first = ranges[0];
  const last = ranges[ranges.length - 1];
  while (first.start > 0 && opening.includes(pieces[first.piece][first.start - 1])) first.start--;
  while (last.end < pieces[last.piece].length && closing.includes(pieces[last.piece][last.end])) last.end++;
  return ranges;
}

/** Where a passage sits in one page of plain text, as offsets for a <mark>; null when it is not there. */
export function findPassage(text: string, passage: string): { start: number; end: number } | null {
  const ranges = locatePassage([text], passage);
  return ranges ? { start: ranges[0].start, end: ranges[ranges.length - 1].end } : null;
}

/** The pieces (blocks) that hold a passage, in page order: for highlights drawn from layout boxes. */
export function matchBlocks<T extends { text: string }>(blocks: readonly T[], passage: string): T[] {
  const ranges = locatePassage(
    blocks.map((b) => b.text),
    passage,
  );
  return ranges ? ranges.map((r) => blocks[r.piece]) : [];
}
