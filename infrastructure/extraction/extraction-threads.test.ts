/**
 * The extractor the app uses reads documents in its extraction threads: what comes back is what
 * the same extraction gives in one thread, and pdf.js never enters the calling thread.
 */
import { describe, expect, it } from "vitest";
import { extractPdf } from "#infrastructure/extraction/pdf";
import { makePdf } from "#infrastructure/extraction/test-support/documents";
import { DefaultTextExtractor } from "#infrastructure/extraction/text-extractor";

// pdf.js's path, where two threads share one document's pages (poppler spreads them over processes: poppler.test.ts).
const extractor = new DefaultTextExtractor({ pdfExtractor: "pdfjs" });

const PLANTS = ["samphire", "sea lavender", "cordgrass", "sea purslane", "glasswort"];
const PLACES = ["creek", "mudflat", "levee", "pan", "ridge", "channel", "bank", "pool"];

/** Long enough to be shared by two threads: a running head on every page, a word broken at a line end, a text of its own on each page. */
const book = () =>
  makePdf(
    Array.from({ length: 40 }, (_, i) => ({
      lines: [
        "The Saltmarsh Survey",
        `By the ${PLACES[i % 8]} the ${PLANTS[i % 5]} grows where the tide brings sedi-`,
        `ment over the marsh, quadrat ${i + 1} of the season`,
      ],
    })),
  );

describe("extraction threads", () => {
  it("never load pdf.js into the thread that asked", async () => {
    // First in this file (its own process): nothing here has read a PDF in this thread yet.
    const bytes = await makePdf([{ lines: ["A short memo about the harbour ferry"] }]);
    const result = await extractor.extract({ bytes, kind: "pdf", ocr: false });
    expect(result.pages[0].text).toBe("A short memo about the harbour ferry");
    expect(await extractor.countPages(bytes, "pdf")).toBe(1);
    expect((globalThis as { pdfjsWorker?: unknown }).pdfjsWorker).toBeUndefined();
  });

  it("read a long PDF together into exactly what one thread reads, pages in order", async () => {
    const bytes = await book();
    const shared = await extractor.extract({ bytes, kind: "pdf", ocr: false });
    const alone = await extractPdf(bytes, { ocr: false, ocrOptions: { command: "tesseract", languages: "eng", timeoutMs: 120_000 }, rasterizeCommand: "pdftoppm", tempDir: "/tmp" });

    expect(shared.pages.map((page) => page.pageNumber)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    expect(shared).toEqual({ ...alone, extractor: "pdf.js" });
    expect(shared.pages[6].text).toContain("By the bank the sea lavender grows where the tide brings sediment\nover the marsh, quadrat 7");
    expect(shared.pages[6].text).not.toContain("The Saltmarsh Survey");
  });
});
