import { describe, expect, it } from "vitest";
import { makePdf, makeScannedPdf, renderTextPng } from "#infrastructure/extraction/test-support/documents";
import { ocrToolsInstalled } from "#infrastructure/extraction/test-support/ocr-tools";
import { DefaultTextExtractor } from "#infrastructure/extraction/text-extractor";
import { parseTesseractTsv } from "#infrastructure/extraction/ocr";

const ocrTools = ocrToolsInstalled();

const extractor = new DefaultTextExtractor();
const normalize = (s: string) => s.toLowerCase().replace(/\s+/g, " ");

describe.skipIf(!ocrTools)("OCR (tesseract + pdftoppm)", () => {
  it("reads a PNG with known words as one page, even with the OCR flag off", async () => {
    const png = await renderTextPng(["Invoice number 4711", "Total amount due"]);
    expect(extractor.detectKind(png, "scan.png")).toBe("png");
    expect(await extractor.countPages(png, "png")).toBe(1);
    const result = await extractor.extract({ bytes: png, kind: "png", ocr: false });
    expect(result.pages).toHaveLength(1);
    expect(normalize(result.pages[0].text)).toContain("invoice number 4711");
    expect(normalize(result.pages[0].text)).toContain("total amount due");
    const [block] = result.pages[0].blocks;
    // Rendered 72pt from the left on an A4 page: about 72 on the 596-wide page.
    expect(block.box.left).toBeGreaterThan(60);
    expect(block.box.left).toBeLessThan(85);
    expect(block.box.top).toBeGreaterThan(60);
    expect(block.box.top).toBeLessThan(110);
  });

  it("reads a JPEG too", async () => {
    const jpg = await renderTextPng(["Meeting notes from Monday"], 150, "jpeg");
    expect(extractor.detectKind(jpg, "notes.jpg")).toBe("jpg");
    const result = await extractor.extract({ bytes: jpg, kind: "jpg", ocr: true });
    expect(normalize(result.pages[0].text)).toContain("meeting notes from monday");
  });

  it("finds the text of a scanned page only with OCR on, on the right page", async () => {
    const scan = await makeScannedPdf(await renderTextPng(["Scanned contract clause", "Signed in Berlin"]));
    const { PDFDocument } = await import("pdf-lib");
    // Page 1 has a text layer, page 2 is the scan.
    const merged = await PDFDocument.create();
    for (const source of [await makePdf([{ lines: ["Cover page with real text"] }]), scan]) {
      const doc = await PDFDocument.load(source);
      const [page] = await merged.copyPages(doc, [0]);
      merged.addPage(page);
    }
    const bytes = Buffer.from(await merged.save());

    const off = await extractor.extract({ bytes, kind: "pdf", ocr: false });
    expect(off.pages[1].text).toBe("");
    expect(off.warnings).toHaveLength(1);

    const on = await extractor.extract({ bytes, kind: "pdf", ocr: true });
    expect(on.pages[0].text).toBe("Cover page with real text");
    expect(normalize(on.pages[1].text)).toContain("scanned contract clause");
    expect(normalize(on.pages[1].text)).toContain("signed in berlin");
    expect(on.pages[1].blocks.length).toBeGreaterThan(0);
    for (const block of on.pages[1].blocks) {
      expect(block.id.startsWith("p2-")).toBe(true);
      expect(block.box.left + block.box.width).toBeLessThanOrEqual(596);
      expect(block.box.top + block.box.height).toBeLessThanOrEqual(842);
    }
    expect(on.warnings).toEqual([]);
  });

  it("fails a scan-only PDF with OCR off, telling the user to turn OCR on", async () => {
    const bytes = await makeScannedPdf(await renderTextPng(["Nothing selectable here"]));
    await expect(extractor.extract({ bytes, kind: "pdf", ocr: false })).rejects.toMatchObject({ code: "NO_TEXT" });
  });
});

describe("OCR without tesseract", () => {
  it("refuses images with OCR_UNAVAILABLE", async () => {
    const missing = new DefaultTextExtractor({ ocrCommand: "/nonexistent/tesseract" });
    const png = Buffer.from("89504e470d0a1a0a0000000d49484452", "hex");
    await expect(missing.extract({ bytes: png, kind: "png", ocr: true })).rejects.toMatchObject({
      code: "OCR_UNAVAILABLE",
      message: expect.stringContaining("OCR is not installed"),
    });
  });

  it("keeps the text pages of a PDF and warns about the scanned ones", async () => {
    const missing = new DefaultTextExtractor({ ocrCommand: "/nonexistent/tesseract", rasterizeCommand: "/nonexistent/pdftoppm" });
    const bytes = await makePdf([{ lines: ["Text page"] }, { lines: [] }]);
    const result = await missing.extract({ bytes, kind: "pdf", ocr: true });
    expect(result.pages[0].text).toBe("Text page");
    expect(result.warnings[0]).toContain("OCR is not available");
  });
});

describe("tesseract TSV", () => {
  it("rebuilds lines and paragraphs and scales boxes to 596 × 842", () => {
    const tsv = [
      "level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext",
      "1\t1\t0\t0\t0\t0\t0\t0\t1192\t1684\t-1\t",
      "5\t1\t1\t1\t1\t1\t100\t200\t80\t20\t95\tHello",
      "5\t1\t1\t1\t1\t2\t190\t200\t90\t20\t95\tworld",
      "5\t1\t1\t1\t2\t1\t100\t230\t60\t20\t95\tagain",
      "5\t1\t2\t1\t1\t1\t100\t400\t50\t20\t95\tNext",
    ].join("\n");
    const page = parseTesseractTsv(tsv, "p1");
    expect(page.text).toBe("Hello world\nagain\n\nNext");
    expect(page.blocks[0]).toEqual({ id: "p1-b1", text: "Hello world\nagain", box: { left: 50, top: 100, width: 90, height: 25 } });
  });

  it("joins a word a scanned page broke at a line end", () => {
    const tsv = [
      "level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext",
      "1\t1\t0\t0\t0\t0\t0\t0\t1192\t1684\t-1\t",
      "5\t1\t1\t1\t1\t1\t100\t200\t80\t20\t95\tan",
      "5\t1\t1\t1\t1\t2\t190\t200\t90\t20\t95\tintermedi-",
      "5\t1\t1\t1\t2\t1\t100\t230\t60\t20\t95\tate",
      "5\t1\t1\t1\t2\t2\t170\t230\t60\t20\t95\ttier,",
      "5\t1\t1\t1\t3\t1\t100\t260\t60\t20\t95\tshort-",
      "5\t1\t1\t1\t4\t1\t100\t290\t60\t20\t95\tlived",
    ].join("\n");
    expect(parseTesseractTsv(tsv, "p1").text).toBe("an intermediate\ntier,\nshort-lived");
  });
});
