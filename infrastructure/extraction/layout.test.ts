import { describe, expect, it } from "vitest";
import { layoutPage, type Fragment } from "#infrastructure/extraction/layout";

const fragment = (text: string, left: number, top: number, size = 10): Fragment => ({
  text,
  left,
  top,
  right: left + text.length * size * 0.5,
  bottom: top + size,
  size,
  horizontal: true,
  rtl: false,
});

describe("page layout", () => {
  it("reads a full-width title, then the left column, then the right column", () => {
    const fragments = [
      fragment("A title across the page", 50, 40, 20),
      // Content-stream order interleaves the columns line by line, as some writers do.
      fragment("the left column starts here and", 50, 100), fragment("the right column has sentences", 320, 100),
      fragment("goes on with its own words", 50, 113), fragment("of its own that go on below", 320, 113),
      fragment("ending the left column at last", 50, 126), fragment("and the right column ends too", 320, 126),
      fragment("a footer line that runs right across the page bottom, both columns", 50, 780),
    ];
    const { text, blocks } = layoutPage(fragments, 600, 800, "p1");
    expect(text).toBe(
      "A title across the page\n\n" +
        "the left column starts here and\ngoes on with its own words\nending the left column at last\n\n" +
        "the right column has sentences\nof its own that go on below\nand the right column ends too\n\n" +
        "a footer line that runs right across the page bottom, both columns",
    );
    expect(blocks.map((b) => b.id)).toEqual(["p1-b1", "p1-b2", "p1-b3", "p1-b4"]);
    // 600 × 800 display units scale to 596 × 842.
    expect(blocks[1].box).toEqual({ left: 49.67, top: 105.25, width: 153.97, height: 37.89 });
  });

  it("joins words with single spaces, drops duplicated fake-bold text, and orders right-to-left lines", () => {
    const words = [fragment("Hello", 10, 10), fragment("Hello", 10.2, 10.1), fragment("world", 40, 10)];
    expect(layoutPage(words, 600, 800, "p1").text).toBe("Hello world");
    const rtl = [
      { ...fragment("שלום", 60, 10), rtl: true },
      { ...fragment("עולם", 35, 10), rtl: true },
    ];
    expect(layoutPage(rtl, 600, 800, "p1").text).toBe("שלום עולם");
  });
});
