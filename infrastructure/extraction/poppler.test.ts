import { readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { DocumentReader } from "#infrastructure/extraction/document-reader";
import { PopplerFailed, readPdfLayoutsWithPoppler } from "#infrastructure/extraction/poppler";
import { makePdf } from "#infrastructure/extraction/test-support/documents";
import { ocrToolsInstalled } from "#infrastructure/extraction/test-support/ocr-tools";

const fixture = (name: string) => readFileSync(path.resolve(__dirname, "../../tests/fixtures/documents", name));
const poppler = new DocumentReader({ pdfExtractor: "poppler" });
const pdfjs = new DocumentReader({ pdfExtractor: "pdfjs" });
const options = { tempDir: tmpdir(), timeoutMs: 60_000 };

describe("PDF extraction through poppler", () => {
  it("reads slides and a two-column paper as pdf.js does, and says poppler read them", async () => {
    for (const name of ["harbour-talk.pdf", "kestrel-paper.pdf"]) {
      const bytes = fixture(name);
      const [a, b] = [await poppler.extract({ bytes, kind: "pdf", ocr: false }), await pdfjs.extract({ bytes, kind: "pdf", ocr: false })];
      expect(a.extractor).toBe("poppler");
      expect(b.extractor).toBe("pdf.js");
      expect(a.pages.length).toBe(b.pages.length);
      expect(await poppler.countPages(bytes, "pdf")).toBe(b.pages.length);
      // The same words in the same order.
      const words = (pages: { text: string }[]) => pages.map((p) => p.text.replace(/ \| /g, " ")).join("\n").split(/\s+/);
      expect(words(a.pages)).toEqual(words(b.pages));
    }
  });

  it("keeps running heads out, rejoins hyphenated words and reads a table row by row", async () => {
    const { pages } = await poppler.extract({ bytes: fixture("kestrel-paper.pdf"), kind: "pdf", ocr: false });
    const text = pages.map((p) => p.text).join("\n");
    expect(text).not.toMatch(/Technical Report KR-2024-07|^Page \d+$/m);
    expect(text).toContain("access-nbody | 4.19× | 11.8");
    expect(text).not.toMatch(/\p{L}-\n\p{Ll}/u);
    expect(text).not.toMatch(/[\uFB00-\uFB06]/);
    expect(pages[0].blocks[0].box.top).toBeLessThan(200);
  });

  it("spreads a long document over several processes and keeps the pages in order", async () => {
    const bytes = await makePdf(Array.from({ length: 60 }, (_, i) => ({ lines: [`Page number ${i + 1} of the ledger`, `entry ${i + 1} reads well`] })));
    const layouts = await readPdfLayoutsWithPoppler(bytes, { ...options, parallel: 3 });
    expect(layouts.map((l) => l.blocks.flatMap((b) => b.lines.map((line) => line.text))[1])).toEqual(Array.from({ length: 60 }, (_, i) => `entry ${i + 1} reads well`));
  });

  it("gives up on a process that outgrows its memory or its time, and on a file it cannot read", async () => {
    const bytes = await makePdf([{ lines: ["A short page"] }]);
    await expect(readPdfLayoutsWithPoppler(bytes, { ...options, memoryMb: 4 })).rejects.toBeInstanceOf(PopplerFailed);
    await expect(readPdfLayoutsWithPoppler(bytes, { ...options, timeoutMs: 1 })).rejects.toBeInstanceOf(PopplerFailed);
    await expect(readPdfLayoutsWithPoppler(Buffer.from("%PDF-1.7\nnot really"), options)).rejects.toBeInstanceOf(PopplerFailed);
  });

  it("falls back to pdf.js when poppler cannot read the file, and says so", async () => {
    const bytes = await makePdf([{ lines: ["Read by the fallback"] }]);
    const withoutPoppler = new DocumentReader({ pdfExtractor: "poppler", popplerBinDir: path.join(tmpdir(), "no-poppler-here") });
    const result = await withoutPoppler.extract({ bytes, kind: "pdf", ocr: false });
    expect(result.extractor).toBe("pdf.js");
    expect(result.pages[0].text).toBe("Read by the fallback");
    expect(await withoutPoppler.countPages(bytes, "pdf")).toBe(1);
    // A damaged file is refused as pdf.js refuses it.
    await expect(poppler.extract({ bytes: Buffer.from("%PDF-1.7\nnot really"), kind: "pdf", ocr: false })).rejects.toMatchObject({ code: "DAMAGED_FILE" });
  });

  it.skipIf(!ocrToolsInstalled())("still finds a garbage text layer (poppler prints symbols where pdf.js prints control characters) and OCRs it", async () => {
    const result = await poppler.extract({ bytes: fixture("lichen-review-broken-fonts.pdf"), kind: "pdf", ocr: false });
    expect(result.pagesReadByOcr).toEqual([1, 2]);
    expect(result.pages[0].text).toMatch(/nitrogen/i);
  });
});
