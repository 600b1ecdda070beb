import { describe, expect, it } from "vitest";
import { pageBlocks, type Block } from "#infrastructure/extraction/layout";
import { isPageNumber, removeRunningLines, runningSignature } from "#infrastructure/extraction/running-lines";
import { fragment } from "#infrastructure/extraction/test-support/fragments";

const body = (n: number) => [0, 1, 2, 3].map((i) => fragment(`Body line ${i} of page ${n} says something different each time`, 60, 200 + n * 3 + i * 13));

describe("running headers, footers and page numbers", () => {
  it("sees the same line through changing page numbers, on facing pages too", () => {
    expect(runningSignature("12   FREE CULTURE")).toBe("free culture");
    expect(runningSignature("FREE CULTURE 13")).toBe("free culture");
    expect(runningSignature("xiv PREFACE")).toBe("preface");
    expect(runningSignature("PREFACE xv")).toBe("preface");
    // Words that are not numerals stay words.
    expect(runningSignature("civil law")).toBe("civil law");
    for (const number of ["12", "xiv", "- 12 -", "Page 12", "page 3 of 9"]) expect(isPageNumber(number), number).toBe(true);
    for (const text of ["civil", "12 monkeys", "Page twelve"]) expect(isPageNumber(text), text).toBe(false);
  });

  it("keeps repeated edge lines out of every page, and bare page numbers even when they do not repeat", () => {
    const pages = [1, 2, 3].map((n) => ({
      blocks: pageBlocks([fragment(`${n * 2}    THE ISLAND FERRY`, 60, 30), ...body(n), fragment(String(n + 100), 290, 800)]),
      height: 842,
    }));
    expect(removeRunningLines(pages)).toEqual([2, 2, 2]);
    for (const page of pages) {
      const text = page.blocks.flatMap((b) => b.lines.map((l) => l.text)).join("\n");
      expect(text).not.toMatch(/THE ISLAND FERRY|^\d+$/m);
      expect(text).toContain("says something different");
    }
  });

  it("keeps the heads of facing pages out too: a head of every other page, and one set in pieces", () => {
    // A paper: no head on its first page, then "Venue" / "Authors" on even pages and "Title" / "Venue"
    // on odd ones. The layout gives a head in pieces as separate lines when the columns' gutter runs
    // up through its gap, and as one line when it does not (page 4).
    const head = (pieces: [string, number][]): Block => {
      const lines = pieces.map(([text, left]) => ({ text, left, right: left + text.length * 4, top: 30, bottom: 38, size: 8 }));
      return { lines, left: lines[0].left, right: lines[lines.length - 1].right, top: 30, bottom: 38 };
    };
    const heads = [[], [["Venue ’18, June 2018, Woodstock", 60], ["Trovato et al.", 480]], [["The Name of the Title", 60], ["Venue ’18, June 2018, Woodstock", 400]]] as [string, number][][];
    const pages = [1, 2, 3, 4, 5, 6].map((n) => ({ blocks: [...(n === 1 ? [] : [head(heads[n % 2 === 0 ? 1 : 2])]), ...pageBlocks(body(n))], height: 842 }));
    pages[3].blocks[0] = head([["Venue ’18, June 2018, Woodstock Trovato et al.", 60]]);
    expect(removeRunningLines(pages)).toEqual([0, 2, 2, 1, 2, 2]);
    for (const page of pages) expect(page.blocks.flatMap((b) => b.lines.map((l) => l.text)).join("\n")).not.toMatch(/Venue|Trovato|Name of the Title/);
  });

  it("keeps a larger title that repeats at the top of slides: it is content", () => {
    const pages = [1, 2, 3].map((n) => ({ blocks: pageBlocks([fragment("Results", 60, 30, 28), ...body(n)]), height: 842 }));
    expect(removeRunningLines(pages)).toEqual([0, 0, 0]);
  });

  it("never empties a page: a page whose only lines repeat on every page keeps them", () => {
    const pages = [1, 2].map((n) => ({ blocks: pageBlocks([fragment(`Harbour notice ${n}`, 60, 30)]), height: 842 }));
    expect(removeRunningLines(pages)).toEqual([0, 0]);
    expect(pages.map((page) => page.blocks.flatMap((b) => b.lines.map((l) => l.text)))).toEqual([["Harbour notice 1"], ["Harbour notice 2"]]);
    // A page that is only a running head and a page number keeps both, beside pages that lose them.
    const book = [1, 2, 3].map((n) => ({
      blocks: pageBlocks([fragment("THE ISLAND FERRY", 60, 30), ...(n === 2 ? [] : body(n)), fragment(String(n), 290, 800)]),
      height: 842,
    }));
    expect(removeRunningLines(book)).toEqual([2, 0, 2]);
  });

  it("leaves a one-page document alone", () => {
    const page = { blocks: pageBlocks([fragment("7", 290, 800), ...body(1)]), height: 842 };
    expect(removeRunningLines([page])).toEqual([0]);
  });
});
