/**
 * Extraction on documents made the way people make them (tests/fixtures/documents, see its README)
 * and on a real book (../shared/corpus/freeculture.pdf): what a reader sees is what gets indexed.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { PDFDocument } from "pdf-lib";
import { chunkPages } from "#domain/library/chunking";
import { describe, expect, it } from "vitest";
import { extractPdf, finishPdf, type PdfExtractionOptions } from "#infrastructure/extraction/pdf";
import { readPdfLayoutsWithPoppler } from "#infrastructure/extraction/poppler";
import { ocrToolsInstalled } from "#infrastructure/extraction/test-support/ocr-tools";

const root = join(import.meta.dirname, "..", "..");
const made = (name: string) => readFileSync(join(root, "tests", "fixtures", "documents", name));
const corpus = join(root, "..", "shared", "corpus", "freeculture.pdf");

const ocrTools = ocrToolsInstalled();

const options = (overrides: Partial<PdfExtractionOptions> = {}): PdfExtractionOptions => ({
  ocr: false,
  ocrOptions: { command: "tesseract", languages: "eng", timeoutMs: 120_000 },
  rasterizeCommand: "pdftoppm",
  tempDir: "/tmp",
  ...overrides,
});
const withoutOcr = options({ ocrOptions: { command: "/nonexistent/tesseract", languages: "eng", timeoutMs: 120_000 } });

/** The same expectations on the layouts of both PDF readers (decision 212): pdf.js's text items and poppler's strings. */
const READERS = {
  "pdf.js": extractPdf,
  poppler: async (bytes: Buffer, pdfOptions: PdfExtractionOptions) =>
    finishPdf(bytes, await readPdfLayoutsWithPoppler(bytes, { tempDir: pdfOptions.tempDir, timeoutMs: 120_000 }), pdfOptions),
};

const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F]/;

/** The pages of several PDFs as one, as when someone merges a paper and a broken scan. */
async function merge(...files: Buffer[]): Promise<Buffer> {
  const out = await PDFDocument.create();
  for (const file of files) {
    const source = await PDFDocument.load(file);
    for (const page of await out.copyPages(source, source.getPageIndices())) out.addPage(page);
  }
  return Buffer.from(await out.save());
}

describe.each(["pdf.js", "poppler"] as const)("read by %s", (extractor) => {
  const read = READERS[extractor];

  describe("a two-column paper compiled with LaTeX", () => {
    it("reads the title block, then each column top to bottom, on every page", async () => {
      const { pages } = await read(made("kestrel-paper.pdf"), options());
      const first = pages[0].text;
      const order = ["Kestrel: Tiered Speculation in a JavaScript Just-in-Time Compiler", "Abstract", "1 Introduction", "2 Background", "3 Design", "3.1 Tier-up policy"];
      const at = order.map((heading) => first.indexOf(heading));
      expect(at.every((i) => i >= 0)).toBe(true);
      expect(at).toEqual([...at].sort((a, b) => a - b));
      // Page 3: the left column (5.3 … 7) before the right one (8, Acknowledgements), though the right
      // column ends higher up than a heading gap in the left one.
      const third = pages[2].text;
      const headings = ["5.3 Warm-up", "5.5 Energy", "6 Related Work", "7 Limitations", "8 Conclusion", "Acknowledgements"].map((h) => third.indexOf(h));
      expect(headings.every((i) => i >= 0)).toBe(true);
      expect(headings).toEqual([...headings].sort((a, b) => a - b));
    });

    it("joins words TeX hyphenated at line ends, across columns too, and keeps real compounds", async () => {
      const { pages } = await read(made("kestrel-paper.pdf"), options());
      const text = pages.map((p) => p.text).join("\n");
      expect(text).toContain("an intermediate\ntier");
      expect(text).toContain("careful evaluation of throughput");
      expect(text).toContain("the full optimiser.");
      // Broken at the foot of the left column of page 3, continued at the top of the right one.
      expect(text).toContain("whose accuracy varies between");
      expect(text).toContain("short-lived");
      expect(text).toContain("double-precision");
      expect(text).toContain("floating-point");
      // No line of the body ends in a hyphen that splits a word any more.
      const broken = text.split("\n").filter((line) => /[a-z]-$/.test(line));
      expect(broken).toEqual([]);
    });

    it("keeps the results table row by row", async () => {
      const { pages } = await read(made("kestrel-paper.pdf"), options());
      const lines = pages[1].text.split("\n");
      expect(lines).toContain("Benchmark | Speedup | Compile time (ms)");
      expect(lines).toContain("access-nbody | 4.19× | 11.8");
      expect(lines).toContain("string-fasta | 1.08× | 3.7");
      // Body lines are never cut into cells by a wide justified space.
      expect(pages.flatMap((p) => p.text.split("\n")).filter((l) => l.includes(" | "))).toHaveLength(8);
    });

    it("keeps the running header and the page-number footer out of the text, and the boxes on the page", async () => {
      const { pages, runningLinesRemoved } = await read(made("kestrel-paper.pdf"), options());
      expect(runningLinesRemoved).toBeGreaterThanOrEqual(6);
      for (const page of pages) {
        expect(page.text).not.toContain("Technical Report KR-2024-07");
        expect(page.text).not.toContain("Kestrel: Tiered Speculation for JavaScript");
        expect(page.text).not.toMatch(/^Page \d+$/m);
        expect(page.blocks.length).toBeGreaterThan(3);
        for (const block of page.blocks) {
          expect(page.text).toContain(block.text);
          expect(block.box.left).toBeGreaterThanOrEqual(0);
          expect(block.box.left + block.box.width).toBeLessThanOrEqual(596);
          expect(block.box.top + block.box.height).toBeLessThanOrEqual(842);
        }
      }
    });

    it("keeps layout boxes attached to every passage cut from its pages", async () => {
      const { pages } = await read(made("kestrel-paper.pdf"), options());
      const chunks = chunkPages("kestrel", pages);
      expect(chunks.length).toBeGreaterThan(10);
      for (const chunk of chunks) {
        const blocks = pages[chunk.pageNumber - 1].blocks.filter((b) => chunk.blockIds.includes(b.id));
        expect(blocks.length, `chunk ${chunk.ordinal}`).toBeGreaterThan(0);
        // Its first and last words lie in its blocks, so a highlight covers the passage.
        const words = chunk.text.split(/\s+/);
        expect(blocks.some((b) => b.text.includes(words[0]))).toBe(true);
        expect(blocks.some((b) => b.text.includes(words[words.length - 1]))).toBe(true);
      }
      const table = chunks.find((c) => c.text.includes("access-nbody | 4.19× | 11.8"));
      expect(table?.pageNumber).toBe(2);
    });

    it("reads ligatures as their letters", async () => {
      const { pages } = await read(made("kestrel-paper.pdf"), options());
      const text = pages.map((p) => p.text).join("\n");
      expect(text).not.toMatch(/[\uFB00-\uFB06]/);
      expect(text).toContain("profile");
      expect(text).toContain("first");
      expect(text).toContain("floating-point");
    });
  });

  describe("documents converted by LibreOffice", () => {
    it("keeps a Word table row by row", async () => {
      const { pages } = await read(made("saltmarsh-survey.pdf"), options());
      const lines = pages[1].text.split("\n");
      // Centred header cells over left-aligned columns still part where the columns do.
      expect(lines).toContain("Species | Peak count | Date of peak | Previous winter");
      expect(lines).toContain("Dunlin | 2,380 | 9 January | 1,950");
      expect(lines).toContain("Brent goose | 640 | 14 December | 705");
      expect(lines).toContain("Spoonbill | 1 | 2 December | 0");
    });

    it("reads a slide deck slide by slide, title first", async () => {
      const { pages } = await read(made("harbour-talk.pdf"), options());
      expect(pages.map((p) => p.text.split("\n")[0])).toEqual(["Tidal Energy at Port Annick", "What we installed", "First-year results", "Next steps"]);
      expect(pages[2].text).toContain("Energy delivered: 1,310 MWh, about 61 percent of the design estimate");
    });
  });

  describe("pages that cannot be read from their text layer", () => {
    it.skipIf(!ocrTools)("OCRs a page whose fonts have no text mapping even with the OCR switch off, and says so", { timeout: 180_000 }, async () => {
      const result = await read(made("lichen-review-broken-fonts.pdf"), options({ ocr: false }));
      expect(result.pagesReadByOcr).toEqual([1, 2]);
      expect(result.unreadablePages).toEqual([]);
      const text = result.pages.map((p) => p.text).join("\n");
      expect(text).not.toMatch(CONTROL);
      expect(text.toLowerCase()).toContain("nitrogen index");
      expect(text).toContain("6.1");
      expect(result.pages[0].blocks.length).toBeGreaterThan(0);
    });

    it("without OCR, leaves those pages out as unreadable and keeps the readable ones", { timeout: 120_000 }, async () => {
      const bytes = await merge(made("kestrel-paper.pdf"), made("lichen-review-broken-fonts.pdf"));
      const result = await read(bytes, withoutOcr);
      expect(result.unreadablePages).toEqual([4, 5]);
      expect(result.pagesReadByOcr).toEqual([]);
      expect(result.pages[3]).toEqual({ pageNumber: 4, text: "", blocks: [] });
      expect(result.pages[4]).toEqual({ pageNumber: 5, text: "", blocks: [] });
      expect(result.pages[1].text).toContain("access-nbody | 4.19× | 11.8");
      expect(result.pages.map((p) => p.text).join("\n")).not.toMatch(CONTROL);
      expect(result.warnings).toEqual([
        "Pages 4, 5 had text that is not readable and OCR is not available on this server, so they were left out.",
      ]);
    });

    it("without OCR, refuses a document none of whose pages can be read", { timeout: 120_000 }, async () => {
      await expect(read(made("lichen-review-broken-fonts.pdf"), withoutOcr)).rejects.toMatchObject({ code: "UNREADABLE" });
    });

    it.skipIf(!ocrTools)("OCRs a scanned page when the OCR switch is on", { timeout: 120_000 }, async () => {
      const result = await read(made("ferry-memo-scanned.pdf"), options({ ocr: true }));
      expect(result.pagesReadByOcr).toEqual([1]);
      const text = result.pages[0].text;
      expect(text).toContain("Nordlys");
      expect(text).toMatch(/42 cars/);
    });
  });

  describe.skipIf(!existsSync(corpus))("a real book (Free Culture, 352 pages, running headers and footnotes)", () => {
    it("keeps the running headers and page numbers out of the pages", { timeout: 240_000 }, async () => {
      // Pages 30–69 of the book: chapter openings, running heads ("FREE CULTURE", chapter titles
      // with page numbers) on every other page, footnote markers in the text.
      const book = await PDFDocument.load(readFileSync(corpus));
      const part = await PDFDocument.create();
      for (const page of await part.copyPages(book, Array.from({ length: 40 }, (_, i) => 29 + i))) part.addPage(page);
      const result = await read(Buffer.from(await part.save()), options());
      expect(result.runningLinesRemoved).toBeGreaterThanOrEqual(35);
      const lines = result.pages.flatMap((p) => p.text.split("\n"));
      expect(lines.filter((l) => /^FREE CULTURE$/i.test(l.trim()))).toEqual([]);
      expect(lines.filter((l) => /^\d+$/.test(l.trim()))).toEqual([]);
      // Hyphenated line ends are joined within each page (a page's last word may go on overleaf).
      for (const page of result.pages) {
        const inner = page.text.split("\n").slice(0, -1);
        expect(inner.filter((l) => /[a-z]-$/.test(l))).toEqual([]);
      }
      expect(result.unreadablePages).toEqual([]);
    });
  });
});
