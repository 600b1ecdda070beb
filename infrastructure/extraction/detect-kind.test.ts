import { describe, expect, it } from "vitest";
import { ExtractionError } from "#application/ports/text-extraction";
import { makeDocx, makePdf, makePptx, makeXlsx, makeZipBomb } from "#infrastructure/extraction/test-support/documents";
import { DefaultTextExtractor } from "#infrastructure/extraction/text-extractor";

const extractor = new DefaultTextExtractor();

const refusal = (run: () => unknown): ExtractionError => {
  try {
    run();
  } catch (error) {
    if (error instanceof ExtractionError) return error;
    throw error;
  }
  throw new Error("expected an ExtractionError");
};

const PNG = Buffer.from("89504e470d0a1a0a0000000d49484452", "hex");
const JPEG = Buffer.from("ffd8ffe000104a464946", "hex");
const OLE = (stream: string) =>
  Buffer.concat([Buffer.from("d0cf11e0a1b11ae1", "hex"), Buffer.alloc(500), Buffer.from(stream, "utf16le"), Buffer.alloc(100)]);

describe("detectKind", () => {
  it("accepts files whose extension and bytes agree", async () => {
    expect(extractor.detectKind(await makePdf([{ lines: ["x"] }]), "Report.PDF")).toBe("pdf");
    expect(extractor.detectKind(PNG, "photo.png")).toBe("png");
    expect(extractor.detectKind(JPEG, "photo.jpeg")).toBe("jpg");
    expect(extractor.detectKind(JPEG, "photo.jpg")).toBe("jpg");
    expect(extractor.detectKind(makeDocx(["Hello"]), "letter.docx")).toBe("docx");
    expect(extractor.detectKind(makePptx([["Slide"]]), "deck.pptx")).toBe("pptx");
    expect(extractor.detectKind(await makeXlsx([{ name: "S", rows: [[1]] }]), "book.xlsx")).toBe("xlsx");
    expect(extractor.detectKind(OLE("WordDocument"), "old.doc")).toBe("doc");
    expect(extractor.detectKind(OLE("PowerPoint Document"), "old.ppt")).toBe("ppt");
    expect(extractor.detectKind(OLE("Workbook"), "old.xls")).toBe("xls");
  });

  it("reads code and data files as text", () => {
    for (const name of ["notes.md", "data.csv", "config.json", "main.py", "app.js", "types.ts", "Main.java", "main.go", "lib.rs", "x.c", "x.cpp", "page.html", "Makefile"]) {
      expect(extractor.detectKind(Buffer.from("héllo wörld\n"), name)).toBe("txt");
    }
  });

  it("refuses a file whose bytes are not what its extension says", async () => {
    const pdfNamedDocx = refusal(() => extractor.detectKind(Buffer.from("just some text"), "x.pdf"));
    expect(pdfNamedDocx.code).toBe("TYPE_MISMATCH");
    expect(pdfNamedDocx.message).toBe('The file "x.pdf" is not a PDF.');

    const pdf = await makePdf([{ lines: ["x"] }]);
    expect(refusal(() => extractor.detectKind(pdf, "x.docx")).message).toBe('The file "x.docx" is not a Word document (DOCX).');
    expect(refusal(() => extractor.detectKind(PNG, "x.jpg")).code).toBe("TYPE_MISMATCH");
    expect(refusal(() => extractor.detectKind(makeDocx(["a"]), "x.pptx")).code).toBe("TYPE_MISMATCH");
    expect(refusal(() => extractor.detectKind(makePptx([["a"]]), "x.xlsx")).code).toBe("TYPE_MISMATCH");
    expect(refusal(() => extractor.detectKind(OLE("WordDocument"), "x.ppt")).code).toBe("TYPE_MISMATCH");
    expect(refusal(() => extractor.detectKind(pdf, "x.txt")).message).toBe('The file "x.txt" is not a text file.');
  });

  it("refuses a .txt that holds NUL bytes or is not valid UTF-8", () => {
    expect(refusal(() => extractor.detectKind(Buffer.from("abc\u0000def"), "notes.txt")).code).toBe("TYPE_MISMATCH");
    expect(refusal(() => extractor.detectKind(Buffer.from([0x61, 0xff, 0xfe, 0x62, 0xc3]), "notes.txt")).code).toBe("TYPE_MISMATCH");
  });

  it("accepts a text file that merely mentions %PDF-", () => {
    expect(extractor.detectKind(Buffer.from("Header bytes look like %PDF-1.7 in a PDF."), "notes.txt")).toBe("txt");
  });

  it("refuses unknown types and empty files", () => {
    expect(refusal(() => extractor.detectKind(Buffer.from("MZ"), "setup.exe")).code).toBe("UNSUPPORTED_TYPE");
    expect(refusal(() => extractor.detectKind(Buffer.alloc(0), "empty.pdf")).code).toBe("EMPTY_FILE");
  });

  it("refuses a zip bomb that declares its size before parsing anything", () => {
    const small = new DefaultTextExtractor({ maxUncompressedBytes: 1024 * 1024 });
    const error = refusal(() => small.detectKind(makeZipBomb(4 * 1024 * 1024), "bomb.docx"));
    expect(error.code).toBe("ARCHIVE_TOO_LARGE");
    expect(error.message).toMatch(/zip bomb/);
  });

  it("refuses archives with too many entries", () => {
    const few = new DefaultTextExtractor({ maxArchiveEntries: 2 });
    expect(refusal(() => few.detectKind(makeDocx(["a"]), "many.docx")).code).toBe("ARCHIVE_TOO_LARGE");
  });
});
