/** XLSX through exceljs: one page per worksheet, rows as tab-separated lines. */
import ExcelJS from "exceljs";
import { ExtractionError } from "#application/ports/text-extraction";
import { assertRealSizeWithinLimits, type ArchiveLimits } from "#infrastructure/extraction/zip-archive";

/** A sheet's text is cut here: a million-row export is data, not something to chat over page by page. */
const MAX_SHEET_CHARS = 2_000_000;

function formatDate(date: Date): string {
  const iso = date.toISOString();
  return iso.endsWith("T00:00:00.000Z") ? iso.slice(0, 10) : iso.slice(0, 19).replace("T", " ");
}

/** exceljs cell values come in several shapes (rich text, formulas, links, errors). */
function cellText(value: ExcelJS.CellValue): string {
  if (value === null || value === undefined) return "";
  if (value instanceof Date) return formatDate(value);
  if (typeof value !== "object") return String(value);
  if ("richText" in value) return value.richText.map((run) => run.text).join("");
  if ("formula" in value || "sharedFormula" in value) return cellText((value as ExcelJS.CellFormulaValue).result ?? null);
  if ("hyperlink" in value) return String(value.text ?? value.hyperlink);
  if ("error" in value) return String(value.error);
  return "";
}

async function loadWorkbook(bytes: Buffer, limits: ArchiveLimits): Promise<ExcelJS.Workbook> {
  assertRealSizeWithinLimits(bytes, limits);
  const workbook = new ExcelJS.Workbook();
  try {
    // exceljs' typings want the older Buffer type; the bytes are the same.
    await workbook.xlsx.load(bytes as unknown as ExcelJS.Buffer);
  } catch {
    throw new ExtractionError("DAMAGED_FILE", "This Excel workbook is damaged and could not be read.");
  }
  return workbook;
}

export async function countXlsxSheets(bytes: Buffer, limits: ArchiveLimits): Promise<number> {
  return (await loadWorkbook(bytes, limits)).worksheets.length;
}

export async function extractXlsxPages(bytes: Buffer, limits: ArchiveLimits): Promise<{ pages: string[]; warnings: string[] }> {
  const workbook = await loadWorkbook(bytes, limits);
  const warnings: string[] = [];
  const pages = workbook.worksheets.map((sheet) => {
    // The sheet name heads the page, so a passage can be told apart from the same row elsewhere.
    const lines = [`Sheet: ${sheet.name}`];
    let chars = 0;
    let cut = false;
    sheet.eachRow({ includeEmpty: false }, (row) => {
      if (cut) return;
      const values = Array.isArray(row.values) ? row.values.slice(1) : [];
      const line = values.map((v) => cellText(v ?? null).replace(/[\t\r\n]+/g, " ")).join("\t").replace(/\t+$/, "");
      if (line.trim() === "") return;
      chars += line.length + 1;
      if (chars > MAX_SHEET_CHARS) {
        cut = true;
        return;
      }
      lines.push(line);
    });
    if (cut) warnings.push(`Sheet "${sheet.name}" is very large; only its first rows were read.`);
    return lines.join("\n");
  });
  return { pages, warnings };
}
