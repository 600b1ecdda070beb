/**
 * PDF page layouts read by poppler (`pdftotext -bbox`, Debian's poppler-utils) instead of pdf.js
 * (issue #33, decision 212). Poppler gives every word with its box on the displayed page; the
 * words become the same fragments pdf.js's text items become, so lines, columns, table rows,
 * reading order and everything judged across the document (running lines, hyphens, garbage text,
 * OCR) are the same code for both. The work runs in child processes, a few page ranges at once,
 * each with a timeout and a memory limit: a hostile document can end its process, not ours, and
 * poppler's memory is returned when each process exits.
 */
import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { pageBlocks, type Fragment } from "#infrastructure/extraction/layout";
import type { PageLayout } from "#infrastructure/extraction/pdf";

export interface PopplerOptions {
  /** Directory of pdftotext and pdfinfo, or "" for PATH. */
  binDir?: string;
  tempDir: string;
  /** Per child process. */
  timeoutMs: number;
  /** Address space per child process, in MiB. */
  memoryMb?: number;
  /** Child processes at once (default: the cores, at most 4). */
  parallel?: number;
}

/** Poppler could not read the document (or is not installed): pdf.js gets its turn. */
export class PopplerFailed extends Error {
  override name = "PopplerFailed";
}

/** Fewer pages than this per process and starting processes costs more than it spreads. */
const MIN_PAGES_PER_PROCESS = 24;
const DEFAULT_MEMORY_MB = 1_024;

/** Runs a poppler command under a memory limit (ulimit -v in a shell that then becomes the command) and a timeout. */
function poppler(command: string, args: string[], options: PopplerOptions): Promise<string> {
  const memoryKb = (options.memoryMb ?? DEFAULT_MEMORY_MB) * 1024;
  const executable = options.binDir ? join(options.binDir, command) : command;
  return new Promise((resolve, reject) => {
    execFile(
      "/bin/sh",
      ["-c", 'ulimit -v "$1" && shift && exec "$@"', "sh", String(memoryKb), executable, ...args],
      { timeout: options.timeoutMs, killSignal: "SIGKILL", maxBuffer: 512 * 1024 * 1024, encoding: "utf8" },
      (error, stdout, stderr) => {
        if (error) reject(new PopplerFailed(`${command} failed: ${error.killed ? "timed out" : (stderr.trim().split("\n")[0] ?? error.message)}`));
        else resolve(stdout);
      },
    );
  });
}

async function pageCountOf(path: string, options: PopplerOptions): Promise<number> {
  const info = await poppler("pdfinfo", [path], options);
  const pages = Number(/^Pages:\s+(\d+)/m.exec(info)?.[1]);
  if (!Number.isInteger(pages) || pages < 0) throw new PopplerFailed("pdfinfo gave no page count");
  return pages;
}

/** The page count as poppler reads it; PopplerFailed when it cannot. */
export async function countPdfPagesWithPoppler(bytes: Buffer, options: PopplerOptions): Promise<number> {
  return withFile(bytes, options, (path) => pageCountOf(path, options));
}

async function withFile<T>(bytes: Buffer, options: PopplerOptions, work: (path: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(options.tempDir, "poppler-"));
  try {
    const path = join(dir, "input.pdf");
    await writeFile(path, bytes);
    return await work(path);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Every page's layout, in page order. Page ranges (`-f`/`-l`) run in parallel processes; any
 * failure (a damaged or encrypted file, a timeout, the memory limit) is a PopplerFailed.
 */
export async function readPdfLayoutsWithPoppler(bytes: Buffer, options: PopplerOptions): Promise<PageLayout[]> {
  return withFile(bytes, options, async (path) => {
    const pageCount = await pageCountOf(path, options);
    if (pageCount === 0) return [];
    const parallel = Math.max(1, options.parallel ?? Math.min(4, availableParallelism()));
    const processes = Math.max(1, Math.min(parallel, Math.floor(pageCount / MIN_PAGES_PER_PROCESS)));
    const perProcess = Math.ceil(pageCount / processes);
    const ranges = Array.from({ length: processes }, (_, i) => [i * perProcess + 1, Math.min(pageCount, (i + 1) * perProcess)] as const).filter(
      ([first, last]) => first <= last,
    );
    const outputs = await Promise.all(
      ranges.map(([first, last]) => poppler("pdftotext", ["-bbox", "-cropbox", "-enc", "UTF-8", "-f", String(first), "-l", String(last), path, "-"], options)),
    );
    const layouts = outputs.flatMap(parseBboxPages);
    if (layouts.length !== pageCount) throw new PopplerFailed(`pdftotext gave ${layouts.length} of ${pageCount} pages`);
    return layouts;
  });
}

const PAGE = /<page width="([\d.]+)" height="([\d.]+)">([\s\S]*?)<\/page>/g;
const WORD = /<word xMin="([-\d.]+)" yMin="([-\d.]+)" xMax="([-\d.]+)" yMax="([-\d.]+)">([^<]*)<\/word>/g;
const ENTITIES: Record<string, string> = { "&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": '"', "&apos;": "'", "&#39;": "'" };
const unescape = (text: string) => (text.includes("&") ? text.replace(/&(?:amp|lt|gt|quot|apos|#39);/g, (e) => ENTITIES[e]) : text);

/**
 * Boxes are on the crop box (`-cropbox`), the page as displayed, as pdf.js's viewport is. A word's
 * box runs from the font's descent to its ascent, 0.9 (Computer Modern) to 1.3 (Liberation) of the
 * font size that pdf.js gives and the layout's gap thresholds are measured in; poppler prints no
 * font size, and the box height is the nearest measure. 1 keeps the most pages of the corpus book
 * as pdf.js reads them (341–343 of 352); 0.9 mends the LaTeX paper's section numbers but splits a
 * LibreOffice table's header; a width-based estimate did worse on the book (decision 212).
 */
const BOX_PER_FONT_SIZE = 1;
/** Words closer than this many box heights on one baseline are one run of text, as pdf.js's items are. */
const RUN_GAP = 0.6;

/** `pdftotext -bbox` output (XHTML: pages of words with boxes on the displayed page) as page layouts. */
export function parseBboxPages(xhtml: string): PageLayout[] {
  const layouts: PageLayout[] = [];
  for (const page of xhtml.matchAll(PAGE)) {
    const width = Number(page[1]);
    const height = Number(page[2]);
    const fragments: Fragment[] = [];
    for (const word of page[3].matchAll(WORD)) {
      const left = Number(word[1]);
      const top = Number(word[2]);
      const right = Number(word[3]);
      const bottom = Number(word[4]);
      const boxWidth = right - left;
      const boxHeight = bottom - top;
      // Printer's marks and line numbers outside the crop box are not on the page a reader sees.
      if (!(boxHeight > 0) || right <= 0 || bottom <= 0 || left >= width || top >= height) continue;
      // Words set vertically on the displayed page (an axis label) are boxes taller than wide.
      const vertical = [...word[5]].length > 2 && boxHeight > 1.5 * boxWidth;
      const size = (vertical ? boxWidth : boxHeight) / BOX_PER_FONT_SIZE;
      const text = unescape(word[5]);
      const last = fragments[fragments.length - 1];
      // Poppler prints words; the layout reads runs of words (pdf.js's items), whose spaces are
      // certain, and measures only the wider gaps (columns, table cells, letter spacing).
      if (
        last?.horizontal && !vertical &&
        Math.abs(last.top - top) < 0.2 * boxHeight && Math.abs(last.bottom - bottom) < 0.2 * boxHeight &&
        left - last.right >= 0 && left - last.right < RUN_GAP * boxHeight
      ) {
        last.text += ` ${text}`;
        last.right = right;
        last.top = Math.min(last.top, top);
        last.bottom = Math.max(last.bottom, bottom);
        continue;
      }
      fragments.push({ text, left, top, right, bottom, size, horizontal: !vertical, rtl: false });
    }
    layouts.push({ blocks: pageBlocks(fragments, width), width, height });
  }
  return layouts;
}
