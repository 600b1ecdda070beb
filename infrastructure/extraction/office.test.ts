import { describe, expect, it } from "vitest";
import { makeDocx, makePptx, makeXlsx, makeZipBomb, PAGE, rawXml } from "#infrastructure/extraction/test-support/documents";
import { DefaultTextExtractor } from "#infrastructure/extraction/text-extractor";

const extractor = new DefaultTextExtractor();

const words = (count: number, word: string) => Array.from({ length: count }, (_, i) => `${word}${i}`).join(" ");

describe("DOCX", () => {
  it("extracts paragraphs and starts a new page at each explicit page break", async () => {
    const bytes = makeDocx(["Title page", "Subtitle line", PAGE, "Chapter one text", PAGE, "Chapter two text"]);
    expect(await extractor.countPages(bytes, "docx")).toBe(3);
    const { pages } = await extractor.extract({ bytes, kind: "docx", ocr: false });
    expect(pages.map((p) => [p.pageNumber, p.text])).toEqual([
      [1, "Title page\n\nSubtitle line"],
      [2, "Chapter one text"],
      [3, "Chapter two text"],
    ]);
  });

  it("reads tables as tab-separated rows and a break inside a paragraph as a page break", async () => {
    const cell = (t: string) => `<w:tc><w:p><w:r><w:t>${t}</w:t></w:r></w:p></w:tc>`;
    const bytes = makeDocx([
      "Prices",
      rawXml(`<w:tbl><w:tr>${cell("Plan")}${cell("Price")}</w:tr><w:tr>${cell("Pro")}${cell("10")}</w:tr></w:tbl>`),
      rawXml('<w:p><w:r><w:t>End of page one.</w:t><w:br w:type="page"/><w:t>Start of page two.</w:t></w:r></w:p>'),
    ]);
    const { pages } = await extractor.extract({ bytes, kind: "docx", ocr: false });
    expect(pages.map((p) => p.text)).toEqual(["Prices\n\nPlan\tPrice\nPro\t10\n\nEnd of page one.", "Start of page two."]);
  });

  it("cuts long text into pages of at most 500 words between paragraphs", async () => {
    // 4 paragraphs of 200 words: pages of 2 paragraphs (400 words) each.
    const paragraphs = ["alpha", "beta", "gamma", "delta"].map((w) => words(200, w));
    const bytes = makeDocx(paragraphs);
    expect(await extractor.countPages(bytes, "docx")).toBe(2);
    const { pages } = await extractor.extract({ bytes, kind: "docx", ocr: false });
    expect(pages[0].text).toContain("alpha199");
    expect(pages[0].text).toContain("beta0");
    expect(pages[0].text).not.toContain("gamma");
    expect(pages[1].text.startsWith("gamma0")).toBe(true);
  });

  it("refuses a zip bomb whose headers lie about its size, while inflating", async () => {
    const small = new DefaultTextExtractor({ maxUncompressedBytes: 1024 * 1024 });
    const bomb = makeZipBomb(8 * 1024 * 1024, 1000);
    // The declared sizes pass the upload check; the real size is caught before mammoth sees it.
    expect(small.detectKind(bomb, "bomb.docx")).toBe("docx");
    await expect(small.extract({ bytes: bomb, kind: "docx", ocr: false })).rejects.toMatchObject({ code: "ARCHIVE_TOO_LARGE" });
    await expect(small.countPages(bomb, "docx")).rejects.toMatchObject({ code: "ARCHIVE_TOO_LARGE" });
  });
});

describe("PPTX", () => {
  it("gives one page per slide in presentation order, with runs joined", async () => {
    const bytes = makePptx([
      ["Quarterly review", "Revenue grew", "Costs fell"],
      ["Roadmap", "Ship the viewer"],
      ["Questions?"],
    ]);
    expect(await extractor.countPages(bytes, "pptx")).toBe(3);
    const { pages } = await extractor.extract({ bytes, kind: "pptx", ocr: false });
    expect(pages.map((p) => [p.pageNumber, p.text])).toEqual([
      [1, "Quarterly review\nRevenue grew\nCosts fell"],
      [2, "Roadmap\nShip the viewer"],
      [3, "Questions?"],
    ]);
  });
});

describe("XLSX", () => {
  it("gives one page per sheet, rows as tab-separated lines", async () => {
    const bytes = await makeXlsx([
      { name: "Budget", rows: [["Item", "Cost"], ["Rent", 1200], ["Food", 350.5]] },
      { name: "Dates", rows: [["Start", new Date(Date.UTC(2025, 0, 31))], [null, "after a gap"]] },
    ]);
    expect(await extractor.countPages(bytes, "xlsx")).toBe(2);
    const { pages } = await extractor.extract({ bytes, kind: "xlsx", ocr: false });
    expect(pages[0]).toEqual({ pageNumber: 1, text: "Sheet: Budget\nItem\tCost\nRent\t1200\nFood\t350.5", blocks: [] });
    expect(pages[1].text).toBe("Sheet: Dates\nStart\t2025-01-31\n\tafter a gap");
  });
});

describe("old binary Office files", () => {
  it("explains how to convert a DOC when LibreOffice is not installed", async () => {
    const noOffice = new DefaultTextExtractor({ officeCommand: "/nonexistent/soffice" });
    const doc = Buffer.concat([Buffer.from("d0cf11e0a1b11ae1", "hex"), Buffer.from("WordDocument", "utf16le")]);
    await expect(noOffice.extract({ bytes: doc, kind: "doc", ocr: false })).rejects.toMatchObject({
      code: "UNSUPPORTED",
      message: "DOC files cannot be read on this server yet. Save it as DOCX or PDF and upload again.",
    });
    await expect(noOffice.countPages(doc, "ppt")).rejects.toMatchObject({
      message: "PPT files cannot be read on this server yet. Save it as PPTX or PDF and upload again.",
    });
  });
});
