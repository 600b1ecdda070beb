/**
 * OCR with the tesseract command line (Debian's tesseract-ocr), and rasterizing PDF pages for it
 * with poppler's pdftoppm. Both are external programs so the Node process never loads image
 * codecs or OCR models itself.
 */
import { execFile } from "node:child_process";
import { dyingWithParent } from "#infrastructure/processes/dying-with-parent";
import { promisify } from "node:util";
import { ExtractionError, type LayoutBlock } from "#application/ports/text-extraction";
import { PAGE_HEIGHT, PAGE_WIDTH } from "#infrastructure/extraction/layout";
import { dehyphenateLines, noWords } from "#infrastructure/extraction/reading-text";

const run = promisify(execFile);

export interface OcrOptions {
  command: string;
  /** Language codes as tesseract takes them ("eng", "eng+deu"). */
  languages: string;
  timeoutMs: number;
}

export interface OcrPage {
  text: string;
  blocks: LayoutBlock[];
}

const isMissingProgram = (error: unknown): boolean =>
  typeof error === "object" && error !== null && (error as { code?: unknown }).code === "ENOENT";

export const ocrUnavailable = () =>
  new ExtractionError(
    "OCR_UNAVAILABLE",
    "Text in images cannot be read on this server right now because OCR is not installed. Upload a PDF with selectable text, a Word file or a text file instead.",
  );

interface TsvWord {
  block: number;
  paragraph: number;
  line: number;
  left: number;
  top: number;
  width: number;
  height: number;
  text: string;
}

/**
 * OCRs one image file. Text and boxes both come from one TSV run (not a second plain-text run),
 * halving the OCR time; lines are rebuilt from tesseract's block/paragraph/line numbers.
 */
export async function ocrImage(imagePath: string, options: OcrOptions, blockIdPrefix: string, dpi?: number): Promise<OcrPage> {
  const args = [imagePath, "stdout", "-l", options.languages];
  // Rendered PDF pages have a known resolution; telling tesseract avoids its guess and warning.
  if (dpi) args.push("--dpi", String(dpi));
  args.push("tsv");
  let stdout: string;
  try {
    ({ stdout } = await run(...dyingWithParent(options.command, args), {
      maxBuffer: 64 * 1024 * 1024,
      timeout: options.timeoutMs,
      // One thread per OCR keeps several concurrent ingestions from oversubscribing the CPU.
      env: { ...process.env, OMP_THREAD_LIMIT: "1" },
    }));
  } catch (error) {
    if (isMissingProgram(error)) throw ocrUnavailable();
    throw new ExtractionError("OCR_FAILED", "The image could not be read by OCR. It may be damaged or in an unsupported format.");
  }
  return parseTesseractTsv(stdout, blockIdPrefix);
}

/** Turns tesseract's TSV into text (lines, blank line between paragraphs) and one block per paragraph. */
export function parseTesseractTsv(tsv: string, blockIdPrefix: string): OcrPage {
  let imageWidth = 0;
  let imageHeight = 0;
  const words: TsvWord[] = [];
  for (const row of tsv.split("\n").slice(1)) {
    const cols = row.split("\t");
    if (cols.length < 12) continue;
    const [level, , block, paragraph, line, , left, top, width, height, confidence] = cols.slice(0, 11).map(Number);
    const text = cols.slice(11).join("\t").trim();
    if (level === 1) {
      imageWidth = width;
      imageHeight = height;
    } else if (level === 5 && text !== "" && confidence >= 0) {
      words.push({ block, paragraph, line, left, top, width, height, text });
    }
  }
  const sx = imageWidth > 0 ? PAGE_WIDTH / imageWidth : 1;
  const sy = imageHeight > 0 ? PAGE_HEIGHT / imageHeight : 1;

  const paragraphs = new Map<string, TsvWord[]>();
  for (const word of words) {
    const key = `${word.block}.${word.paragraph}`;
    const list = paragraphs.get(key) ?? [];
    list.push(word);
    paragraphs.set(key, list);
  }
  const blocks: LayoutBlock[] = [];
  for (const paragraphWords of paragraphs.values()) {
    const lines: string[] = [];
    let currentLine = -1;
    for (const word of paragraphWords) {
      if (word.line !== currentLine) {
        lines.push(word.text);
        currentLine = word.line;
      } else {
        lines[lines.length - 1] += ` ${word.text}`;
      }
    }
    // A scanned book breaks words at line ends just as its text layer would.
    const readable = dehyphenateLines(lines, noWords).filter((line) => line !== "");
    const left = Math.min(...paragraphWords.map((w) => w.left));
    const top = Math.min(...paragraphWords.map((w) => w.top));
    const right = Math.max(...paragraphWords.map((w) => w.left + w.width));
    const bottom = Math.max(...paragraphWords.map((w) => w.top + w.height));
    blocks.push({
      id: `${blockIdPrefix}-b${blocks.length + 1}`,
      text: readable.join("\n"),
      box: { left: left * sx, top: top * sy, width: (right - left) * sx, height: (bottom - top) * sy },
    });
  }
  return { text: blocks.map((b) => b.text).join("\n\n"), blocks };
}

/** Renders one PDF page to PNG at `dpi`; the page's /Rotate is applied, as the reader sees it. */
export async function rasterizePdfPage(
  command: string,
  pdfPath: string,
  pageNumber: number,
  outputPrefix: string,
  dpi: number,
  timeoutMs: number,
): Promise<string> {
  const page = String(pageNumber);
  try {
    // The crop box, the page as the viewer shows it: OCR boxes line up with it, and a printer's
    // slug or crop marks outside it are not read as the page's text.
    await run(...dyingWithParent(command, ["-r", String(dpi), "-cropbox", "-f", page, "-l", page, "-png", "-singlefile", pdfPath, outputPrefix]), {
      timeout: timeoutMs,
      maxBuffer: 4 * 1024 * 1024,
    });
  } catch (error) {
    if (isMissingProgram(error)) throw ocrUnavailable();
    throw new ExtractionError("OCR_FAILED", `Page ${pageNumber} could not be rendered for OCR.`);
  }
  return `${outputPrefix}.png`;
}
