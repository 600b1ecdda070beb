import { describe, expect, it } from "vitest";
import { ExtractionError } from "#application/ports/text-extraction";
import { makePdf } from "#infrastructure/extraction/test-support/documents";
import { ocrToolsInstalled } from "#infrastructure/extraction/test-support/ocr-tools";
import { DefaultTextExtractor } from "#infrastructure/extraction/text-extractor";

const extractor = new DefaultTextExtractor();

describe("PDF extraction", () => {
  it("puts each page's text on its own page number and counts the pages", async () => {
    const bytes = await makePdf([
      { lines: ["Alpha introduction", "the first page talks about apples"] },
      { lines: ["Beta chapter", "bananas are on page two"] },
      { lines: ["Gamma appendix", "cherries close the document"] },
    ]);
    expect(extractor.detectKind(bytes, "fruit.pdf")).toBe("pdf");
    expect(await extractor.countPages(bytes, "pdf")).toBe(3);

    const result = await extractor.extract({ bytes, kind: "pdf", ocr: false });
    expect(result.pages.map((p) => p.pageNumber)).toEqual([1, 2, 3]);
    expect(result.pages[0].text).toBe("Alpha introduction\nthe first page talks about apples");
    expect(result.pages[1].text).toContain("bananas are on page two");
    expect(result.pages[2].text).toContain("cherries close the document");
    expect(result.pages[1].text).not.toContain("apples");
    expect(result.warnings).toEqual([]);
  });

  it("gives layout boxes on the 596 × 842 page, origin top-left", async () => {
    const bytes = await makePdf([{ lines: ["Top line of the page", "Second line below it"], size: 12 }]);
    const [page] = (await extractor.extract({ bytes, kind: "pdf", ocr: false })).pages;
    expect(page.blocks).toHaveLength(1);
    const [block] = page.blocks;
    expect(block.id).toBe("p1-b1");
    expect(block.text).toBe("Top line of the page\nSecond line below it");
    // Drawn 72pt from the left and with its first baseline 84pt from the top of an A4 page.
    expect(block.box.left).toBeCloseTo(72 * (596 / 595.28), 0);
    expect(block.box.top).toBeGreaterThan(70);
    expect(block.box.top).toBeLessThan(78);
    expect(block.box.height).toBeGreaterThan(20);
    expect(block.box.height).toBeLessThan(35);
    expect(block.box.width).toBeGreaterThan(100);
    expect(block.box.width).toBeLessThan(140);
  });

  it("reads rotated pages as displayed, with boxes in the displayed (landscape) page", async () => {
    const bytes = await makePdf([
      { lines: ["Upright first page"] },
      { lines: ["Landscape table heading", "row one of the rotated page"], rotate: 90 },
      { lines: ["Upside down page text"], rotate: 180 },
      { lines: ["Counter clockwise page text"], rotate: 270 },
    ]);
    const result = await extractor.extract({ bytes, kind: "pdf", ocr: false });
    expect(result.pages[1].text).toBe("Landscape table heading\nrow one of the rotated page");
    expect(result.pages[2].text).toBe("Upside down page text");
    expect(result.pages[3].text).toBe("Counter clockwise page text");

    for (const page of result.pages.slice(1)) {
      expect(page.blocks).toHaveLength(1);
      const { box } = page.blocks[0];
      // Displayed 72pt from the left and about 72pt from the top of the displayed page, which
      // is 842 × 595 for /Rotate 90 and 270: scaled to 596 × 842 that is x × 0.708, y × 1.415.
      const displayedWidth = page.pageNumber === 3 ? 595.28 : 841.89;
      const displayedHeight = page.pageNumber === 3 ? 841.89 : 595.28;
      expect(box.left).toBeCloseTo(72 * (596 / displayedWidth), 0);
      const topInPoints = box.top / (842 / displayedHeight);
      expect(topInPoints).toBeGreaterThan(70);
      expect(topInPoints).toBeLessThan(78);
      expect(box.left + box.width).toBeLessThanOrEqual(596);
      expect(box.top + box.height).toBeLessThanOrEqual(842);
    }
    // On the landscape page the block is wide and short, as the user sees it.
    const rotated = result.pages[1].blocks[0].box;
    expect(rotated.width / (596 / 841.89)).toBeGreaterThan(rotated.height / (842 / 595.28));
  });

  it("keeps two columns apart and reads the left one first", async () => {
    const { PDFDocument, StandardFonts } = await import("pdf-lib");
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const page = doc.addPage([595.28, 841.89]);
    const left = ["Left column starts here", "and continues on the left", "ending the left column"];
    const right = ["Right column begins", "with its own sentences", "closing the right side"];
    left.forEach((t, i) => page.drawText(t, { x: 50, y: 700 - i * 14, size: 11, font }));
    right.forEach((t, i) => page.drawText(t, { x: 320, y: 700 - i * 14, size: 11, font }));
    const bytes = Buffer.from(await doc.save());
    const [result] = (await extractor.extract({ bytes, kind: "pdf", ocr: false })).pages;
    expect(result.text).toBe(`${left.join("\n")}\n\n${right.join("\n")}`);
    expect(result.blocks.map((b) => b.box.left < 298)).toEqual([true, false]);
  });

  it("warns about pages without a text layer when OCR is off, and fails when no page has text", async () => {
    const bytes = await makePdf([{ lines: ["Only the first page has text"] }, { lines: [] }]);
    const result = await extractor.extract({ bytes, kind: "pdf", ocr: false });
    expect(result.pages[1]).toEqual({ pageNumber: 2, text: "", blocks: [] });
    expect(result.warnings).toEqual(["Page 2 had no text layer and OCR was off, so it is empty."]);

    const blank = await makePdf([{ lines: [] }]);
    await expect(extractor.extract({ bytes: blank, kind: "pdf", ocr: false })).rejects.toMatchObject({
      code: "NO_TEXT",
      message: "This PDF has no text layer (it looks scanned) and OCR was off. Turn on OCR and upload it again.",
    });
  });

  it("reads a short PDF whose pages each hold one similar line: running-line removal never empties a page", async () => {
    const bytes = await makePdf([{ lines: ["Ferry timetable page 1"] }, { lines: ["Ferry timetable page 2"] }]);
    const result = await extractor.extract({ bytes, kind: "pdf", ocr: false });
    expect(result.pages.map((p) => p.text)).toEqual(["Ferry timetable page 1", "Ferry timetable page 2"]);
    expect(result.pages.every((p) => p.blocks.length === 1)).toBe(true);
    expect(result.warnings).toEqual([]);
  });

  it.skipIf(!ocrToolsInstalled())("does not advise turning OCR on when OCR ran and found no text", async () => {
    const blank = await makePdf([{ lines: [] }]);
    await expect(extractor.extract({ bytes: blank, kind: "pdf", ocr: true })).rejects.toMatchObject({
      code: "NO_TEXT",
      message: "This PDF has no text layer, and OCR found no text on its pages. Check that the scan is sharp and its text large enough.",
    });
  });

  it("refuses an empty text file without mentioning OCR", async () => {
    await expect(extractor.extract({ bytes: Buffer.from("  \n\n "), kind: "txt", ocr: false })).rejects.toMatchObject({
      code: "NO_TEXT",
      message: "This document contains no text.",
    });
  });

  it("refuses a damaged PDF with a readable message", async () => {
    const bytes = Buffer.from("%PDF-1.7\nthis is not really a pdf");
    const error = await extractor.extract({ bytes, kind: "pdf", ocr: false }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ExtractionError);
    expect((error as ExtractionError).code).toBe("DAMAGED_FILE");
  });
});
