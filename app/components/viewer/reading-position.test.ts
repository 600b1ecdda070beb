import { describe, expect, it } from "vitest";
import { currentPage, pageAtReadingLine } from "./reading-position";

// Ten pages of 600 px with 16 px gaps, in a 900 px viewport: the column is 6,160 px tall.
const PAGE = 600;
const GAP = 16;
const pageCount = 10;
const top = (page: number) => (page - 1) * (PAGE + GAP) + GAP / 2;
const scrollHeight = pageCount * (PAGE + GAP);
const clientHeight = 900;
const at = (scrollTop: number) => ({ scrollTop, clientHeight, scrollHeight });

describe("the page a reader is on", () => {
  it("is the page under the reading line a third down the viewport", () => {
    expect(pageAtReadingLine(top, pageCount, at(0))).toBe(1);
    expect(pageAtReadingLine(top, pageCount, at(top(4)))).toBe(4);
  });

  it("is the last page when the view is scrolled to the bottom, although that page never reaches the reading line", () => {
    const bottom = scrollHeight - clientHeight;
    expect(pageAtReadingLine(top, pageCount, at(bottom))).toBe(10);
  });

  it("stays the page the reader typed while the view has not moved", () => {
    const bottom = scrollHeight - clientHeight;
    // Asking for page 9 scrolls as far as the column allows: the bottom.
    expect(currentPage({ page: 9, scrollTop: bottom }, top, pageCount, at(bottom))).toBe(9);
    // Once the reader scrolls, the reading line decides again.
    expect(currentPage({ page: 9, scrollTop: bottom }, top, pageCount, at(top(3)))).toBe(3);
  });
});
