/** Zoom and page rules (spec 001 §5) and the citation passage matcher. */

export const PDF_ZOOM = { min: 0.5, max: 5, step: 0.05 } as const;
export const TEXT_ZOOM = { min: 0.5, max: 5, step: 0.1 } as const;

export type ZoomRule = { min: number; max: number; step: number };

/** Rounds to the step grid (avoids 1.1500000000000001) and clamps to the range. */
export function clampZoom(value: number, rule: ZoomRule): number {
  if (!Number.isFinite(value)) return 1;
  const stepped = Math.round(value / rule.step) * rule.step;
  return Math.min(rule.max, Math.max(rule.min, Number(stepped.toFixed(4))));
}

export const stepZoom = (value: number, direction: 1 | -1, rule: ZoomRule) => clampZoom(value + direction * rule.step, rule);

/** Page input: an integer between 1 and the page count. */
export function clampPage(value: number, pageCount: number): number {
  const total = Math.max(1, Math.floor(pageCount) || 1);
  if (!Number.isFinite(value)) return 1;
  return Math.min(total, Math.max(1, Math.round(value)));
}

export const normaliseWords = (text: string): string[] =>
  text
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 0);

export type MatchableBlock = { id: string; text: string };

/**
 * The block(s) of a page that best match a cited passage, by normalised word
 * overlap: every block most of whose words are in the passage (a passage that
 * spans lines), else the single block with the best overlap, else none.
 */
export function matchBlocks<T extends MatchableBlock>(blocks: T[], passage: string): T[] {
  const wanted = new Set(normaliseWords(passage));
  if (wanted.size === 0) return [];
  const scored = blocks.map((block) => {
    const words = normaliseWords(block.text);
    const hits = words.filter((w) => wanted.has(w)).length;
    return { block, hits, words: words.length, precision: words.length ? hits / words.length : 0, dice: (2 * hits) / (words.length + wanted.size || 1) };
  });
  // A short block (a page number, a lone heading word) is only picked as the single best match.
  const spanning = scored.filter((s) => s.precision >= 0.6 && s.hits >= 3);
  if (spanning.length > 0) return spanning.map((s) => s.block);
  const best = scored.reduce<(typeof scored)[number] | null>((a, s) => (s.hits > 0 && (!a || s.dice > a.dice) ? s : a), null);
  return best && best.dice >= 0.2 ? [best.block] : [];
}

/** Where a passage sits in a page of plain text (case- and space-insensitive), for <mark>. */
export function findPassage(text: string, passage: string): { start: number; end: number } | null {
  const needle = passage.trim().replace(/\s+/g, " ").toLowerCase();
  if (!needle) return null;
  // Map a whitespace-collapsed lower-case copy back to the original offsets.
  const map: number[] = [];
  let flat = "";
  let lastSpace = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (/\s/.test(ch)) {
      if (lastSpace) continue;
      lastSpace = true;
      flat += " ";
    } else {
      lastSpace = false;
      flat += ch.toLowerCase();
    }
    map.push(i);
  }
  let at = flat.indexOf(needle);
  let length = needle.length;
  if (at < 0) {
    // Fall back to the longest leading run of the passage's words that appears.
    const words = needle.split(" ");
    for (let n = words.length - 1; n >= 3 && at < 0; n--) {
      const part = words.slice(0, n).join(" ");
      at = flat.indexOf(part);
      length = part.length;
    }
  }
  if (at < 0) return null;
  return { start: map[at], end: map[at + length - 1] + 1 };
}
