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
  // Nearly all: a line of inline mathematics has many single characters between its words.
  if (singles < 0.8 * ordered.length) return base;
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

/** `fragments` in the order they stand in `drawn`. A formula has few fragments; the page has many, but formulas are rare. */
function inDrawingOrder(fragments: readonly Fragment[], drawn: readonly Fragment[]): Fragment[] {
  const at = new Map<Fragment, number>();
  for (const f of fragments) at.set(f, drawn.indexOf(f));
  return sortedBy([...fragments], (a, b) => at.get(a)! - at.get(b)!);
}

const byLeft = (a: { left: number }, b: { left: number }) => a.left - b.left;
const byRightEdgeFirst = (a: { right: number }, b: { right: number }) => b.right - a.right;
const byCenterThenLeft = (a: Fragment, b: Fragment) => center(a) - center(b) || a.left - b.left;
const byTopThenLeft = (a: { top: number; left: number }, b: { top: number; left: number }) => a.top - b.top || a.left - b.left;
export const byTop = (a: { top: number }, b: { top: number }) => a.top - b.top;
const byCenter = (a: { center: number }, b: { center: number }) => a.center - b.center;
const ascending = (a: number, b: number) => a - b;

/** Whether a table-cell gap of `cellAt` lies between `from` and `to`. */
function cellBetween(cellAt: readonly number[], from: number, to: number): boolean {
  for (const x of cellAt) if (x >= from - 0.01 && x <= to + 0.01) return true;
  return false;
}

/**
 * Whether `fragment` sits on the line of `anchor`, a band's largest fragment so far: their middles
 * less than half a glyph apart, or a few smaller characters with their middle within the larger
 * one's height (a subscript, a superscript, a footnote mark, an index of inline mathematics).
 */
function onOneBaseline(anchor: Fragment, fragment: Fragment): boolean {
  const distance = Math.abs(center(fragment) - center(anchor));
  if (distance < 0.5 * Math.min(anchor.size, fragment.size)) return true;
  const [small, large] = fragment.size < anchor.size ? [fragment, anchor] : [anchor, fragment];
  return small.size < 0.85 * large.size && distance < 0.5 * large.size && small.text.trim().length <= 4;
}

/**
 * One line from its fragments; `cellAt` are x positions of table-cell gaps inside it. A formula's
 * line (`drawn` given: the page's fragments in the order they were drawn) keeps that order, which
 * is the order its author wrote it in: left side, numerator, denominator, exponent.
 */
function makeLine(fragments: Fragment[], cellAt: number[] = [], drawn?: readonly Fragment[]): Line {
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
  const ordered = drawn ? inDrawingOrder(fragments, drawn) : sortedBy(fragments, rtl ? byRightEdgeFirst : byLeft);
  const spaceAbove = wordGap(ordered, rtl, smallest);
  let text = "";
  let previous: Fragment | undefined;
  for (const fragment of ordered) {
    let piece = normalizeText(fragment.text);
    if (previous) {
      const gap = rtl ? previous.left - fragment.right : fragment.left - previous.right;
      // In drawing order a formula goes back to the left for its next row: that is a word break.
      const back = drawn !== undefined && gap < -0.25 * Math.min(fragment.size, previous.size);
      if (cellAt.length > 0 && cellBetween(cellAt, previous.right, fragment.left)) {
        text = text.trimEnd() + CELL_SEPARATOR;
        piece = piece.trimStart();
      } else if ((gap > spaceAbove || back) && !isSpaceAt(text, text.length - 1) && !isSpaceAt(piece, 0)) {
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
  /** Rows of one formula stacked closer than lines of text (a fraction's numerator, the main row, its denominator). */
  stacked: boolean;
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

/**
 * A vertical band of empty page between two text columns: from x `from` to x `to`, down the bands
 * `first` to `last` (and so from y `top` to `bottom`). Above and below it a full-width part (a
 * title, an abstract, a wide figure's caption) crosses the page, or the page ends.
 */
export interface Gutter {
  from: number;
  to: number;
  top: number;
  bottom: number;
}

/** The narrowest empty band, in glyph heights, that may still part two columns. */
const GUTTER_WIDTH = 0.5;
/** Lines with more than this many glyph heights of empty page between them have it across every column. */
const BLANK_ACROSS = 2;
/**
 * Empty page across established columns up to this many glyph heights is a pause in both (a
 * heading's space in one, the rule above the footnotes in the other), not the end of the columns,
 * when the lines under it leave the whole gutter empty: a wide figure's empty space is taller, and
 * a wide equation under its space runs into the gutter.
 */
const PAUSE = 4;
/** How many lines of prose a column must have on each side of a gutter along its run. */
const PROSE_LINES = 2;
/** A piece of prose: at least this many words, and a fifth of the page's text width. */
const PROSE_WORDS = 4;

/**
 * Fragments (sorted by their middles) in baseline bands, each split into pieces. A band's anchor
 * is its largest fragment so far: a raised letter (the A of LaTeX's logo, a superscript) sorts
 * first but must not decide where the rest of its line belongs.
 */
function bandsOf(sorted: readonly Fragment[]): Band[] {
  const bands: Band[] = [];
  let fragments: Fragment[] = [];
  let anchor: Fragment | undefined;
  for (const fragment of sorted) {
    if (anchor && onOneBaseline(anchor, fragment)) {
      fragments.push(fragment);
      if (fragment.size > anchor.size) anchor = fragment;
      continue;
    }
    if (anchor) bands.push({ pieces: piecesOf(fragments), center: center(anchor), size: anchor.size, stacked: false });
    fragments = [fragment];
    anchor = fragment;
  }
  if (anchor) bands.push({ pieces: piecesOf(fragments), center: center(anchor), size: anchor.size, stacked: false });
  return bands;
}

const leftOf = (band: Band) => band.pieces[0].left;
const rightOf = (band: Band) => band.pieces[band.pieces.length - 1].right;

/** Whether two bands lie mostly across the same width: a formula's rows do; lines of two columns, side by side, do not. */
function nested(a: Band, b: Band): boolean {
  const overlap = Math.min(rightOf(a), rightOf(b)) - Math.max(leftOf(a), leftOf(b));
  return overlap >= 0.5 * Math.min(rightOf(a) - leftOf(a), rightOf(b) - leftOf(b));
}

/** Rows closer than this many glyph heights are one formula's rows; lines of text are at least a glyph height apart. */
const STACK = 0.75;

/**
 * A column's bands with a formula's rows made one band: a display fraction's numerator and
 * denominator sit closer to its main row than any two lines of text, and read in rows they
 * come apart (the left side between the numerator and the denominator, or cells of a table).
 */
function stackFormulas(bands: readonly Band[]): Band[] {
  const stacked: Band[] = [];
  // Where the last row sits, as the lower of its two readings (see rowMiddle).
  let lastRow = -Infinity;
  for (const band of bands) {
    const previous = stacked[stacked.length - 1];
    const row = rowMiddle(band);
    if (previous && Math.min(row, band.center) - lastRow < STACK * Math.max(previous.size, band.size) && nested(previous, band)) {
      const fragments: Fragment[] = [];
      for (const piece of previous.pieces) for (const f of piece.fragments) fragments.push(f);
      for (const piece of band.pieces) for (const f of piece.fragments) fragments.push(f);
      previous.pieces = piecesOf(fragments);
      if (band.size > previous.size) [previous.center, previous.size] = [band.center, band.size];
      previous.stacked = true;
    } else {
      stacked.push(band);
    }
    lastRow = Math.max(row, band.center);
  }
  return stacked;
}

/**
 * Where a band's row sits by most of its glyphs of its own size: their middle. The band's anchor
 * (its first largest glyph) says where it sits too, and the two differ only in a formula, where a
 * big operator's or a radical's box lies far from its ink: two rows are as close as the nearer of
 * the two readings, else such a box would set a fraction's numerator a line away from its row.
 */
function rowMiddle(band: Band): number {
  // A line of text's glyphs sit on one baseline: nothing to sort (every line of a book asks).
  let [low, high] = [Infinity, -Infinity];
  for (const piece of band.pieces) {
    for (const f of piece.fragments) {
      if (f.size < 0.85 * band.size) continue;
      low = Math.min(low, center(f));
      high = Math.max(high, center(f));
    }
  }
  if (high - low < 0.1 * band.size) return band.center;
  const middles: number[] = [];
  for (const piece of band.pieces) for (const f of piece.fragments) if (f.size >= 0.85 * band.size) middles.push(center(f));
  middles.sort(ascending);
  return middles[middles.length >> 1];
}

/**
 * Bands of each column apart, in one list by height: a fragment belongs to the side of each gutter
 * whose run it is in (or to the full width across it), and fragments of one side are banded together.
 */
function bandsByColumn(sorted: readonly Fragment[], gutters: readonly Gutter[]): Band[] {
  const columns = new Map<string, Fragment[]>();
  for (const fragment of sorted) {
    const y = center(fragment);
    let key = "";
    for (const g of gutters) {
      if (y < g.top || y > g.bottom) key += "-";
      else if (fragment.left < g.from && fragment.right > g.to) key += "=";
      else key += (fragment.left + fragment.right) / 2 < (g.from + g.to) / 2 ? "<" : ">";
    }
    const column = columns.get(key);
    if (column) column.push(fragment);
    else columns.set(key, [fragment]);
  }
  const bands: Band[] = [];
  for (const column of columns.values()) for (const band of stackFormulas(bandsOf(column))) bands.push(band);
  return sortedBy(bands, byCenter);
}

/** Where the page's text starts and ends, across: a piece of prose is at least a fifth as wide. */
function textExtent(bands: readonly Band[]): [number, number] {
  let textLeft = Infinity;
  let textRight = -Infinity;
  for (const band of bands) {
    textLeft = Math.min(textLeft, band.pieces[0].left);
    textRight = Math.max(textRight, band.pieces[band.pieces.length - 1].right);
  }
  return [textLeft, textRight];
}

/** Whether a piece is running prose rather than a table cell, a label or a number. */
function isProse(piece: Piece, wide: number): boolean {
  if (piece.right - piece.left < wide) return false;
  let words = 0;
  let characters = 0;
  let reach = -Infinity;
  for (const fragment of piece.fragments) {
    const text = fragment.text;
    for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 32 && i > 0 && text.charCodeAt(i - 1) !== 32) words++;
    // A fragment set close against the one before goes on with its word: a formula's runs of
    // digits, letters and Greek are drawn as fragments that touch, and are no words of prose.
    if (fragment.left - reach > WORD_GAP * fragment.size || text.charCodeAt(0) === 32) words++;
    reach = Math.max(reach, fragment.right);
    characters += text.length;
  }
  // Words of a few letters each: a letter-spaced title's letters are fragments, not words.
  return words >= PROSE_WORDS && characters >= 2.5 * words;
}

/** A display equation's number, "(4)", "(6b)", "(B2a)": set beside its equation, not a table's cell. */
const EQUATION_NUMBER = /^\(\s*[A-Z]?\d{1,3}[a-z]?\s*\)[.,]?$/;

function isEquationNumber(piece: Piece): boolean {
  let text = "";
  for (const fragment of piece.fragments) text += fragment.text;
  return EQUATION_NUMBER.test(text.trim());
}

/** A gutter being followed down the page, band by band. */
interface Run {
  from: number;
  to: number;
  first: number;
  last: number;
  proseLeft: number;
  proseRight: number;
  /**
   * The first band with prose beside the run: the columns start there (an author grid above them
   * is no column). They end with the run: under them a page number or a full-width part ends it.
   */
  firstProse: number;
  /** Where the column right of the gutter starts: the least left edge of its lines. */
  columnStart: number;
  /** Whether text stood on both sides of it yet: until then it is the empty page beside one column, not a gutter. */
  flanked: boolean;
}

/**
 * The gutters between text columns (the first stage of reading a page: columns before lines,
 * blocks and tables). A gutter is a vertical band that no piece of text crosses for a run of
 * lines, with prose beside it on both sides in several of them: two justified or ragged columns,
 * also where they start below a full-width title or abstract, which ends the run above them.
 * The cells of a table leave such bands too, but short cells, labels and numbers are not prose,
 * so a table keeps its rows whole.
 */
function findGutters(bands: readonly Band[]): Gutter[] {
  if (bands.length < PROSE_LINES) return [];
  const [textLeft, textRight] = textExtent(bands);
  const wide = 0.2 * (textRight - textLeft);
  const gutters: Gutter[] = [];
  let runs: Run[] = [];
  for (let index = 0; index < bands.length; index++) {
    const band = bands[index];
    const pieces = band.pieces;
    const least = GUTTER_WIDTH * band.size;
    const next: Run[] = [];
    // Empty page across both columns (a running head's margin above them, a wide figure) parts
    // what is above from what is below: the columns, if any, start again under it; unless it is
    // only a pause in established columns, or one column going on under it (an appendix under
    // the references on a last page whose other column ended higher): that is read before the
    // column beside it.
    const blank = blankAbove(bands, index);
    for (const run of runs) {
      const apart = blank > BLANK_ACROSS && !(blank <= PAUSE && established(run) && !reachesInto(pieces, run)) && !(established(run) && columnGoesOn(bands, index, run, wide));
      // Text standing in the gutter itself (a page number under the columns) ends it, and so does
      // a foot line across them.
      if (apart || (established(run) && (standsIn(pieces, run) || footLine(bands, index, run, textLeft, textRight)))) {
        endRun(run, bands, gutters);
        continue;
      }
      // The empty stretch of this band that overlaps the run most (between two pieces, or beside them all).
      let [from, to, left, right] = [run.from, run.to, -1, -1];
      let found = false;
      for (let i = 0; i <= pieces.length; i++) {
        const gapFrom = i === 0 ? -Infinity : pieces[i - 1].right;
        const gapTo = i === pieces.length ? Infinity : pieces[i].left;
        const a = Math.max(run.from, gapFrom);
        const z = Math.min(run.to, gapTo);
        if (z - a >= least && (!found || z - a > to - from)) [from, to, left, right, found] = [a, z, i - 1, i, true];
      }
      if (!found) {
        // A line that runs into the gutter (an overfull line of code, a long address) still
        // leaves the other column's line starting where that column starts.
        if (!splitAtColumnStart(band, run.columnStart)) endRun(run, bands, gutters);
        else next.push(run);
        continue;
      }
      if (!run.flanked && left >= 0 && right < pieces.length) {
        // Text on both sides at last: the gutter is this gap, not the empty page the run had beside one column.
        [from, to] = [pieces[left].right, pieces[right].left];
        run.flanked = true;
      }
      run.from = from;
      run.to = to;
      run.last = index;
      const proseLeft = left >= 0 && isProse(pieces[left], wide);
      const proseRight = right < pieces.length && isProse(pieces[right], wide);
      if (proseLeft) run.proseLeft++;
      if (proseRight) run.proseRight++;
      if ((proseLeft || proseRight) && run.firstProse < 0) run.firstProse = index;
      if (right < pieces.length) run.columnStart = Math.min(run.columnStart, pieces[right].left);
      next.push(run);
    }
    // A gap between two pieces that no run follows yet may start one, and so may the empty page
    // beside a band's pieces: one column may start lower than the other (under a figure).
    for (let i = 0; i <= pieces.length; i++) {
      const from = i === 0 ? textLeft : pieces[i - 1].right;
      const to = i === pieces.length ? textRight : pieces[i].left;
      if (to - from < least || acrossRuns(next, from, to)) continue;
      const proseLeft = i > 0 && isProse(pieces[i - 1], wide) ? 1 : 0;
      const proseRight = i < pieces.length && isProse(pieces[i], wide) ? 1 : 0;
      const firstProse = proseLeft + proseRight > 0 ? index : -1;
      const flanked = i > 0 && i < pieces.length;
      next.push({ from, to, first: index, last: index, proseLeft, proseRight, firstProse, columnStart: to, flanked });
    }
    runs = next;
  }
  for (const run of runs) endRun(run, bands, gutters);
  return gutters;
}

/**
 * Cuts a piece of `band` in two where one of its fragments starts at `columnStart` (within a
 * point) after a gap: the piece ran across a gutter only because the line before the gap ran into
 * it. Whether it found such a place.
 */
function splitAtColumnStart(band: Band, columnStart: number): boolean {
  for (let p = 0; p < band.pieces.length; p++) {
    const piece = band.pieces[p];
    if (!(piece.left < columnStart - 1 && piece.right > columnStart)) continue;
    const fragments = sortedBy(piece.fragments, byLeft);
    for (let k = 1; k < fragments.length; k++) {
      const before = fragments[k - 1];
      const after = fragments[k];
      if (Math.abs(after.left - columnStart) > 1 || after.left - before.right < WORD_GAP * after.size) continue;
      let right = -Infinity;
      for (let i = 0; i < k; i++) right = Math.max(right, fragments[i].right);
      band.pieces.splice(p, 1, { fragments: fragments.slice(0, k), left: piece.left, right }, { fragments: fragments.slice(k), left: after.left, right: piece.right });
      return true;
    }
  }
  return false;
}

/**
 * Whether one of `pieces` lies within the run's empty band (a point either side allowed) and fills
 * a good part of it, as a page number fills a gutter. A sign of an equation in a run still wider
 * than the gutter it will narrow to only narrows it.
 */
function standsIn(pieces: readonly Piece[], run: Run): boolean {
  for (const piece of pieces) if (piece.left >= run.from - 1 && piece.right <= run.to + 1 && piece.right - piece.left >= 0.25 * (run.to - run.from)) return true;
  return false;
}

/** The empty page between `bands[index]` and the band above it, in glyph heights. */
function blankAbove(bands: readonly Band[], index: number): number {
  if (index === 0) return 0;
  const [above, band] = [bands[index - 1], bands[index]];
  return (band.center - band.size / 2 - (above.center + above.size / 2)) / Math.max(band.size, above.size);
}

/**
 * Whether the lines from `bands[index]` down to the next blank across the page all stand on one
 * side of the run's gutter, with prose among them: one column's text going on under a blank.
 */
function columnGoesOn(bands: readonly Band[], index: number, run: Run, wide: number): boolean {
  let side = 0;
  let prose = false;
  for (let i = index; i < bands.length; i++) {
    if (i > index && blankAbove(bands, i) > BLANK_ACROSS) break;
    for (const piece of bands[i].pieces) {
      const here = piece.right <= run.from ? -1 : piece.left >= run.to ? 1 : 0;
      if (here === 0 || (side !== 0 && here !== side)) return false;
      side = here;
      prose ||= isProse(piece, wide);
    }
  }
  return prose;
}

/** Whether one of `pieces` reaches into the run's empty band. */
function reachesInto(pieces: readonly Piece[], run: Run): boolean {
  for (const piece of pieces) if (piece.left < run.to && piece.right > run.from) return true;
  return false;
}

/** How far, in glyph heights, a foot line's halves keep from the gutter on either side. */
const FOOT_APART = 2;

/**
 * Whether the band is the page's foot line across its columns ("Preprint submitted to Elsevier …
 * June 8, 2018"): its last, from the text's left edge to its right edge, its halves far from the
 * run's gutter on both sides, where the columns' lines end at it and start at it.
 */
function footLine(bands: readonly Band[], index: number, run: Run, textLeft: number, textRight: number): boolean {
  const band = bands[index];
  if (index !== bands.length - 1 || band.pieces.length < 2 || leftOf(band) > textLeft + 1 || rightOf(band) < textRight - 1) return false;
  const apart = FOOT_APART * band.size;
  for (const piece of band.pieces) if (piece.right > run.from - apart && piece.left < run.to + apart) return false;
  return true;
}

/**
 * Whether prose has lined both sides of the run in enough lines to make it a gutter. Until then a
 * line inside it (a footnote under a footnote mark, a caption beside the empty page under a
 * figure) only narrows it.
 */
const established = (run: Run) => run.proseLeft >= PROSE_LINES && run.proseRight >= PROSE_LINES;

/** Whether a gap from `from` to `to` overlaps one of `runs`. */
function acrossRuns(runs: readonly Run[], from: number, to: number): boolean {
  for (const run of runs) if (from < run.to && to > run.from) return true;
  return false;
}

/** How many lines above a column's first line of prose may still be its own: its heading's. */
const HEADING_LINES = 2;

/**
 * The first band of a run's columns: its first band with prose beside it, or a heading's line or
 * two right over that band (as close as a paragraph's lines) that the run already parted, set on
 * the same baseline as the other column's heading. An author grid stands further off, and stays
 * front matter.
 */
function columnsFirstBand(run: Run, bands: readonly Band[]): number {
  let first = run.firstProse;
  while (first > run.first && run.firstProse - first < HEADING_LINES) {
    if (blankAbove(bands, first) > PARAGRAPH_GAP) break;
    first--;
  }
  return first;
}

/**
 * The first band of the columns above the run's, if they go on up: bands that leave the gutter
 * empty, with the right column's text (a table set in it, beside a plot's tick labels in the
 * left) starting where that column starts, and no blank across the page between them; and over
 * them, the line or two of that text's heading (a table's caption).
 */
function columnsAbove(run: Run, bands: readonly Band[], first: number): number {
  let top = first;
  let headings = 0;
  for (let index = first - 1; index >= 0 && headings < HEADING_LINES; index--) {
    const band = bands[index];
    if (blankAbove(bands, index + 1) > BLANK_ACROSS) break;
    let right: Piece | undefined;
    for (const piece of band.pieces) {
      if (piece.left < run.to && piece.right > run.from) return top;
      if (!right && piece.left >= run.to) right = piece;
    }
    if (right && Math.abs(right.left - run.to) > 1) {
      // Only over the right column's text that goes on up: not an author grid over the columns.
      if (top === first) break;
      headings++;
    }
    if (right) top = index;
  }
  return top;
}

/** A run that ended: a gutter when prose lines its both sides. */
function endRun(run: Run, bands: readonly Band[], gutters: Gutter[]): void {
  if (!established(run)) return;
  const [first, last] = [bands[columnsAbove(run, bands, columnsFirstBand(run, bands))], bands[run.last]];
  gutters.push({ from: run.from, to: run.to, top: first.center - first.size / 2, bottom: last.center + last.size / 2 });
}

/** Whether the gap from `from` to `to` in the band at height `y` runs into a column gutter. */
function acrossGutter(gutters: readonly Gutter[], from: number, to: number, y: number): boolean {
  for (const g of gutters) if (from <= g.to && to >= g.from && y >= g.top && y <= g.bottom) return true;
  return false;
}

/** A letter or a digit: a table's row holds some, a formula's big delimiters' pieces none. */
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;
/** A big operator (∑ ∏ ∫ ⋃ …) or a letter of the mathematical alphabets (𝑥, 𝜋): a formula's. */
const FORMULA_SIGN = /[\u220F-\u2211\u222B-\u2233\u22C0-\u22C3\u2A00-\u2A1C\u{1D400}-\u{1D7FF}]/u;
/** Two letters in a row, not of the mathematical alphabets: a word. */
const WORD = /[^\P{L}\u{1D400}-\u{1D7FF}]{2}/u;

/**
 * Whether a band is a formula's row rather than a table's: only the pieces of big delimiters, or
 * a big operator or a mathematical letter with no word (the limits over and under a sum).
 */
function formulaRow(band: Band): boolean {
  let letterOrDigit = false;
  let sign = false;
  for (const piece of band.pieces) {
    for (const fragment of piece.fragments) {
      if (WORD.test(fragment.text)) return false;
      letterOrDigit ||= LETTER_OR_DIGIT.test(fragment.text);
      sign ||= FORMULA_SIGN.test(fragment.text);
    }
  }
  return sign || !letterOrDigit;
}

/** How far apart, in glyph heights, the right edges of a justified paragraph's lines may be. */
const JUSTIFIED = 0.2;

/**
 * Whether the band is a line of a justified paragraph: right above or below it, as close as a
 * paragraph's lines and of a similar size, is a line of prose in one piece ending where it ends.
 * Its wide gaps are spaces a long word in the next line stretched, not a table's columns.
 */
function inParagraph(bands: readonly Band[], index: number, wide: number): boolean {
  const band = bands[index];
  for (let n = Math.max(0, index - 4); n < Math.min(bands.length, index + 5); n++) {
    const other = bands[n];
    if (other === band || other.pieces.length !== 1) continue;
    const [upper, lower] = other.center < band.center ? [other, band] : [band, other];
    const gap = lower.center - lower.size / 2 - (upper.center + upper.size / 2);
    const size = Math.max(band.size, other.size);
    const similar = size / Math.min(band.size, other.size) < 1.3;
    if (similar && gap > -0.5 * size && gap < PARAGRAPH_GAP * size && Math.abs(rightOf(other) - rightOf(band)) < JUSTIFIED * size && isProse(other.pieces[0], wide)) return true;
  }
  return false;
}

/** Whether a band may be a table's row: no formula's (its stacked rows, or a row of its own), nor a justified paragraph's line. */
const mayBeRow = (bands: readonly Band[], index: number, wide: number) => !bands[index].stacked && !formulaRow(bands[index]) && !inParagraph(bands, index, wide);

/**
 * Where the gaps of a band's neighbours (rows above and below that may be a table's, but not
 * across a gutter) lie, as [right of one piece, left of the next].
 */
function neighbourGaps(bands: readonly Band[], index: number, gutters: readonly Gutter[], wide: number): [number, number][] {
  const band = bands[index];
  const zones: [number, number][] = [];
  for (let n = Math.max(0, index - 4); n < Math.min(bands.length, index + 5); n++) {
    const neighbour = bands[n];
    if (neighbour === band || neighbour.pieces.length < 2 || !(Math.abs(neighbour.center - band.center) < 2.5 * Math.max(neighbour.size, band.size))) continue;
    if (!mayBeRow(bands, n, wide)) continue;
    for (let i = 1; i < neighbour.pieces.length; i++) {
      const [from, to] = [neighbour.pieces[i - 1].right, neighbour.pieces[i].left];
      if (!acrossGutter(gutters, from, to, neighbour.center)) zones.push([from, to]);
    }
  }
  return zones;
}

/** Whether a gap from `from` to `to` shares a good part of one of `zones` (a table column's gap). */
function sharesZone(zones: readonly [number, number][], from: number, to: number, size: number): boolean {
  for (const [a, z] of zones) if (Math.min(z, to) - Math.max(a, from) >= Math.min(0.5 * Math.min(z - a, to - from), 1.5 * size)) return true;
  return false;
}

/** How much larger than the body's text a title is. */
const TITLE_SIZE = 1.4;

/**
 * Where a paper's front matter lies: under its title (text far larger than the body's) and above
 * its columns. A grid there is its authors', one stack of lines per author; empty when the page
 * has no such title over columns.
 */
function frontMatter(bands: readonly Band[], gutters: readonly Gutter[]): [number, number] {
  if (gutters.length === 0) return [0, 0];
  let columnsTop = Infinity;
  for (const g of gutters) columnsTop = Math.min(columnsTop, g.top);
  const sizes: number[] = [];
  for (const band of bands) sizes.push(band.size);
  sizes.sort(ascending);
  const body = sizes[sizes.length >> 1];
  let title: Band | undefined;
  for (const band of bands) if (band.center < columnsTop && band.size >= TITLE_SIZE * body && (!title || band.size > title.size)) title = band;
  return title ? [title.center, columnsTop] : [0, 0];
}

/**
 * Groups fragments into lines: same baseline band; a band is cut where it crosses a column gutter
 * or where prose stands beside prose (two columns are never a table's cells), and elsewhere its
 * pieces stay one line, joined as table cells where the same gap opens in the row above or below
 * (a table column), else by a space (a wide justified space, a header's halves). The gutters go
 * with the lines: reading order follows them.
 */
export function groupLines(input: Fragment[]): { lines: Line[]; gutters: Gutter[] } {
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
  const firstBands = bandsOf(sorted);
  const gutters = findGutters(firstBands);
  // Columns whose baselines do not line up (REVTeX's) share bands only by chance: once the
  // gutters are known, each column's lines are banded on their own.
  const bands = gutters.length === 0 ? stackFormulas(firstBands) : bandsByColumn(sorted, gutters);
  const [textLeft, textRight] = textExtent(bands);
  const wide = 0.2 * (textRight - textLeft);
  const [gridTop, gridBottom] = frontMatter(bands, gutters);

  // Loops and functions of the module, not closures made for each page: V8 drops a closure's
  // optimized code with the closure, and compiled these again for every document (decision 225).
  const lines: Line[] = [];
  for (let index = 0; index < bands.length; index++) {
    const band = bands[index];
    // A band in one piece (most lines of prose) has no gap to weigh.
    const drawn = band.stacked ? fragments : undefined;
    if (band.pieces.length === 1) {
      lines.push(makeLine(band.pieces[0].fragments, [], drawn));
      continue;
    }
    // Rows above and below; the other column's lines may sit between them on their own baselines.
    const zones = mayBeRow(bands, index, wide) ? neighbourGaps(bands, index, gutters, wide) : [];
    let current: Fragment[] = [];
    let cells: number[] = [];
    for (let i = 0; i < band.pieces.length; i++) {
      const piece = band.pieces[i];
      if (i > 0) {
        const from = band.pieces[i - 1].right;
        const to = piece.left;
        if (acrossGutter(gutters, from, to, band.center) || (isProse(band.pieces[i - 1], wide) && isProse(piece, wide))) {
          lines.push(makeLine(current, cells, drawn));
          current = [];
          cells = [];
        } else if (band.center > gridTop && band.center < gridBottom && sharesZone(zones, from, to, band.size)) {
          // An author grid: each author's name, affiliation and address are read together, as a block.
          lines.push(makeLine(current, [], drawn));
          current = [];
        } else if (sharesZone(zones, from, to, band.size) && !(band.pieces.length === 2 && isEquationNumber(piece))) {
          // A table column leaves the same gap in the next row (centred headers over left-aligned
          // cells share a good part of it); two wide justified spaces rarely line up.
          cells.push((from + to) / 2);
        }
      }
      for (const fragment of piece.fragments) current.push(fragment);
    }
    if (current.length > 0) lines.push(makeLine(current, cells, drawn));
  }
  for (const line of vertical) lines.push(line);
  return { lines, gutters };
}

/** Whether `line` lies beside gutter `g`, in one of its columns, and `other` spans it (a full-width part above or below the columns). */
function besideWhereOtherSpans(line: Line, other: Line, g: Gutter): boolean {
  const y = center(line);
  return y >= g.top && y <= g.bottom && (line.right <= g.to || line.left >= g.from) && other.left < g.from && other.right > g.to;
}

/**
 * Whether `line` continues `block`: right under its last line, close, overlapping it and of similar
 * size, and not a column's line under a full-width part (or the other way round).
 */
function continuesBlock(block: Block, line: Line, gutters: readonly Gutter[]): boolean {
  const last = block.lines[block.lines.length - 1];
  for (const g of gutters) if (besideWhereOtherSpans(line, last, g) || besideWhereOtherSpans(last, line, g)) return false;
  const gap = line.top - last.bottom;
  const overlap = Math.min(line.right, last.right) - Math.max(line.left, last.left);
  const similar = Math.max(line.size, last.size) / Math.min(line.size, last.size) < 1.3;
  return gap > -0.5 * line.size && gap < PARAGRAPH_GAP * line.size && overlap > 0 && similar;
}

/** Joins lines into blocks: a line continues the block right above it when close, overlapping and of similar size. */
export function groupBlocks(lines: Line[], gutters: readonly Gutter[] = []): Block[] {
  const blocks: Block[] = [];
  const sorted = sortedBy(lines, byTopThenLeft);
  for (const line of sorted) {
    let target: Block | undefined;
    for (const block of blocks) {
      if (continuesBlock(block, line, gutters)) {
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

/**
 * The widest empty band across all boxes, from top to bottom (`down`: from left to right), if any.
 * A band across the page inside a gutter's run is taken only when there is no other: there the
 * columns merely happen to pause at the same height (a heading's space in each), and cutting
 * would read the upper halves of both columns before their lower halves.
 */
function widestGap(blocks: Block[], down: boolean, gutters: readonly Gutter[]): Gap | undefined {
  const sorted = sortedBy(blocks, down ? byLeft : byTop);
  let best: Gap | undefined;
  let bestInColumns: Gap | undefined;
  let reach = down ? sorted[0].right : sorted[0].bottom;
  for (let i = 1; i < sorted.length; i++) {
    const block = sorted[i];
    const gap = (down ? block.left : block.top) - reach;
    if (gap > 0) {
      const at = reach + gap / 2;
      if (!down && withinColumns(gutters, at)) {
        if (!bestInColumns || gap > bestInColumns.size) bestInColumns = { at, size: gap };
      } else if (!best || gap > best.size) best = { at, size: gap };
    }
    reach = Math.max(reach, down ? block.right : block.bottom);
  }
  return best ?? bestInColumns;
}

/** Whether x `x` lies in a gutter: a cut there parts columns that the lines showed, however narrow the gap between their blocks. */
function atGutter(gutters: readonly Gutter[], x: number): boolean {
  for (const g of gutters) if (x >= g.from - 1 && x <= g.to + 1) return true;
  return false;
}

/** Whether height `y` lies inside the run of a gutter, between columns that go on above and below it. */
function withinColumns(gutters: readonly Gutter[], y: number): boolean {
  for (const g of gutters) if (y > g.top && y < g.bottom) return true;
  return false;
}

/** Whether columns among `blocks` end above height `y`. */
function columnsEndAbove(blocks: readonly Block[], gutters: readonly Gutter[], y: number): boolean {
  let top = Infinity;
  for (const block of blocks) top = Math.min(top, block.top);
  for (const g of gutters) if (g.bottom <= y && g.bottom > top) return true;
  return false;
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
export function readingOrder(blocks: Block[], gutters: readonly Gutter[] = []): Block[] {
  if (blocks.length <= 1) return blocks;
  const across = widestGap(blocks, false, gutters);
  const down = widestGap(blocks, true, gutters);
  // A column gutter wins over a wider horizontal gap: where one column ends early, the space under
  // it lines up with a heading's space in the other, and cutting across there would interleave them.
  // Not under the end of these blocks' columns: what lies below (the references, set in two
  // columns of their own) is read after both.
  const partsApart = across !== undefined && columnsEndAbove(blocks, gutters, across.at);
  if (down && !partsApart && (!across || down.size > across.size || down.size >= GUTTER || atGutter(gutters, down.at))) {
    const [first, second] = cutAt(blocks, down.at, true);
    return [...readingOrder(first, gutters), ...readingOrder(second, gutters)];
  }
  if (across) {
    const [first, second] = cutAt(blocks, across.at, false);
    return [...readingOrder(first, gutters), ...readingOrder(second, gutters)];
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
export function pageBlocks(fragments: Fragment[]): Block[] {
  const { lines, gutters } = groupLines(fragments);
  return readingOrder(groupBlocks(lines, gutters), gutters);
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
  const blocks = pageBlocks(fragments);
  dehyphenateBlocks(blocks, vocabulary);
  return renderBlocks(blocks, displayWidth, displayHeight, blockIdPrefix);
}
