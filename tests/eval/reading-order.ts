/**
 * Reading order measured against poppler's own (ARCHITECTURE §6, issue #41): the share of the
 * 8-word sequences of `pdftotext FILE -` (or of `pdftotext -raw`, whichever scores better) that the
 * stored text also holds. Only words of two or more letters count, and a hyphen between letters is
 * read as no hyphen on both sides, so rejoining "crys-" / "tals" is neither rewarded nor punished.
 */
import { execFileSync } from "node:child_process";

const SEQUENCE = 8;

/** The words the measure reads, lower-cased, hyphens between letters (also across a line end) dropped. */
export function measuredWords(text: string): string[] {
  const joined = text.replace(/(\p{L})-\s*\n\s*(\p{L})/gu, "$1$2").replace(/(\p{L})-(\p{L})/gu, "$1$2");
  return joined.toLowerCase().match(/\p{L}{2,}/gu) ?? [];
}

function sequences(words: readonly string[]): Set<string> {
  const found = new Set<string>();
  for (let i = 0; i + SEQUENCE <= words.length; i++) found.add(words.slice(i, i + SEQUENCE).join(" "));
  return found;
}

/** The share (0–1) of `reference`'s 8-word sequences that `stored` holds. */
export function sequenceShare(reference: string, stored: string): number {
  return heldShare(reference, sequences(measuredWords(stored)));
}

function heldShare(reference: string, held: ReadonlySet<string>): number {
  const expected = sequences(measuredWords(reference));
  if (expected.size === 0) return 1;
  let kept = 0;
  for (const sequence of expected) if (held.has(sequence)) kept++;
  return kept / expected.size;
}

/** Poppler's reading order of a PDF file, in its two modes. */
export function popplerOrders(file: string): string[] {
  return [[], ["-raw"]].map((mode) => execFileSync("pdftotext", [...mode, "-enc", "UTF-8", file, "-"], { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 }));
}

/**
 * The better of poppler's two orders' shares for the stored pages' text (the figure), and
 * the same with only poppler's split LaTeX logo mended. `pdftotext -raw` sets the logo's raised,
 * smaller A on a line of its own ("L" / "ATEX", or "L" / "A" / "TEX"), so the measure reads the word
 * "atex" where we store "LATEX", as `pdftotext` without `-raw` prints it too: the mended figure is
 * what the share would be but for the logo, printed beside the figure, never in its place.
 */
export function readingOrderShares(file: string, storedPages: readonly string[]): { share: number; logoMended: number } {
  const held = sequences(measuredWords(storedPages.join("\n")));
  const orders = popplerOrders(file);
  const best = (references: string[]) => Math.max(...references.map((reference) => heldShare(reference, held)));
  return { share: best(orders), logoMended: best(orders.map(mendLatexLogo)) };
}

export const mendLatexLogo = (reference: string) => reference.replace(/\bL\s*\n\s*A\s*\n?\s*TEX/g, "LATEX");

/** Lines that hold the table-cell separator. */
export function cellLines(storedPages: readonly string[]): string[] {
  return storedPages.flatMap((text) => text.split("\n")).filter((line) => line.includes(" | "));
}

/**
 * Lines where prose stands on both sides of a cell separator: two columns' lines read as one, the
 * fault this measure was made for. Cells of a real table are short; an equation's are shorter.
 */
export function columnsJoined(storedPages: readonly string[]): string[] {
  const prose = (cell: string) => cell.trim().split(/\s+/).filter((word) => /\p{L}{2,}/u.test(word)).length >= 5;
  return cellLines(storedPages).filter((line) => {
    const cells = line.split(" | ");
    for (let i = 1; i < cells.length; i++) if (prose(cells[i - 1]) && prose(cells[i])) return true;
    return false;
  });
}
