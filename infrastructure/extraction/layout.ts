/**
 * Page layout from positioned text fragments: fragments -> lines -> blocks (paragraph-like
 * groups) -> reading order. Works on display coordinates (origin top-left, page rotation
 * applied) so rotated pages read the way the user sees them.
 */
import type { LayoutBlock, LayoutBox } from "#application/ports/text-extraction";

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

interface Line {
  fragments: Fragment[];
  left: number;
  top: number;
  right: number;
  bottom: number;
  size: number;
  text: string;
}

interface Block {
  lines: Line[];
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/** A gap wider than this many glyph heights between fragments on one line separates columns or cells. */
const COLUMN_GAP = 1.5;
/** A gap wider than this fraction of a glyph height between fragments is a word space. */
const WORD_GAP = 0.15;
/** Lines at most this many glyph heights apart (bottom to top) belong to the same paragraph. */
const PARAGRAPH_GAP = 0.8;

const center = (f: { top: number; bottom: number }) => (f.top + f.bottom) / 2;

function sameSpot(a: Fragment, b: Fragment): boolean {
  // Fake bold is the same text drawn twice, a fraction of a point apart: keep it once.
  return a.text === b.text && Math.abs(a.left - b.left) < a.size * 0.3 && Math.abs(a.top - b.top) < a.size * 0.3;
}

function makeLine(fragments: Fragment[]): Line {
  const rtl = fragments.filter((f) => f.rtl).length * 2 > fragments.length;
  const ordered = [...fragments].sort((a, b) => (rtl ? b.right - a.right : a.left - b.left));
  let text = "";
  let previous: Fragment | undefined;
  for (const fragment of ordered) {
    if (previous) {
      const gap = rtl ? previous.left - fragment.right : fragment.left - previous.right;
      const spaced = /\s$/.test(text) || /^\s/.test(fragment.text);
      if (!spaced && gap > WORD_GAP * Math.min(previous.size, fragment.size)) text += " ";
    }
    text += fragment.text;
    previous = fragment;
  }
  return {
    fragments: ordered,
    left: Math.min(...ordered.map((f) => f.left)),
    top: Math.min(...ordered.map((f) => f.top)),
    right: Math.max(...ordered.map((f) => f.right)),
    bottom: Math.max(...ordered.map((f) => f.bottom)),
    size: Math.max(...ordered.map((f) => f.size)),
    text: text.replace(/\s+/g, " ").trim(),
  };
}

/** Groups fragments into line segments: same baseline band, split where a wide gap separates columns. */
export function groupLines(input: Fragment[]): Line[] {
  const fragments: Fragment[] = [];
  for (const f of input) {
    if (f.text.trim() === "") continue;
    // Fake bold draws its copy right after the original, so the last few fragments suffice.
    if (fragments.slice(-3).some((g) => sameSpot(f, g))) continue;
    fragments.push(f);
  }
  const vertical = fragments.filter((f) => !f.horizontal).map((f) => makeLine([f]));
  const sorted = fragments.filter((f) => f.horizontal).sort((a, b) => center(a) - center(b) || a.left - b.left);

  const bands: Fragment[][] = [];
  for (const fragment of sorted) {
    const band = bands[bands.length - 1];
    const anchor = band?.[0];
    if (anchor && Math.abs(center(fragment) - center(anchor)) < 0.5 * Math.min(anchor.size, fragment.size)) {
      band.push(fragment);
    } else {
      bands.push([fragment]);
    }
  }

  const lines: Line[] = [];
  for (const band of bands) {
    const byX = [...band].sort((a, b) => a.left - b.left);
    let segment: Fragment[] = [];
    let right = -Infinity;
    for (const fragment of byX) {
      if (segment.length > 0 && fragment.left - right > COLUMN_GAP * fragment.size) {
        lines.push(makeLine(segment));
        segment = [];
      }
      segment.push(fragment);
      right = Math.max(right, fragment.right);
    }
    if (segment.length > 0) lines.push(makeLine(segment));
  }
  return [...lines, ...vertical];
}

/** Joins lines into blocks: a line continues the block right above it when close, overlapping and of similar size. */
export function groupBlocks(lines: Line[]): Block[] {
  const blocks: Block[] = [];
  const sorted = [...lines].sort((a, b) => a.top - b.top || a.left - b.left);
  for (const line of sorted) {
    const target = blocks.find((block) => {
      const last = block.lines[block.lines.length - 1];
      const gap = line.top - last.bottom;
      const overlap = Math.min(line.right, last.right) - Math.max(line.left, last.left);
      const similar = Math.max(line.size, last.size) / Math.min(line.size, last.size) < 1.3;
      return gap > -0.5 * line.size && gap < PARAGRAPH_GAP * line.size && overlap > 0 && similar;
    });
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

/** The widest empty band across all boxes along one axis, if any. */
function widestGap(blocks: Block[], start: (b: Block) => number, end: (b: Block) => number): Gap | undefined {
  const sorted = [...blocks].sort((a, b) => start(a) - start(b));
  let best: Gap | undefined;
  let reach = end(sorted[0]);
  for (const block of sorted.slice(1)) {
    const gap = start(block) - reach;
    if (gap > 0 && (!best || gap > best.size)) best = { at: reach + gap / 2, size: gap };
    reach = Math.max(reach, end(block));
  }
  return best;
}

/**
 * Reading order by recursive XY-cut: split the page at the widest empty band, across (top part
 * first) or down (left part first), until no band is left; then top to bottom.
 */
export function readingOrder(blocks: Block[]): Block[] {
  if (blocks.length <= 1) return blocks;
  const across = widestGap(blocks, (b) => b.top, (b) => b.bottom);
  const down = widestGap(blocks, (b) => b.left, (b) => b.right);
  if (down && (!across || down.size > across.size)) {
    const first = blocks.filter((b) => b.right <= down.at);
    const second = blocks.filter((b) => b.right > down.at);
    return [...readingOrder(first), ...readingOrder(second)];
  }
  if (across) {
    const first = blocks.filter((b) => b.bottom <= across.at);
    const second = blocks.filter((b) => b.bottom > across.at);
    return [...readingOrder(first), ...readingOrder(second)];
  }
  return [...blocks].sort((a, b) => a.top - b.top || a.left - b.left);
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

/** Fragments of one page to its text (blocks separated by blank lines) and layout blocks. */
export function layoutPage(
  fragments: Fragment[],
  displayWidth: number,
  displayHeight: number,
  blockIdPrefix: string,
): { text: string; blocks: LayoutBlock[] } {
  const ordered = readingOrder(groupBlocks(groupLines(fragments)));
  const blocks = ordered.map((block, index) => ({
    id: `${blockIdPrefix}-b${index + 1}`,
    text: block.lines.map((l) => l.text).join("\n"),
    box: scaleBox(block, displayWidth, displayHeight),
  }));
  return { text: blocks.map((b) => b.text).join("\n\n"), blocks };
}
