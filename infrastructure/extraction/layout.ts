/**
 * Page layout from positioned text fragments: fragments -> lines -> blocks (paragraph-like
 * groups) -> reading order. Works on display coordinates (origin top-left, page rotation
 * applied) so rotated pages read the way the user sees them.
 */
import type { LayoutBlock, LayoutBox } from "#application/ports/text-extraction";
import { collapseLetterSpacing, dehyphenateLines, normalizeText, noWords, type Vocabulary } from "#infrastructure/extraction/reading-text";

/** Every box is scaled to this page size (spec 001 §2) whatever the real page size is. */
export const PAGE_WIDTH = 596;
export const PAGE_HEIGHT = 842;

/** A text fragment on the displayed page, in display units (points at scale 1, origin top-left). */
export interface Fragment {
  text: string;
  left: number;
  top: number;
  right: number;
  bottom: number;
  /** Glyph height in display units; the yardstick for every gap threshold. */
  size: number;
  /** False for text running vertically on the displayed page (e.g. a rotated axis label). */
  horizontal: boolean;
  rtl: boolean;
}

export interface Line {
  left: number;
  top: number;
  right: number;
  bottom: number;
  size: number;
  text: string;
}

export interface Block {
  lines: Line[];
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/** A gap wider than this many glyph heights between fragments on one line may separate columns or cells. */
const COLUMN_GAP = 1.2;
/** A gap wider than this fraction of a glyph height between fragments is a word space. */
const WORD_GAP = 0.15;
/** Lines at most this many glyph heights apart (bottom to top) belong to the same paragraph. */
const PARAGRAPH_GAP = 0.8;
/** Between table cells: " | " keeps a row's cells together and apart ("access-nbody | 4.19×"). */
export const CELL_SEPARATOR = " | ";

const center = (f: { top: number; bottom: number }) => (f.top + f.bottom) / 2;

function sameSpot(a: Fragment, b: Fragment): boolean {
  // Fake bold is the same text drawn twice, a fraction of a point apart: keep it once.
  return a.text === b.text && Math.abs(a.left - b.left) < a.size * 0.3 && Math.abs(a.top - b.top) < a.size * 0.3;
}

/**
 * The gap above which two fragments of a line are separate words. Normally a fraction of the glyph
 * height; on letter-spaced lines ("T I T L E", one fragment per letter) every letter stands apart,
 * so a space is a gap clearly wider than the usual gap between letters.
 */
function wordGap(ordered: Fragment[], rtl: boolean, smallest: number): number {
  const base = WORD_GAP * smallest;
  if (ordered.length < 4) return base;
  let singles = 0;
  for (const f of ordered) if (f.text.trim().length === 1) singles++;
  if (singles < 0.6 * ordered.length) return base;
  const gaps: number[] = [];
  for (let i = 1; i < ordered.length; i++) {
    const gap = rtl ? ordered[i - 1].left - ordered[i].right : ordered[i].left - ordered[i - 1].right;
    if (gap > 0) gaps.push(gap);
  }
  gaps.sort(ascending);
  if (gaps.length === 0) return base;
  return Math.max(base, gaps[Math.floor(gaps.length / 2)] * 1.8);
}

/** Whether the character at `at` is white space (\s), read without a pattern for ASCII: every fragment of a book asks. */
function isSpaceAt(text: string, at: number): boolean {
  const code = text.charCodeAt(at);
  if (code < 0x80) return code === 32 || (code >= 9 && code <= 13);
  return code === code && /\s/.test(text[at]);
}

/** Whether a string starts with printable ASCII other than a space: then it is not blank, and no pattern need look. */
export const startsPlain = (text: string) => text.charCodeAt(0) > 32 && text.charCodeAt(0) < 127;

const isBlank = (text: string) => !startsPlain(text) && text.trim() === "";

/** Whitespace other than single spaces, which a line's text must not keep. */
const ODD_SPACES = /[^\S ]| {2}/;

/**
 * `items` in the order `compare` gives: themselves when already in it, as a stable sort would
 * leave them, else a sorted copy. A line's fragments and a band's mostly arrive in order, and the
 * copies and sorts were a tenth of what a book's layout allocated.
 */
function sortedBy<T>(items: T[], compare: (a: T, b: T) => number): T[] {
  for (let i = 1; i < items.length; i++) if (compare(items[i - 1], items[i]) > 0) return [...items].sort(compare);
  return items;
}

const byLeft = (a: { left: number }, b: { left: number }) => a.left - b.left;
const byRightEdgeFirst = (a: { right: number }, b: { right: number }) => b.right - a.right;
const byCenterThenLeft = (a: Fragment, b: Fragment) => center(a) - center(b) || a.left - b.left;
const byTopThenLeft = (a: { top: number; left: number }, b: { top: number; left: number }) => a.top - b.top || a.left - b.left;
export const byTop = (a: { top: number }, b: { top: number }) => a.top - b.top;
const ascending = (a: number, b: number) => a - b;

/** Whether a table-cell gap of `cellAt` lies between `from` and `to`. */
function cellBetween(cellAt: readonly number[], from: number, to: number): boolean {
  for (const x of cellAt) if (x >= from - 0.01 && x <= to + 0.01) return true;
  return false;
}

/** One line from its fragments; `cellAt` are x positions of table-cell gaps inside it. */
function makeLine(fragments: Fragment[], cellAt: number[] = []): Line {
  let rtlCount = 0;
  let [left, top, right, bottom, size, smallest] = [Infinity, Infinity, -Infinity, -Infinity, -Infinity, Infinity];
  for (const f of fragments) {
    if (f.rtl) rtlCount++;
    left = Math.min(left, f.left);
    top = Math.min(top, f.top);
    right = Math.max(right, f.right);
    bottom = Math.max(bottom, f.bottom);
    size = Math.max(size, f.size);
    smallest = Math.min(smallest, f.size);
  }
  const rtl = rtlCount * 2 > fragments.length;
  const ordered = sortedBy(fragments, rtl ? byRightEdgeFirst : byLeft);
  const spaceAbove = wordGap(ordered, rtl, smallest);
  let text = "";
  let previous: Fragment | undefined;
  for (const fragment of ordered) {
    let piece = normalizeText(fragment.text);
    if (previous) {
      const gap = rtl ? previous.left - fragment.right : fragment.left - previous.right;
      if (cellAt.length > 0 && cellBetween(cellAt, previous.right, fragment.left)) {
        text = text.trimEnd() + CELL_SEPARATOR;
        piece = piece.trimStart();
      } else if (gap > spaceAbove && !isSpaceAt(text, text.length - 1) && !isSpaceAt(piece, 0)) {
        text += " ";
      }
    }
    text += piece;
    previous = fragment;
  }
  return { left, top, right, bottom, size, text: collapseLetterSpacing((ODD_SPACES.test(text) ? text.replace(/\s+/g, " ") : text).trim()) };
}

interface Piece {
  fragments: Fragment[];
  left: number;
  right: number;
}

interface Band {
  pieces: Piece[];
  center: number;
  size: number;
}

/** A vertical band of the page between text columns, from x `from` to x `to`. */
interface Gutter {
  from: number;
  to: number;
}

/** Splits one baseline band into pieces wherever a gap wider than COLUMN_GAP glyph heights opens. */
function piecesOf(band: Fragment[]): Piece[] {
  const pieces: Piece[] = [];
  for (const fragment of sortedBy(band, byLeft)) {
    const last = pieces[pieces.length - 1];
    if (last && fragment.left - last.right <= COLUMN_GAP * fragment.size) {
      last.fragments.push(fragment);
      last.right = Math.max(last.right, fragment.right);
    } else {
      pieces.push({ fragments: [fragment], left: fragment.left, right: fragment.right });
    }
  }
  return pieces;
}

/** findGutters' count per point across the page, kept from page to page (one buffer per page was a garbage collector's chore). */
let coverageOfPage = new Int32Array(1024);

/**
 * Gutters between text columns: vertical bands of the page that (nearly) no line crosses, with
 * paragraph-wide text on both sides in several lines. Narrow table cells never make a gutter, so a
 * table's rows stay whole while a two-column page is read column by column.
 */
function findGutters(bands: Band[], pageWidth: number): Gutter[] {
  if (bands.length < 3) return [];
  const width = Math.max(1, Math.ceil(pageWidth));
  // How many pieces cover each point across the page: +1 where a piece starts, -1 after it ends, summed.
  if (coverageOfPage.length < width + 1) coverageOfPage = new Int32Array(width + 1);
  const coverage = coverageOfPage.fill(0, 0, width + 1);
  let textLeft = Infinity;
  let textRight = -Infinity;
  for (const band of bands) {
    for (const piece of band.pieces) {
      const from = Math.max(0, Math.floor(piece.left));
      const to = Math.min(width, Math.ceil(piece.right));
      if (to <= from) continue;
      coverage[from]++;
      coverage[to]--;
      textLeft = Math.min(textLeft, from);
      textRight = Math.max(textRight, to);
    }
  }
  for (let x = 1; x <= width; x++) coverage[x] += coverage[x - 1];
  // Full-width lines (a title, a wide figure caption) may cross a gutter; a few of them at most.
  const crossing = Math.max(1, Math.floor(bands.length * 0.1));
  const wide = 0.2 * (textRight - textLeft);
  const gutters: Gutter[] = [];
  let x = Math.ceil(textLeft);
  while (x < textRight) {
    if (coverage[x] > crossing) {
      x++;
      continue;
    }
    const start = x;
    while (x < textRight && coverage[x] <= crossing) x++;
    if (x >= textRight) continue;
    // The gutter proper is the least crossed part of the run: ragged line ends border it.
    let least = Infinity;
    for (let i = start; i < x; i++) least = Math.min(least, coverage[i]);
    let from = start;
    let to = start;
    for (let i = start; i < x; ) {
      if (coverage[i] !== least) {
        i++;
        continue;
      }
      let j = i;
      while (j < x && coverage[j] === least) j++;
      if (j - i > to - from) [from, to] = [i, j];
      i = j;
    }
    if (to - from < 4) continue;
    if (bandsWithWideText(bands, -Infinity, from + 1, wide) >= 2 && bandsWithWideText(bands, to - 1, Infinity, wide) >= 2) gutters.push({ from, to });
  }
  return gutters;
}

/** How many bands hold a piece at least `wide` across lying between `from` and `to`. */
function bandsWithWideText(bands: readonly Band[], from: number, to: number, wide: number): number {
  let count = 0;
  for (const band of bands) {
    for (const p of band.pieces) {
      if (p.left >= from && p.right <= to && p.right - p.left >= wide) {
        count++;
        break;
      }
    }
  }
  return count;
}

/** Whether the gap from `from` to `to` runs into a column gutter. */
function acrossGutter(gutters: readonly Gutter[], from: number, to: number): boolean {
  for (const g of gutters) if (from <= g.to && to >= g.from) return true;
  return false;
}

/**
 * Where the gaps of a band's neighbours (rows above and below, but not across a gutter) lie, as
 * [right of one piece, left of the next].
 */
function neighbourGaps(bands: readonly Band[], index: number, gutters: readonly Gutter[]): [number, number][] {
  const band = bands[index];
  const zones: [number, number][] = [];
  for (let n = Math.max(0, index - 4); n < Math.min(bands.length, index + 5); n++) {
    const neighbour = bands[n];
    if (neighbour === band || !(Math.abs(neighbour.center - band.center) < 2.5 * Math.max(neighbour.size, band.size))) continue;
    for (let i = 1; i < neighbour.pieces.length; i++) {
      const [from, to] = [neighbour.pieces[i - 1].right, neighbour.pieces[i].left];
      if (!acrossGutter(gutters, from, to)) zones.push([from, to]);
    }
  }
  return zones;
}

/** Whether a gap from `from` to `to` shares a good part of one of `zones` (a table column's gap). */
function sharesZone(zones: readonly [number, number][], from: number, to: number, size: number): boolean {
  for (const [a, z] of zones) if (Math.min(z, to) - Math.max(a, from) >= Math.min(0.5 * Math.min(z - a, to - from), 1.5 * size)) return true;
  return false;
}

/**
 * Groups fragments into lines: same baseline band; a band is cut where it crosses a column gutter,
 * and elsewhere its pieces stay one line, joined as table cells where the same gap opens in the
 * row above or below (a table column), else by a space (a wide justified space, a header's halves).
 */
export function groupLines(input: Fragment[], pageWidth = PAGE_WIDTH): Line[] {
  const fragments: Fragment[] = [];
  for (const f of input) {
    if (isBlank(f.text)) continue;
    // Fake bold draws its copy right after the original, so the last few fragments suffice.
    let copy = false;
    for (let i = Math.max(0, fragments.length - 3); i < fragments.length && !copy; i++) copy = sameSpot(f, fragments[i]);
    if (copy) continue;
    fragments.push(f);
  }
  const vertical: Line[] = [];
  const horizontal: Fragment[] = [];
  for (const f of fragments) {
    if (f.horizontal) horizontal.push(f);
    else vertical.push(makeLine([f]));
  }
  const sorted = sortedBy(horizontal, byCenterThenLeft);

  const rawBands: Fragment[][] = [];
  for (const fragment of sorted) {
    const band = rawBands[rawBands.length - 1];
    const anchor = band?.[0];
    if (anchor && Math.abs(center(fragment) - center(anchor)) < 0.5 * Math.min(anchor.size, fragment.size)) {
      band.push(fragment);
    } else {
      rawBands.push([fragment]);
    }
  }
  const bands: Band[] = [];
  for (const band of rawBands) {
    let size = -Infinity;
    for (const f of band) size = Math.max(size, f.size);
    bands.push({ pieces: piecesOf(band), center: center(band[0]), size });
  }
  const gutters = findGutters(bands, pageWidth);

  // Loops and functions of the module, not closures made for each page: V8 drops a closure's
  // optimized code with the closure, and compiled these again for every document (decision 225).
  const lines: Line[] = [];
  for (let index = 0; index < bands.length; index++) {
    const band = bands[index];
    // A band in one piece (most lines of prose) has no gap to weigh.
    if (band.pieces.length === 1) {
      lines.push(makeLine(band.pieces[0].fragments));
      continue;
    }
    // Rows above and below; the other column's lines may sit between them on their own baselines.
    const zones = neighbourGaps(bands, index, gutters);
    let current: Fragment[] = [];
    let cells: number[] = [];
    for (let i = 0; i < band.pieces.length; i++) {
      const piece = band.pieces[i];
      if (i > 0) {
        const from = band.pieces[i - 1].right;
        const to = piece.left;
        if (acrossGutter(gutters, from, to)) {
          lines.push(makeLine(current, cells));
          current = [];
          cells = [];
        } else if (sharesZone(zones, from, to, band.size)) {
          // A table column leaves the same gap in the next row (centred headers over left-aligned
          // cells share a good part of it); two wide justified spaces rarely line up.
          cells.push((from + to) / 2);
        }
      }
      for (const fragment of piece.fragments) current.push(fragment);
    }
    if (current.length > 0) lines.push(makeLine(current, cells));
  }
  for (const line of vertical) lines.push(line);
  return lines;
}

/** Whether `line` continues `block`: right under its last line, close, overlapping it and of similar size. */
function continuesBlock(block: Block, line: Line): boolean {
  const last = block.lines[block.lines.length - 1];
  const gap = line.top - last.bottom;
  const overlap = Math.min(line.right, last.right) - Math.max(line.left, last.left);
  const similar = Math.max(line.size, last.size) / Math.min(line.size, last.size) < 1.3;
  return gap > -0.5 * line.size && gap < PARAGRAPH_GAP * line.size && overlap > 0 && similar;
}

/** Joins lines into blocks: a line continues the block right above it when close, overlapping and of similar size. */
export function groupBlocks(lines: Line[]): Block[] {
  const blocks: Block[] = [];
  const sorted = sortedBy(lines, byTopThenLeft);
  for (const line of sorted) {
    let target: Block | undefined;
    for (const block of blocks) {
      if (continuesBlock(block, line)) {
        target = block;
        break;
      }
    }
    if (target) {
      target.lines.push(line);
      target.left = Math.min(target.left, line.left);
      target.right = Math.max(target.right, line.right);
      target.bottom = Math.max(target.bottom, line.bottom);
    } else {
      blocks.push({ lines: [line], left: line.left, top: line.top, right: line.right, bottom: line.bottom });
    }
  }
  return blocks;
}

interface Gap {
  at: number;
  size: number;
}

/** An empty vertical band at least this wide (display units) between blocks is a column gutter. */
const GUTTER = 8;

/** The widest empty band across all boxes, from top to bottom (`down`: from left to right), if any. */
function widestGap(blocks: Block[], down: boolean): Gap | undefined {
  const sorted = sortedBy(blocks, down ? byLeft : byTop);
  let best: Gap | undefined;
  let reach = down ? sorted[0].right : sorted[0].bottom;
  for (let i = 1; i < sorted.length; i++) {
    const block = sorted[i];
    const gap = (down ? block.left : block.top) - reach;
    if (gap > 0 && (!best || gap > best.size)) best = { at: reach + gap / 2, size: gap };
    reach = Math.max(reach, down ? block.right : block.bottom);
  }
  return best;
}

/** `blocks` cut in two at `at`: those ending before it (their right edge, or with `down` false their bottom), and the rest. */
function cutAt(blocks: readonly Block[], at: number, down: boolean): [Block[], Block[]] {
  const first: Block[] = [];
  const second: Block[] = [];
  for (const b of blocks) ((down ? b.right : b.bottom) <= at ? first : second).push(b);
  return [first, second];
}

/**
 * Reading order by recursive XY-cut: split the page at the widest empty band, across (top part
 * first) or down (left part first), until no band is left; then top to bottom.
 */
export function readingOrder(blocks: Block[]): Block[] {
  if (blocks.length <= 1) return blocks;
  const across = widestGap(blocks, false);
  const down = widestGap(blocks, true);
  // A column gutter wins over a wider horizontal gap: where one column ends early, the space under
  // it lines up with a heading's space in the other, and cutting across there would interleave them.
  if (down && (!across || down.size > across.size || down.size >= GUTTER)) {
    const [first, second] = cutAt(blocks, down.at, true);
    return [...readingOrder(first), ...readingOrder(second)];
  }
  if (across) {
    const [first, second] = cutAt(blocks, across.at, false);
    return [...readingOrder(first), ...readingOrder(second)];
  }
  return sortedBy(blocks, byTopThenLeft);
}

const round = (n: number) => Math.round(n * 100) / 100;

/** Scales a display-space box to the 596 × 842 page, clamped to the page. */
export function scaleBox(
  box: { left: number; top: number; right: number; bottom: number },
  displayWidth: number,
  displayHeight: number,
): LayoutBox {
  const sx = PAGE_WIDTH / displayWidth;
  const sy = PAGE_HEIGHT / displayHeight;
  const left = Math.max(0, box.left * sx);
  const top = Math.max(0, box.top * sy);
  const right = Math.min(PAGE_WIDTH, box.right * sx);
  const bottom = Math.min(PAGE_HEIGHT, box.bottom * sy);
  return { left: round(left), top: round(top), width: round(Math.max(0, right - left)), height: round(Math.max(0, bottom - top)) };
}

/** Fragments of one page to its blocks in reading order (lines kept, nothing joined yet). */
export function pageBlocks(fragments: Fragment[], displayWidth: number): Block[] {
  return readingOrder(groupBlocks(groupLines(fragments, displayWidth)));
}

/**
 * Every line of `blocks`, in order. A loop: Array.prototype.flatMap, which the optimizing compiler
 * does not inline, took 30 times as long over a book's ten thousand lines.
 */
export function linesOf(blocks: readonly Block[]): Line[] {
  const lines: Line[] = [];
  for (const block of blocks) for (const line of block.lines) lines.push(line);
  return lines;
}

/** Each line's text, in order. */
export function textsOf(lines: readonly Line[]): string[] {
  const texts: string[] = [];
  for (const line of lines) texts.push(line.text);
  return texts;
}

/**
 * Rejoins words hyphenated at line ends across blocks in reading order, in place: within a block,
 * from the foot of one column to the top of the next, and from one page to the next when given
 * several pages' blocks (the rest of the word moves up, so a word is whole on the page it starts).
 */
export function dehyphenateBlocks(ordered: Block[], vocabulary: Vocabulary = noWords): void {
  const lines = linesOf(ordered);
  const joined = dehyphenateLines(textsOf(lines), vocabulary);
  for (let i = 0; i < lines.length; i++) lines[i].text = joined[i];
}

/** Blocks in reading order to the page's text (blocks separated by blank lines) and layout blocks. */
export function renderBlocks(
  ordered: Block[],
  displayWidth: number,
  displayHeight: number,
  blockIdPrefix: string,
): { text: string; blocks: LayoutBlock[] } {
  const blocks: LayoutBlock[] = [];
  const texts: string[] = [];
  for (const block of ordered) {
    // A line whose only word moved up to finish a hyphenated word is gone.
    const lines: string[] = [];
    for (const line of block.lines) if (line.text !== "") lines.push(line.text);
    if (lines.length === 0) continue;
    const text = lines.join("\n");
    blocks.push({ id: `${blockIdPrefix}-b${blocks.length + 1}`, text, box: scaleBox(block, displayWidth, displayHeight) });
    texts.push(text);
  }
  // Joined, not concatenated: a joined string is flat, and what reads the page's text character by
  // character (judging it, cutting passages) reads a flat string several times faster than a rope.
  return { text: texts.join("\n\n"), blocks };
}

/** Fragments of one page to its text (blocks separated by blank lines) and layout blocks. */
export function layoutPage(
  fragments: Fragment[],
  displayWidth: number,
  displayHeight: number,
  blockIdPrefix: string,
  vocabulary?: Vocabulary,
): { text: string; blocks: LayoutBlock[] } {
  const blocks = pageBlocks(fragments, displayWidth);
  dehyphenateBlocks(blocks, vocabulary);
  return renderBlocks(blocks, displayWidth, displayHeight, blockIdPrefix);
}
