/**
 * Builders for test documents with known text, made in the test run instead of stored as binaries,
 * so every expectation is visible next to the document it checks.
 */
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import ExcelJS from "exceljs";
import { strToU8, zipSync, type Zippable } from "fflate";
import { degrees, PDFDocument, StandardFonts } from "pdf-lib";

const run = promisify(execFile);

export interface PdfPageSpec {
  /** Lines drawn top to bottom from the top-left margin. */
  lines: string[];
  /** /Rotate of the page; the text is drawn so it reads upright as displayed. */
  rotate?: 0 | 90 | 180 | 270;
  size?: number;
}

/** A4 portrait in PDF points, as pdf-lib and most writers use. */
const A4: [number, number] = [595.28, 841.89];

/**
 * Where a line is drawn in user space so that, after /Rotate, it sits `x`,`y` from the displayed
 * page's top-left corner and reads left to right.
 */
function placement(rotate: number, x: number, y: number, width: number, height: number) {
  switch (rotate) {
    case 90:
      // Displayed page is `height` wide; display (x, y) is user (y, x) and text runs up the user page.
      return { x: y, y: x, rotate: 90 };
    case 180:
      return { x: width - x, y: y, rotate: 180 };
    case 270:
      return { x: width - y, y: height - x, rotate: 270 };
    default:
      return { x, y: height - y, rotate: 0 };
  }
}

export async function makePdf(pages: PdfPageSpec[]): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const spec of pages) {
    const page = doc.addPage(A4);
    const rotate = spec.rotate ?? 0;
    page.setRotation(degrees(rotate));
    const size = spec.size ?? 12;
    spec.lines.forEach((line, index) => {
      const p = placement(rotate, 72, 72 + size + index * size * 1.4, A4[0], A4[1]);
      page.drawText(line, { x: p.x, y: p.y, size, font, rotate: degrees(p.rotate) });
    });
  }
  return Buffer.from(await doc.save());
}

/** A PDF whose only page is the given PNG filling the page: a "scan" with no text layer. */
export async function makeScannedPdf(png: Buffer): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const image = await doc.embedPng(png);
  const page = doc.addPage(A4);
  page.drawImage(image, { x: 0, y: 0, width: A4[0], height: A4[1] });
  return Buffer.from(await doc.save());
}

/** Renders lines of large text to a PNG (or JPEG) through a text PDF and pdftoppm (poppler). */
export async function renderTextPng(lines: string[], dpi = 150, format: "png" | "jpeg" = "png"): Promise<Buffer> {
  const pdf = await makePdf([{ lines, size: 28 }]);
  const dir = await mkdtemp(join(tmpdir(), "fixture-png-"));
  try {
    await writeFile(join(dir, "in.pdf"), pdf);
    await run("pdftoppm", ["-r", String(dpi), `-${format}`, "-singlefile", join(dir, "in.pdf"), join(dir, "out")]);
    return await readFile(join(dir, format === "png" ? "out.png" : "out.jpg"));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const xmlEscape = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

const W_NS = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';

/** Paragraph text, or PAGE for an explicit page break (a paragraph holding only w:br type=page). */
export const PAGE = Symbol("page break");

/** Body XML given as-is, for structures the string shorthand cannot say (tables, runs). */
export const rawXml = (xml: string) => ({ xml });

export function makeDocx(paragraphs: (string | typeof PAGE | { xml: string })[], extra: Zippable = {}): Buffer {
  const body = paragraphs
    .map((p) =>
      p === PAGE
        ? '<w:p><w:r><w:br w:type="page"/></w:r></w:p>'
        : typeof p === "object"
          ? p.xml
          : `<w:p><w:r><w:t xml:space="preserve">${xmlEscape(p)}</w:t></w:r></w:p>`,
    )
    .join("");
  return Buffer.from(
    zipSync({
      "[Content_Types].xml": strToU8(
        '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
          '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
          '<Default Extension="xml" ContentType="application/xml"/>' +
          '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
      ),
      "_rels/.rels": strToU8(
        '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
          '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
      ),
      "word/document.xml": strToU8(`<?xml version="1.0" encoding="UTF-8"?><w:document ${W_NS}><w:body>${body}</w:body></w:document>`),
      ...extra,
    }),
  );
}

/** Slides in order; each slide a list of paragraphs, split over two text boxes to check order. */
export function makePptx(slides: string[][]): Buffer {
  const A = 'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"';
  const P = 'xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"';
  const R = 'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"';
  const files: Zippable = {
    "[Content_Types].xml": strToU8(
      '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
        '<Default Extension="xml" ContentType="application/xml"/><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/></Types>',
    ),
  };
  // Slide files are numbered in reverse of presentation order, so reading by file name would be wrong.
  const count = slides.length;
  const ids = slides.map((_, i) => `<p:sldId id="${256 + i}" r:id="rId${i + 1}"/>`).join("");
  const rels = slides
    .map((_, i) => `<Relationship Id="rId${i + 1}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/slide" Target="slides/slide${count - i}.xml"/>`)
    .join("");
  files["ppt/presentation.xml"] = strToU8(`<?xml version="1.0" encoding="UTF-8"?><p:presentation ${A} ${P} ${R}><p:sldIdLst>${ids}</p:sldIdLst></p:presentation>`);
  files["ppt/_rels/presentation.xml.rels"] = strToU8(
    `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${rels}</Relationships>`,
  );
  slides.forEach((paragraphs, i) => {
    const shape = (ps: string[]) =>
      `<p:sp><p:txBody>${ps
        .map((p) => {
          // Two runs per paragraph, split mid-word: the text must be joined without a space.
          const cut = Math.floor(p.length / 2);
          return `<a:p><a:r><a:t>${xmlEscape(p.slice(0, cut))}</a:t></a:r><a:r><a:t>${xmlEscape(p.slice(cut))}</a:t></a:r></a:p>`;
        })
        .join("")}</p:txBody></p:sp>`;
    const half = Math.ceil(paragraphs.length / 2);
    files[`ppt/slides/slide${count - i}.xml`] = strToU8(
      `<?xml version="1.0" encoding="UTF-8"?><p:sld ${A} ${P} ${R}><p:cSld><p:spTree>${shape(paragraphs.slice(0, half))}${shape(paragraphs.slice(half))}</p:spTree></p:cSld></p:sld>`,
    );
  });
  return Buffer.from(zipSync(files));
}

export async function makeXlsx(sheets: { name: string; rows: (string | number | Date | null)[][] }[]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  for (const sheet of sheets) {
    const worksheet = workbook.addWorksheet(sheet.name);
    for (const row of sheet.rows) worksheet.addRow(row);
  }
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/**
 * A DOCX-shaped zip with one entry of `size` zero bytes, whose headers declare `declaredSize`
 * (the honest size unless given): a zip bomb that lies about itself when declaredSize is small.
 */
export function makeZipBomb(size: number, declaredSize = size): Buffer {
  const bytes = Buffer.from(makeDocx(["Harmless looking text."], { "word/media/bomb.bin": new Uint8Array(size) }));
  if (declaredSize === size) return bytes;
  // Patch the declared uncompressed size in the local header and the central directory entry.
  const name = Buffer.from("word/media/bomb.bin");
  for (const [signature, sizeOffset, nameOffset] of [
    [0x04034b50, 22, 30],
    [0x02014b50, 24, 46],
  ] as const) {
    for (let i = 0; i < bytes.length - 4; i++) {
      if (bytes.readUInt32LE(i) === signature && bytes.subarray(i + nameOffset, i + nameOffset + name.length).equals(name)) {
        bytes.writeUInt32LE(declaredSize, i + sizeOffset);
      }
    }
  }
  return bytes;
}
