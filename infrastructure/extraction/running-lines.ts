/**
 * Running headers, footers and page numbers: lines at the top or bottom edge of a page that recur,
 * give or take the page number, on several pages. They are furniture, not content, and are kept
 * out of the page text (and so out of passages and answers).
 */
import { byTop, type Block, type Line } from "#infrastructure/extraction/layout";

export interface PageLines {
  blocks: Block[];
  height: number;
}

/** Share of the page height, from the top or the bottom, where running lines sit (books with wide margins put them 16 % in). */
const EDGE = 0.18;
/** How many edge lines from the top and from the bottom are candidates. */
const PER_EDGE = 2;

const ROMAN = /^m{0,3}(cm|cd|d?c{0,3})(xc|xl|l?x{0,3})(ix|iv|v?i{0,3})$/;

/**
 * What stays the same from page to page: the words, in lower case, without the page number
 * (arabic anywhere, roman at either end), so "xiv PREFACE" and "PREFACE xv" on facing pages match.
 */
export function runningSignature(text: string): string {
  return text
    .toLowerCase()
    .trim()
    .replace(/^[ivxlcdm]+\b|\b[ivxlcdm]+$/g, (token) => (ROMAN.test(token) ? " " : token))
    .replace(/\d+/g, " ")
    .replace(/[^\p{L}]+/gu, " ")
    .trim();
}

/** "12", "xiv", "- 12 -", "Page 12", "12 of 40": a line that is only a page number. */
export function isPageNumber(text: string): boolean {
  const m = /^[\s\-–—.]*(?:page\s+)?(\d+|[ivxlcdm]+)(?:\s+of\s+\d+)?[\s\-–—.]*$/i.exec(text);
  return m !== null && (/\d/.test(m[1]) || ROMAN.test(m[1].toLowerCase()));
}

/** The glyph size most of a page's characters are set in. */
function bodySize(page: PageLines): number {
  const chars = new Map<number, number>();
  for (const block of page.blocks) {
    for (const line of block.lines) {
      const size = Math.round(line.size * 2) / 2;
      chars.set(size, (chars.get(size) ?? 0) + line.text.length);
    }
  }
  let body = 0;
  let most = -1;
  // The first size to reach the most characters, as a stable sort by count would give.
  for (const [size, count] of chars) {
    if (count > most) [body, most] = [size, count];
  }
  return body;
}

/** A candidate line, the edge it sits at, and what it reads as alone and with its row. */
interface EdgeLine {
  line: Line;
  top: boolean;
  /** The line's own signature, then its row's when other edge lines stand beside it. */
  signatures: string[];
}

/**
 * Lines at the page's top and bottom edges set no larger than its body text: running heads are
 * small or body-sized, while a title repeated on several slides is larger and is content.
 */
function edgeLines(page: PageLines): EdgeLine[] {
  const top: Line[] = [];
  const bottom: Line[] = [];
  for (const block of page.blocks) {
    for (const line of block.lines) {
      if (line.bottom <= page.height * EDGE) top.push(line);
      if (line.top >= page.height * (1 - EDGE)) bottom.push(line);
    }
  }
  if (top.length === 0 && bottom.length === 0) return [];
  const body = bodySize(page);
  const small = (lines: Line[]) => lines.filter((line) => line.size <= body * 1.1 + 0.25);
  return [...withRows(small(top.sort(byTop).slice(0, PER_EDGE)), true), ...withRows(small(bottom.sort(byTop).slice(-PER_EDGE)), false)];
}

/**
 * A running head set in pieces ("Title" at the left, "Conference, 2018" at the right) can come
 * out of the layout as one line on one page and as two on the next, as the columns below it
 * decide: the row the pieces make, read left to right, is what recurs then.
 */
function withRows(lines: Line[], top: boolean): EdgeLine[] {
  return lines.map((line) => {
    const row = lines.filter((other) => Math.abs(other.top + other.bottom - line.top - line.bottom) / 2 < Math.max(other.size, line.size) / 2).sort((a, b) => a.left - b.left);
    const signatures = [runningSignature(line.text)];
    if (row.length > 1) signatures.push(runningSignature(row.map((piece) => piece.text).join(" ")));
    return { line, top, signatures };
  });
}

/**
 * Removes running lines from every page, in place, and returns how many lines each page lost.
 * A line is running when its signature (or its row's) is found at a page edge on at least three
 * pages (every page of a two-page document), or when it is only a page number at an edge. Facing
 * pages carry different heads, so a head of every other page (pages 3 and 5 of a paper whose first
 * page has none) is running too when the pages between carry running lines at the same edge. A
 * page whose every line would go keeps them all: what repeats there is the page's content (a
 * one-line slide, a short form), and removal must never empty a page that had text.
 */
export function removeRunningLines(pages: PageLines[]): number[] {
  if (pages.length < 2) return pages.map(() => 0);
  // Loops, not closures made for each document: V8 drops a closure's optimized code with the
  // closure, and compiled these again for every document (decision 225).
  const candidates: EdgeLine[][] = [];
  for (const page of pages) candidates.push(edgeLines(page));
  const pagesWith = new Map<string, number[]>();
  for (let index = 0; index < pages.length; index++) {
    const onPage = new Set<string>();
    for (const edge of candidates[index]) for (const signature of edge.signatures) if (signature !== "") onPage.add(signature);
    for (const signature of onPage) {
      const found = pagesWith.get(signature);
      if (found) found.push(index);
      else pagesWith.set(signature, [index]);
    }
  }
  const needed = Math.min(3, pages.length);
  const running = pages.map(() => new Set<Line>());
  for (let index = 0; index < pages.length; index++) {
    for (const edge of candidates[index]) {
      if (isPageNumber(edge.line.text) || edge.signatures.some((signature) => (pagesWith.get(signature)?.length ?? 0) >= needed)) running[index].add(edge.line);
    }
  }
  // Facing pages: a head of every other page, when each page between has a running line at the same edge.
  for (let index = 0; index < pages.length; index++) {
    for (const edge of candidates[index]) {
      if (!running[index].has(edge.line) && edge.signatures.some((signature) => onFacingPages(pagesWith.get(signature) ?? [], candidates, running, edge.top))) running[index].add(edge.line);
    }
  }
  const removed: number[] = [];
  for (let index = 0; index < pages.length; index++) {
    const page = pages[index];
    // A page whose every line would go keeps them all (see above).
    if (running[index].size === 0 || running[index].size === lineCount(page)) {
      removed.push(0);
      continue;
    }
    removeLines(page, running[index]);
    removed.push(running[index].size);
  }
  return removed;
}

/** Whether `found` (page indexes) are every other page, each gap page holding a running line at the same edge. */
function onFacingPages(found: readonly number[], candidates: readonly EdgeLine[][], running: readonly Set<Line>[], top: boolean): boolean {
  if (found.length < 2) return false;
  for (let i = 1; i < found.length; i++) {
    if (found[i] - found[i - 1] !== 2) return false;
    const between = found[i] - 1;
    if (!candidates[between].some((edge) => edge.top === top && running[between].has(edge.line))) return false;
  }
  return true;
}

function lineCount(page: PageLines): number {
  let count = 0;
  for (const block of page.blocks) count += block.lines.length;
  return count;
}

/** Takes `running` out of the page's blocks; a block left without lines goes. */
function removeLines(page: PageLines, running: ReadonlySet<Line>): void {
  const blocks: Block[] = [];
  for (const block of page.blocks) {
    const lines: Line[] = [];
    for (const line of block.lines) if (!running.has(line)) lines.push(line);
    // A block without a running line keeps its lines and its box (the box of those lines).
    if (lines.length === block.lines.length) {
      blocks.push(block);
      continue;
    }
    if (lines.length === 0) continue;
    let [left, top, right, bottom] = [Infinity, Infinity, -Infinity, -Infinity];
    for (const line of lines) {
      left = Math.min(left, line.left);
      top = Math.min(top, line.top);
      right = Math.max(right, line.right);
      bottom = Math.max(bottom, line.bottom);
    }
    blocks.push({ lines, left, top, right, bottom });
  }
  page.blocks = blocks;
}
