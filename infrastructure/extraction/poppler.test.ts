import { readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { DocumentReader } from "#infrastructure/extraction/document-reader";
import { PDFDocument, StandardFonts, degrees } from "pdf-lib";
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import type { PageLayout } from "#infrastructure/extraction/pdf";
import { parseXmlPages, PopplerFailed, PopplerPages, readPdfLayoutsWithPoppler } from "#infrastructure/extraction/poppler";
import { makePdf } from "#infrastructure/extraction/test-support/documents";
import { ocrToolsInstalled } from "#infrastructure/extraction/test-support/ocr-tools";

const fixture = (name: string) => readFileSync(path.resolve(__dirname, "../../tests/fixtures/documents", name));
const poppler = new DocumentReader({ pdfExtractor: "poppler" });
const pdfjs = new DocumentReader({ pdfExtractor: "pdfjs" });
const options = { tempDir: tmpdir(), timeoutMs: 60_000 };

/** What pdftohtml prints for a PDF, read whole. */
function xmlOf(bytes: Uint8Array): string {
  const dir = mkdtempSync(path.join(tmpdir(), "poppler-test-"));
  try {
    writeFileSync(path.join(dir, "input.pdf"), bytes);
    return execFileSync("pdftohtml", ["-xml", "-stdout", "-i", "-q", "-hidden", "-nodrm", "-noroundcoord", "-zoom", "3", "input.pdf"], { encoding: "utf8", cwd: dir });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

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

  it("reads a long document's pages as poppler prints them, in order, whatever pieces the output arrives in", async () => {
    // "é" and "—" are two and three bytes of UTF-8: some pieces end inside them.
    const bytes = await makePdf(Array.from({ length: 60 }, (_, i) => ({ lines: [`Page number ${i + 1} of the ledger`, `entry ${i + 1} — café reads well`] })));
    const layouts = await readPdfLayoutsWithPoppler(bytes, options);
    const secondLines = (pages: PageLayout[]) => pages.map((l) => l.blocks.flatMap((b) => b.lines.map((line) => line.text))[1]);
    expect(secondLines(layouts)).toEqual(Array.from({ length: 60 }, (_, i) => `entry ${i + 1} — café reads well`));
    // A page end ("</page>") split across pieces, and pieces holding no page end at all.
    const xml = xmlOf(bytes);
    const output = Buffer.from(xml);
    for (const size of [1, 5, 7, 4096]) {
      const pages = new PopplerPages();
      for (let at = 0; at < output.length; at += size) pages.push(output.subarray(at, at + size));
      expect(secondLines(pages.layouts)).toEqual(secondLines(parseXmlPages(xml)));
    }
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

  it("reads what the viewer shows of cropped and rotated pages, with boxes where pdf.js puts them", async () => {
    const document = await PDFDocument.create();
    const font = await document.embedFont(StandardFonts.Helvetica);
    for (const rotation of [0, 90, 180, 270]) {
      const page = document.addPage([600, 800]);
      // Drawn turned as far as the page is, so it reads upright on the displayed page (a landscape scan's text layer).
      page.drawText("Upright on the displayed page a sentence stands", { x: 150, y: 300, size: 12, font, rotate: degrees(rotation) });
      page.drawText("Printer slug 14773_01 outside the crop box", { x: 5, y: 785, size: 8, font });
      page.setCropBox(50, 50, 450, 650);
      page.setRotation(degrees(rotation));
    }
    const bytes = Buffer.from(await document.save());
    const [a, b] = [await poppler.extract({ bytes, kind: "pdf", ocr: false }), await pdfjs.extract({ bytes, kind: "pdf", ocr: false })];
    expect(a.extractor).toBe("poppler");
    for (const [i, page] of a.pages.entries()) {
      expect(page.text).toBe("Upright on the displayed page a sentence stands");
      const [box, expected] = [page.blocks[0].box, b.pages[i].blocks[0].box];
      expect(Math.abs(box.left - expected.left)).toBeLessThan(1);
      expect(Math.abs(box.width - expected.width)).toBeLessThan(1);
      // Poppler's box is one font size tall; pdf.js's runs from the font's descent to its ascent.
      expect(Math.abs(box.top + box.height / 2 - (expected.top + expected.height / 2))).toBeLessThan(4);
    }
  });
});

describe("pdftohtml's XML as page layouts", () => {
  /** One page as `pdftohtml -xml -zoom 3` prints it: coordinates and font sizes three times the points. */
  const xml = (fonts: string, ...texts: string[]) =>
    `<?xml version="1.0" encoding="UTF-8"?>\n<pdf2xml producer="poppler" version="22.12.0">\n<page number="1" position="absolute" top="0" left="0" height="2034" width="1440">\n${fonts}\n${texts.join("\n")}\n</page>\n</pdf2xml>\n`;
  const font = (id: number, size: number) => `\t<fontspec id="${id}" size="${size}" family="ACaslon" color="#000000"/>`;
  const text = (top: number, left: number, width: number, height: number, id: number, content: string) =>
    `<text top="${top}" left="${left}" width="${width}" height="${height}" font="${id}">${content}</text>`;
  const read = (document: string, geometry?: Parameters<typeof parseXmlPages>[1]) =>
    parseXmlPages(document, geometry).map((page) => page.blocks.map((block) => block.lines.map((line) => line.text).join("\n")).join("\n\n"));

  it("takes inline markup out and entities in", () => {
    expect(read(xml(font(0, 30), text(300, 300, 600, 40, 0, '<b>Peak &amp; count</b> of &#34;dunlin&#34; &lt;2024&gt;')))).toEqual(['Peak & count of "dunlin" <2024>']);
  });

  it("leaves a dingbat barcode out, and reads small capitals set letter by letter as words", () => {
    // Free Culture's copyright page: each word's first letter in the larger size, the rest spaced apart.
    const page = xml(
      `${font(0, 23)}\n${font(1, 17)}\n${font(2, 119)}`,
      text(328.39, 596.55, 15.8, 23.33, 0, "T"),
      text(332.55, 614.59, 28.28, 17.48, 1, "H E"),
      text(328.39, 653.09, 13.66, 23.33, 0, "P"),
      text(332.55, 669.16, 81.95, 17.48, 1, "E N G U I N"),
      text(328.39, 761.32, 13.66, 23.33, 0, "P"),
      text(332.55, 777.23, 48.22, 17.48, 1, "R E S S"),
      text(1822.55, 238.85, 1156.8, 154.44, 2, "❚❘❙❚❘❙❚❘❙❚ ❙❚❘❙❚❘❙❚"),
    );
    expect(read(page)).toEqual(["THE PENGUIN PRESS"]);
  });

  it("measures from the crop box: a printer's slug outside it is not on the page", () => {
    const page = xml(font(0, 32), text(11.9, 135, 351, 18.9, 0, "14773_00_i-xviii_r9jm.qxd 2/10/04 3:46 PM"), text(1539.8, 427.2, 611.6, 32.7, 0, "The Future of Ideas"));
    const [layout] = parseXmlPages(page, new Map([[1, { media: [0, 0, 480, 678], crop: [41.76, 41.76, 438.24, 636.24], rotation: 0 }]]));
    expect(layout.width).toBeCloseTo(396.48);
    expect(layout.blocks.map((block) => block.lines[0].text)).toEqual(["The Future of Ideas"]);
    expect(layout.blocks[0].left).toBeCloseTo(427.2 / 3 - 41.76);
  });

  it("keeps text that runs down the page (printed with no width) a line of its own", () => {
    const page = xml(font(0, 30), text(300, 300, 900, 30, 0, "A line across the page"), text(1604, 150, 0, 28, 0, "Vertical axis label"));
    // A block of its own, read before the text to its right.
    expect(read(page)).toEqual(["Vertical axis label\n\nA line across the page"]);
  });
});
