import { describe, expect, it } from "vitest";
import type { IndexedChunk } from "#application/ports/search-index";
import { chunkPages } from "#domain/library/chunking";
import { openDatabase } from "#infrastructure/embedded/sqlite/open-database";
import { SqliteSearchIndex } from "#infrastructure/embedded/sqlite/sqlite-search-index";
import { joinChunks, passageWindows } from "./passage-windows";

const sentence = (page: number, n: number) => `Page ${page} sentence ${n} tells one more thing about the harbour and its ferries.`;
const pageText = (page: number, sentences: number) => Array.from({ length: sentences }, (_, n) => sentence(page, n + 1)).join(" ");

/** A document cut by the app's chunker (small chunks, overlapping), in the embedded index. */
async function indexed(pages: { pageNumber: number; text: string }[]) {
  const index = new SqliteSearchIndex(openDatabase(":memory:"));
  const chunks: IndexedChunk[] = chunkPages("doc", pages.map((p) => ({ ...p, blocks: [] })), { targetChars: 200, overlapChars: 60 }).map((c) => ({
    ...c,
    documentId: "doc",
    ownerId: "owner",
  }));
  await index.upsert(chunks);
  return { index, chunks };
}

const ranked = (chunks: IndexedChunk[]) => chunks.map((chunk, i) => ({ chunk, score: 1 / (61 + i) }));

describe("passages handed to the model", () => {
  it("writes the chunker's overlap once when a page's chunks are joined", async () => {
    const text = pageText(1, 6);
    const { chunks } = await indexed([{ pageNumber: 1, text }]);
    expect(chunks.length).toBeGreaterThan(2);
    expect(joinChunks(chunks)).toBe(text);
    // Chunks that are not consecutive stay separate paragraphs.
    expect(joinChunks([chunks[0], chunks[2]])).toBe(`${chunks[0].text}\n\n${chunks[2].text}`);
  });

  it("reads a short passage's neighbours on its page, next first, within the budget of all passages", async () => {
    const { index, chunks } = await indexed([
      { pageNumber: 1, text: pageText(1, 6) },
      { pageNumber: 2, text: pageText(2, 6) },
    ]);
    const onPage = (page: number) => chunks.filter((c) => c.pageNumber === page);
    const [middle1, middle2] = [onPage(1)[1], onPage(2)[1]];
    const generous = await passageWindows(ranked([middle1, middle2]), { limit: 2, mergeDepth: 4, minChars: 400, maxChars: 10_000, index });
    expect(generous.map((w) => w.chunks.map((c) => c.ordinal))).toEqual([
      [onPage(1)[0].ordinal, middle1.ordinal, onPage(1)[2].ordinal],
      [onPage(2)[0].ordinal, middle2.ordinal, onPage(2)[2].ordinal],
    ]);
    expect(generous[0].text).not.toContain("Page 2");
    expect(generous[0].lead).toEqual(middle1);

    // A tight budget widens the best-ranked passage first (its next chunk fits, nothing more), and never goes over.
    const budget = joinChunks([middle1, onPage(1)[2]]).length + middle2.text.length;
    const tight = await passageWindows(ranked([middle1, middle2]), { limit: 2, mergeDepth: 4, minChars: 400, maxChars: budget, index });
    expect(tight.reduce((sum, w) => sum + w.text.length, 0)).toBeLessThanOrEqual(budget);
    expect(tight[0].chunks).toEqual([middle1, onPage(1)[2]]);
    expect(tight[1].chunks).toEqual([middle2]);
  });

  it("fills the one chunk missing between two hits of a page, and leaves a hit ranked too deep out", async () => {
    const { index, chunks } = await indexed([{ pageNumber: 1, text: pageText(1, 8) }, { pageNumber: 2, text: pageText(2, 2) }]);
    const page1 = chunks.filter((c) => c.pageNumber === 1);
    const page2 = chunks.filter((c) => c.pageNumber === 2);
    const [passage, other] = await passageWindows(ranked([page1[0], page2[0], page1[2], page1[4]]), { limit: 2, mergeDepth: 3, minChars: 0, maxChars: 10_000, index });
    expect(passage.chunks.map((c) => c.ordinal)).toEqual([page1[0].ordinal, page1[1].ordinal, page1[2].ordinal]);
    expect(passage.text).toBe(joinChunks(page1.slice(0, 3)));
    expect(other.lead).toEqual(page2[0]);
  });
});
