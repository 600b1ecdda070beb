/**
 * Running headers, footers and page numbers: lines at the top or bottom edge of a page that recur,
 * give or take the page number, on several pages. They are furniture, not content, and are kept
 * out of the page text (and so out of passages and answers).
 */
import type { Block, Line } from "#infrastructure/extraction/layout";

export interface PageLines {
  blocks: Block[];
  height: number;
}

/** Share of the page height, from the top or the bottom, where running lines sit. */
const EDGE = 0.12;
/** How many edge lines from the top and from the bottom are candidates. */
const PER_EDGE = 2;

/** What stays the same from page to page: lower case, every number (arabic or roman) as "#". */
export function runningSignature(text: string): string {
  const lower = text.toLowerCase().trim();
  // A roman page number stands alone ("xii"); inside a line those letters are words ("mild").
  if (/^[ivxlcdm]+$/.test(lower)) return "#";
  return lower
    .replace(/\d+/g, "#")
    .replace(/[^\p{L}#]+/gu, " ")
    .trim();
}

function edgeLines(page: PageLines): Line[] {
  const lines = page.blocks.flatMap((b) => b.lines).sort((a, b) => a.top - b.top);
  const top = lines.filter((l) => l.bottom <= page.height * EDGE).slice(0, PER_EDGE);
  const bottom = lines.filter((l) => l.top >= page.height * (1 - EDGE)).slice(-PER_EDGE);
  return [...new Set([...top, ...bottom])];
}

/**
 * Removes running lines from every page, in place, and returns how many lines each page lost.
 * A line is running when its signature is found at a page edge on at least three pages (every
 * page of a two-page document), or when it is only a page number at an edge.
 */
export function removeRunningLines(pages: PageLines[]): number[] {
  const candidates = pages.map(edgeLines);
  const pagesWith = new Map<string, number>();
  for (const lines of candidates) {
    for (const signature of new Set(lines.map((l) => runningSignature(l.text)))) {
      pagesWith.set(signature, (pagesWith.get(signature) ?? 0) + 1);
    }
  }
  const needed = Math.min(3, pages.length);
  const isPageNumber = (signature: string) => /^(page )?#( of #)?$/.test(signature);
  return pages.map((page, index) => {
    if (pages.length < 2) return 0;
    const running = new Set(
      candidates[index].filter((l) => {
        const signature = runningSignature(l.text);
        return signature !== "" && ((pagesWith.get(signature) ?? 0) >= needed || isPageNumber(signature));
      }),
    );
    if (running.size === 0) return 0;
    page.blocks = page.blocks
      .map((block) => ({ ...block, lines: block.lines.filter((l) => !running.has(l)) }))
      .filter((block) => block.lines.length > 0)
      .map((block) => ({
        ...block,
        left: Math.min(...block.lines.map((l) => l.left)),
        top: Math.min(...block.lines.map((l) => l.top)),
        right: Math.max(...block.lines.map((l) => l.right)),
        bottom: Math.max(...block.lines.map((l) => l.bottom)),
      }));
    return running.size;
  });
}
