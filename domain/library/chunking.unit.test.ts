import { describe, expect, it } from "vitest";
import { type PageText, chunkPages } from "./chunking";

/** Deterministic filler: numbered sentences of varying length. */
function sentences(count: number, seed = 1): string[] {
  const words = ["contract", "payment", "tenant", "notice", "period", "clause", "party", "amount", "schedule", "renewal"];
  const out: string[] = [];
  let x = seed;
  for (let i = 0; i < count; i++) {
    x = (x * 1103515245 + 12345) % 2147483648;
    const length = 6 + (x % 12);
    const body = Array.from({ length }, (_, j) => words[(x + j * 7) % words.length]).join(" ");
    out.push(`Sentence ${i} ${body}.`);
  }
  return out;
}

function pageFromParagraphs(pageNumber: number, paragraphs: string[]): PageText {
  return {
    pageNumber,
    text: paragraphs.join("\n\n"),
    blocks: paragraphs.map((text, i) => ({ id: `p${pageNumber}-b${i}`, text })),
  };
}

describe("chunkPages", () => {
  it("gives a short page one chunk with a deterministic id and all its blocks", () => {
    const page = pageFromParagraphs(1, ["Title", "A short first paragraph."]);
    expect(chunkPages("doc", [page])).toEqual([
      { chunkId: "doc:0", pageNumber: 1, ordinal: 0, text: "Title\n\nA short first paragraph.", blockIds: ["p1-b0", "p1-b1"] },
    ]);
  });

  it("never lets a chunk cross a page boundary and numbers ordinals across the document", () => {
    const pages = [pageFromParagraphs(1, ["Page one ends here."]), pageFromParagraphs(2, ["Page two starts here."])];
    const chunks = chunkPages("doc", pages);
    expect(chunks.map((c) => [c.chunkId, c.pageNumber, c.text])).toEqual([
      ["doc:0", 1, "Page one ends here."],
      ["doc:1", 2, "Page two starts here."],
    ]);
    expect(chunks[1].blockIds).toEqual(["p2-b0"]);
  });

  it("keeps chunks within the target size and ends them at sentence boundaries", () => {
    const text = sentences(60).join(" ");
    const chunks = chunkPages("doc", [{ pageNumber: 3, text, blocks: [] }], { targetChars: 400, overlapChars: 80 });
    expect(chunks.length).toBeGreaterThan(4);
    for (const chunk of chunks) {
      expect(chunk.text.length).toBeLessThanOrEqual(400);
      expect(chunk.text).toMatch(/\.$/);
      expect(chunk.pageNumber).toBe(3);
    }
    // Without overlap, chunks also start where a sentence starts.
    const plain = chunkPages("doc", [{ pageNumber: 3, text, blocks: [] }], { targetChars: 400, overlapChars: 0 });
    for (const chunk of plain) expect(chunk.text).toMatch(/^Sentence \d+ .*\.$/);
    expect(plain.map((c) => c.text).join(" ")).toBe(text);
  });

  it("covers the whole page text, with overlaps no longer than overlapChars", () => {
    const text = sentences(80, 7).join(" ");
    const chunks = chunkPages("doc", [{ pageNumber: 1, text, blocks: [] }], { targetChars: 300, overlapChars: 60 });
    // Every sentence appears in some chunk.
    for (const sentence of sentences(80, 7)) expect(chunks.some((c) => c.text.includes(sentence))).toBe(true);
    // Consecutive chunks share at most overlapChars of text and always move forward.
    for (let i = 1; i < chunks.length; i++) {
      const previous = chunks[i - 1].text;
      const current = chunks[i].text;
      let shared = 0;
      for (let n = Math.min(previous.length, current.length); n > 0; n--) {
        if (previous.endsWith(current.slice(0, n))) {
          shared = n;
          break;
        }
      }
      expect(shared).toBeLessThanOrEqual(60);
      expect(current.length).toBeGreaterThan(shared);
    }
  });

  it("overlaps consecutive chunks by whole sentences when they fit", () => {
    const text = sentences(40, 3).join(" ");
    const chunks = chunkPages("doc", [{ pageNumber: 1, text, blocks: [] }], { targetChars: 300, overlapChars: 150 });
    const withOverlap = chunks.slice(1).filter((c, i) => chunks[i].text.endsWith(c.text.slice(0, c.text.indexOf(".") + 1)));
    expect(withOverlap.length).toBeGreaterThan(0);
  });

  it("prefers paragraph boundaries over sentence boundaries", () => {
    const first = sentences(4, 11).join(" ");
    const second = sentences(4, 12).join(" ");
    const page = pageFromParagraphs(1, [first, second]);
    const targetChars = Math.max(first.length + 40, Math.ceil(page.text.length * 0.75));
    const chunks = chunkPages("doc", [page], { targetChars, overlapChars: 0 });
    expect(chunks[0].text).toBe(first);
    expect(chunks[0].blockIds).toEqual(["p1-b0"]);
    expect(chunks[1].text).toBe(second);
    expect(chunks[1].blockIds).toEqual(["p1-b1"]);
  });

  it("keeps the ids of exactly the blocks whose text a chunk covers", () => {
    const paragraphs = Array.from({ length: 12 }, (_, i) => sentences(3, 100 + i).join(" "));
    const page = pageFromParagraphs(5, paragraphs);
    const chunks = chunkPages("doc", [page], { targetChars: 500, overlapChars: 0 });
    expect(chunks.length).toBeGreaterThan(2);
    // Expected coverage from character positions: a block belongs to a chunk when their ranges overlap.
    let blockCursor = 0;
    const blockRanges = page.blocks.map((b) => {
      const start = page.text.indexOf(b.text, blockCursor);
      blockCursor = start + b.text.length;
      return { id: b.id, start, end: start + b.text.length };
    });
    let chunkCursor = 0;
    for (const chunk of chunks) {
      const start = page.text.indexOf(chunk.text, chunkCursor);
      expect(start).toBeGreaterThanOrEqual(0);
      chunkCursor = start + 1;
      const end = start + chunk.text.length;
      const expected = blockRanges.filter((b) => b.start < end && b.end > start).map((b) => b.id);
      expect(chunk.blockIds).toEqual(expected);
    }
    // Every block lands in at least one chunk.
    const covered = new Set(chunks.flatMap((c) => c.blockIds));
    expect(page.blocks.every((b) => covered.has(b.id))).toBe(true);
  });

  it("matches blocks whose whitespace differs from the page text", () => {
    const page: PageText = {
      pageNumber: 1,
      text: "Heading  line\nBody text   that wraps\nacross lines.",
      blocks: [
        { id: "h", text: "Heading line" },
        { id: "b", text: "Body text that wraps across lines." },
        { id: "missing", text: "Not on this page" },
      ],
    };
    expect(chunkPages("doc", [page])[0].blockIds).toEqual(["h", "b"]);
  });

  it("rebuilds a blank page text from its blocks", () => {
    const page: PageText = { pageNumber: 2, text: "  ", blocks: [{ id: "a", text: "First." }, { id: "b", text: "Second." }] };
    expect(chunkPages("doc", [page])).toEqual([{ chunkId: "doc:0", pageNumber: 2, ordinal: 0, text: "First.\n\nSecond.", blockIds: ["a", "b"] }]);
  });

  it("skips empty pages without using an ordinal", () => {
    const pages = [pageFromParagraphs(1, ["One."]), { pageNumber: 2, text: "\n \n", blocks: [] }, pageFromParagraphs(3, ["Three."])];
    expect(chunkPages("doc", pages).map((c) => [c.chunkId, c.pageNumber])).toEqual([
      ["doc:0", 1],
      ["doc:1", 3],
    ]);
  });

  it("orders pages by page number", () => {
    const pages = [pageFromParagraphs(2, ["Two."]), pageFromParagraphs(1, ["One."])];
    expect(chunkPages("doc", pages).map((c) => c.text)).toEqual(["One.", "Two."]);
  });

  it("splits at words when there is no sentence boundary, and cuts over-long words", () => {
    const words = Array.from({ length: 200 }, (_, i) => `word${i}`).join(" ");
    const chunks = chunkPages("doc", [{ pageNumber: 1, text: words, blocks: [] }], { targetChars: 100, overlapChars: 20 });
    for (const chunk of chunks) {
      expect(chunk.text.length).toBeLessThanOrEqual(100);
      expect(chunk.text).toMatch(/^word\d+( word\d+)*$/);
    }
    expect(chunks.at(-1)?.text.endsWith("word199")).toBe(true);

    const long = "x".repeat(250);
    const cut = chunkPages("doc", [{ pageNumber: 1, text: long, blocks: [] }], { targetChars: 100, overlapChars: 0 });
    expect(cut.map((c) => c.text.length)).toEqual([100, 100, 50]);
    expect(cut.map((c) => c.text).join("")).toBe(long);
  });

  it("never splits a surrogate pair, even with a tiny target", () => {
    const chunks = chunkPages("doc", [{ pageNumber: 1, text: "😀😀😀", blocks: [] }], { targetChars: 1, overlapChars: 0 });
    expect(chunks.map((c) => c.text)).toEqual(["😀", "😀", "😀"]);
  });

  it("is deterministic: the same input gives the same chunks", () => {
    const pages = [1, 2, 3].map((n) => pageFromParagraphs(n, [sentences(10, n).join(" "), sentences(15, n + 10).join(" ")]));
    const a = chunkPages("doc-42", pages, { targetChars: 350, overlapChars: 50 });
    const b = chunkPages("doc-42", structuredClone(pages), { targetChars: 350, overlapChars: 50 });
    expect(b).toEqual(a);
    expect(new Set(a.map((c) => c.chunkId)).size).toBe(a.length);
    expect(a.map((c) => c.ordinal)).toEqual(a.map((_, i) => i));
  });

  it("uses about 800 characters per chunk by default", () => {
    const text = sentences(200, 5).join(" ");
    const chunks = chunkPages("doc", [{ pageNumber: 1, text, blocks: [] }]);
    for (const chunk of chunks.slice(0, -1)) {
      expect(chunk.text.length).toBeLessThanOrEqual(800);
      expect(chunk.text.length).toBeGreaterThan(400);
    }
  });

  it("rejects nonsensical options", () => {
    expect(() => chunkPages("doc", [], { targetChars: 0 })).toThrow(RangeError);
    expect(() => chunkPages("doc", [], { overlapChars: -1 })).toThrow(RangeError);
  });
});
