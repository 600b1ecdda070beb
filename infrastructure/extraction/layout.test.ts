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
      fragment("left one", 50, 100), fragment("right one", 320, 100),
      fragment("left two", 50, 113), fragment("right two", 320, 113),
      fragment("footer line across the page bottom", 50, 780),
    ];
    const { text, blocks } = layoutPage(fragments, 600, 800, "p1");
    expect(text).toBe("A title across the page\n\nleft one\nleft two\n\nright one\nright two\n\nfooter line across the page bottom");
    expect(blocks.map((b) => b.id)).toEqual(["p1-b1", "p1-b2", "p1-b3", "p1-b4"]);
    // 600 × 800 display units scale to 596 × 842.
    expect(blocks[1].box).toEqual({ left: 49.67, top: 105.25, width: 39.73, height: 24.21 });
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
