/**
 * PDF page layouts read by poppler (`pdftohtml -xml`, Debian's poppler-utils) instead of pdf.js
 * (issue #33, decisions 212–214). Poppler gives every string with its box on the displayed page;
 * the strings become the same fragments pdf.js's text items become, so lines, columns, table rows,
 * reading order and everything judged across the document (running lines, hyphens, garbage text,
 * OCR) are the same code for both. Poppler runs in a child process with a timeout and a memory
 * limit: a hostile document can end that process, not ours, and its memory is returned when it exits.
 */
import { execFile, spawn } from "node:child_process";
import { dyingWithParent } from "#infrastructure/processes/dying-with-parent";
import { randomUUID } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { pageBlocks, startsPlain, type Fragment } from "#infrastructure/extraction/layout";
import type { PageLayout } from "#infrastructure/extraction/pdf";

export interface PopplerOptions {
  /** Directory of pdftohtml and pdfinfo, or "" for PATH. */
  binDir?: string;
  tempDir: string;
  /** Per child process. */
  timeoutMs: number;
  /** Address space per child process, in MiB. */
  memoryMb?: number;
}

/** Poppler could not read the document (or is not installed): pdf.js gets its turn. */
export class PopplerFailed extends Error {
  override name = "PopplerFailed";
}

const DEFAULT_MEMORY_MB = 1_024;

/** Where a poppler command is run from, and the address space (`ulimit -v`, in KiB) each of its processes gets. */
const executableOf = (options: PopplerOptions, command: string) => (options.binDir ? join(options.binDir, command) : command);
const memoryKbOf = (options: PopplerOptions) => String((options.memoryMb ?? DEFAULT_MEMORY_MB) * 1024);

/** Runs a poppler command under a memory limit (ulimit -v in a shell that then becomes the command) and a timeout. */
function poppler(command: string, args: string[], options: PopplerOptions): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      ...dyingWithParent("/bin/sh", ["-c", 'ulimit -v "$1" && shift && exec "$@"', "sh", memoryKbOf(options), executableOf(options, command), ...args]),
      { timeout: options.timeoutMs, killSignal: "SIGKILL", maxBuffer: 16 * 1024 * 1024, encoding: "utf8" },
      (error, stdout, stderr) => {
        if (error) reject(new PopplerFailed(`${command} failed: ${error.killed ? "timed out" : (stderr.trim().split("\n")[0] ?? error.message)}`));
        else resolve(stdout);
      },
    );
  });
}

/** PDF user-space boxes (x0 y0 x1 y1, y upwards) and the page's rotation, as pdfinfo prints them. */
export interface PageGeometry {
  media: number[];
  crop: number[];
  rotation: number;
}

/** The page count and each page's boxes, from `pdfinfo -box -f 1 -l <last>` (it reads page dictionaries, not content). */
function geometryIn(info: string): { pageCount: number; pages: Map<number, PageGeometry> } {
  const pageCount = pageCountIn(info);
  const pages = new Map<number, PageGeometry>();
  for (const [, page, field, values] of info.matchAll(/^Page\s+(\d+) (MediaBox|CropBox|rot):\s+(.*)$/gm)) {
    const geometry = pages.get(Number(page)) ?? { media: [], crop: [], rotation: 0 };
    if (field === "rot") geometry.rotation = ((Number(values) % 360) + 360) % 360;
    else geometry[field === "MediaBox" ? "media" : "crop"] = values.trim().split(/\s+/).map(Number);
    pages.set(Number(page), geometry);
  }
  return { pageCount, pages };
}

/** The "Pages:" line of pdfinfo's output. */
function pageCountIn(info: string): number {
  const pages = Number(/^Pages:\s+(\d+)/m.exec(info)?.[1]);
  if (!Number.isInteger(pages) || pages < 0) throw new PopplerFailed("pdfinfo gave no page count");
  return pages;
}

/** The page count as poppler reads it; PopplerFailed when it cannot. */
export async function countPdfPagesWithPoppler(bytes: Buffer, options: PopplerOptions): Promise<number> {
  return withFile(bytes, options, async (path) => pageCountIn(await poppler("pdfinfo", [path], options)));
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
 * pdfinfo, then pdftohtml, in one process under one memory limit: a process started from a Node
 * process holding a book's layouts costs milliseconds to fork, and these run for every document.
 * pdfinfo's output ends at the marker ($4); `exec` makes the shell pdftohtml, so a kill reaches it.
 * pdftohtml writes its output through a buffer of 256 KiB (coreutils' stdbuf, where there is one):
 * with stdio's 4 KiB, a book's 3 MB arrived in some 800 pieces, and waking for each took this
 * process more CPU than laying out the pages it held (decision 224).
 */
const READ_SCRIPT =
  'ulimit -v "$1" && "$2" -box -f 1 -l 2147483647 "$5" && echo "$4" && set -- "$3" -xml -stdout -i -q -hidden -nodrm -noroundcoord -zoom "$6" "$5" && ' +
  'if command -v stdbuf >/dev/null; then exec stdbuf -o 262144 "$@"; else exec "$@"; fi';

/**
 * Every page's layout, in page order. Each page is laid out as soon as pdftohtml has printed it,
 * so this process works on one core while poppler reads the next pages on the other (decision 214:
 * one poppler process per document, not one per page range). Any failure (a damaged or encrypted
 * file, a timeout, the memory limit) is a PopplerFailed.
 */
export async function readPdfLayoutsWithPoppler(bytes: Buffer, options: PopplerOptions): Promise<PageLayout[]> {
  // Unguessable, so no text in the document's metadata (which pdfinfo prints) can pass for it.
  const marker = `<!-- end of pdfinfo ${randomUUID()} -->`;
  return withFile(bytes, options, (path) => {
    const args = ["-c", READ_SCRIPT, "sh", memoryKbOf(options), executableOf(options, "pdfinfo"), executableOf(options, "pdftohtml"), marker, path, String(ZOOM)];
    // In the document's own folder: anything pdftohtml writes beside its output goes with it.
    const child = spawn(...dyingWithParent("/bin/sh", args), { cwd: dirname(path), stdio: ["ignore", "pipe", "pipe"] });
    return new Promise<PageLayout[]>((resolve, reject) => {
      const info = new PieceEnds(Buffer.from(marker));
      let stderr = "";
      let document: { pageCount: number; pages: PopplerPages } | undefined;
      let failure: Error | undefined;
      const stop = (error: Error) => {
        failure ??= error;
        child.kill("SIGKILL");
      };
      const timer = setTimeout(() => stop(new PopplerFailed(`${document ? "pdftohtml" : "pdfinfo"} failed: timed out`)), options.timeoutMs);
      child.stderr.setEncoding("utf8");
      child.stderr.on("data", (chunk: string) => {
        if (stderr.length < 4096) stderr += chunk;
      });
      child.stdout.on("data", (chunk: Buffer) => {
        if (failure) return;
        try {
          if (document) return document.pages.push(chunk);
          const read = info.take(chunk);
          if (read === undefined) return;
          const { pageCount, pages } = geometryIn(read.toString("utf8", 0, read.length - marker.length));
          document = { pageCount, pages: new PopplerPages(pages) };
          document.pages.push(info.rest());
        } catch (error) {
          stop(error instanceof PopplerFailed ? error : new PopplerFailed(`pdftohtml's output could not be read: ${error instanceof Error ? error.message : String(error)}`));
        }
      });
      child.once("error", (error) => stop(new PopplerFailed(`poppler could not be started: ${error.message}`)));
      child.once("close", (code, signal) => {
        clearTimeout(timer);
        if (document?.pageCount === 0) return resolve([]);
        if (failure) return reject(failure);
        if (code !== 0 || signal) return reject(new PopplerFailed(`${document ? "pdftohtml" : "pdfinfo"} failed: ${stderr.trim().split("\n")[0] || (signal ?? `exit code ${code}`)}`));
        const layouts = document?.pages.layouts ?? [];
        if (layouts.length !== document?.pageCount) return reject(new PopplerFailed(`pdftohtml gave ${layouts.length} of ${document?.pageCount ?? "?"} pages`));
        resolve(layouts);
      });
    });
  });
}

/**
 * pdftohtml's coordinates and font sizes are multiplied by the zoom; at 3 (its largest) font sizes,
 * which it prints as whole numbers, are a third of a point apart. `-noroundcoord` keeps boxes exact.
 */
const ZOOM = 3;

/** Where the last numberAt stopped reading. */
let scanned = 0;

/**
 * The decimal number pdftohtml printed at `at` ("-12.345678"), read in place: a book holds tens of
 * thousands of strings with four numbers each, and slicing each out to convert it was most of the parse.
 */
function numberAt(xml: string, at: number): number {
  let i = at;
  const negative = xml.charCodeAt(i) === 45;
  if (negative) i++;
  let value = 0;
  let code = xml.charCodeAt(i);
  while (code >= 48 && code <= 57) {
    value = value * 10 + (code - 48);
    code = xml.charCodeAt(++i);
  }
  if (code === 46) {
    let scale = 0.1;
    code = xml.charCodeAt(++i);
    while (code >= 48 && code <= 57) {
      value += (code - 48) * scale;
      scale /= 10;
      code = xml.charCodeAt(++i);
    }
  }
  scanned = i;
  return negative ? -value : value;
}

/** The number of attribute `name` (written with its `="`) at or after `from`. */
const attribute = (xml: string, name: string, from: number) => numberAt(xml, xml.indexOf(name, from) + name.length);

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };
/** Inline markup (<b>, <i>, <a href>) goes; entities become their characters. */
function plainText(xml: string): string {
  const text = xml.includes("<") ? xml.replace(/<[^>]*>/g, "") : xml;
  if (!text.includes("&")) return text;
  return text.replace(/&(#x?[\da-f]+|\w+);/gi, (whole, name: string) =>
    name[0] === "#" ? String.fromCodePoint(name[1] === "x" || name[1] === "X" ? parseInt(name.slice(2), 16) : Number(name.slice(1))) : (ENTITIES[name] ?? whole),
  );
}

/**
 * Text of dingbats alone (a printer's barcode, ornaments) holds no words; pdf.js gives none for
 * ZapfDingbats, poppler gives its symbols, which would make a page look like a garbage text layer.
 */
/** Single letters, each followed by one space. */
const LETTER_SPACED = /^\p{L}(?: \p{L})+$/u;
const ORNAMENTS = /^[\s\u2700-\u27BF]+$/;

/**
 * pdftohtml draws the media box; pdf.js's viewport, the page a reader sees, is the crop box. The
 * crop box's size and its corner's offset in pdftohtml's (rotated, top-left) coordinates.
 */
function cropOf(geometry: PageGeometry | undefined, width: number, height: number): { width: number; height: number; dx: number; dy: number } {
  if (!geometry || geometry.media.length !== 4 || geometry.crop.length !== 4) return { width, height, dx: 0, dy: 0 };
  const [mx0, my0, mx1, my1] = geometry.media;
  // The crop box never reaches outside the media box (PDF 32000 §14.11.2).
  const [cx0, cy0, cx1, cy1] = [Math.max(mx0, geometry.crop[0]), Math.max(my0, geometry.crop[1]), Math.min(mx1, geometry.crop[2]), Math.min(my1, geometry.crop[3])];
  if (!(cx1 > cx0 && cy1 > cy0)) return { width, height, dx: 0, dy: 0 };
  const [w, h] = [cx1 - cx0, cy1 - cy0];
  switch (geometry.rotation) {
    case 90:
      return { width: h, height: w, dx: cy0 - my0, dy: cx0 - mx0 };
    case 180:
      return { width: w, height: h, dx: mx1 - cx1, dy: cy0 - my0 };
    case 270:
      return { width: h, height: w, dx: my1 - cy1, dy: mx1 - cx1 };
    default:
      return { width: w, height: h, dx: cx0 - mx0, dy: my1 - cy1 };
  }
}

/**
 * `pdftohtml -xml` output as page layouts, read a piece at a time as poppler prints it. Poppler
 * joins a line's characters into strings as pdf.js joins them into text items, breaking where a gap
 * opens or the font changes, and prints each string's font size: the fragments are what pdf.js's
 * items become, and the layout's gap thresholds (measured in font sizes) read both alike. Boxes are
 * on the crop box, the page as displayed, as pdf.js's viewport is.
 */
export class PopplerPages {
  /** Every complete page read so far, in order. */
  readonly layouts: PageLayout[] = [];
  /** Font ids run across the document; each is declared on the page that first uses it. */
  private readonly fontSizes = new Map<number, number>();
  /** Output after the last complete page. */
  private readonly output = new PieceEnds(Buffer.from(PAGE_END));

  constructor(private readonly geometry: ReadonlyMap<number, PageGeometry> = new Map()) {}

  /** Reads the pages that `piece` completes; the rest waits for the next piece. */
  push(piece: Buffer): void {
    const complete = this.output.take(piece);
    // Byte for character (latin1): the markup is ASCII, and a string's text is decoded from UTF-8
    // where it holds other bytes. Decoding the whole output as UTF-8 took four times as long, and
    // one curly quote made a piece's every string two bytes a character.
    if (complete) readPages(complete.toString("latin1"), this.layouts, this.fontSizes, this.geometry);
  }
}

/**
 * The pages that `xml` (whole pages of pdftohtml's output) holds, added to `layouts`. A function of
 * the module, not a method: the optimized parse then checks the shape of no object made for one
 * document. V8 keeps a class instance's shape only while an instance lives, so between two
 * documents the garbage collector dropped the reader's shape, and the parse compiled against it
 * was thrown away and compiled again for every document (decision 225).
 */
function readPages(xml: string, layouts: PageLayout[], fontSizes: Map<number, number>, geometry: ReadonlyMap<number, PageGeometry>): void {
  const end = xml.length;
  let page: { width: number; height: number; dx: number; dy: number; fragments: Fragment[] } | undefined;
  for (let at = xml.indexOf("<"); at >= 0 && at < end; at = xml.indexOf("<", at + 1)) {
    if (xml.startsWith('<text top="', at)) {
      const top = numberAt(xml, at + 11) / ZOOM - (page?.dy ?? 0);
      const left = attribute(xml, ' left="', scanned) / ZOOM - (page?.dx ?? 0);
      const width = attribute(xml, ' width="', scanned) / ZOOM;
      const height = attribute(xml, ' height="', scanned) / ZOOM;
      const font = attribute(xml, ' font="', scanned);
      const content = scanned + 2;
      const close = xml.indexOf("</text>", content);
      if (close < 0) break;
      at = close;
      if (!page) continue;
      const bytes = xml.slice(content, close);
      const text = plainText(NOT_ASCII.test(bytes) ? Buffer.from(bytes, "latin1").toString("utf8") : bytes);
      if (!(height > 0) || (!startsPlain(text) && (text.trim() === "" || ORNAMENTS.test(text)))) continue;
      const size = fontSizes.get(font) || height;
      // Text that does not run across the displayed page (an axis label, a sideways page) is
      // printed with no width: one fragment of its own, a box of a line's height at its start.
      const horizontal = width > 0;
      const right = left + (horizontal ? width : height);
      // Poppler's box runs over the font's whole bounding box, 0.9 (Computer Modern) to 1.3
      // (DejaVu) of the font size: a box one font size tall about its middle measures the gaps
      // between lines (paragraph breaks) alike for every font, as pdf.js's boxes do.
      const middle = top + height / 2;
      const half = horizontal ? Math.min(height, size) / 2 : height / 2;
      const [upper, bottom] = [middle - half, middle + half];
      // Printer's marks and line numbers outside the crop box are not on the page a reader sees.
      if (right <= 0 || bottom <= 0 || left >= page.width || upper >= page.height) continue;
      if (horizontal && text.charCodeAt(1) === 32 && LETTER_SPACED.test(text)) {
        // "E N G U I N": poppler keeps letter-spaced text as one string with spaces, pdf.js as a
        // fragment per letter, which is what the layout measures word gaps between.
        const letters = text.split(" ");
        const step = (right - left) / letters.length;
        for (const [i, letter] of letters.entries()) page.fragments.push({ text: letter, left: left + i * step, top: upper, right: left + (i + 0.6) * step, bottom, size, horizontal, rtl: false });
        continue;
      }
      page.fragments.push({ text, left, top: upper, right, bottom, size, horizontal, rtl: false });
    } else if (xml.startsWith("<page ", at)) {
      const number = attribute(xml, ' number="', at);
      const height = attribute(xml, ' height="', at) / ZOOM;
      const width = attribute(xml, ' width="', at) / ZOOM;
      const crop = cropOf(geometry.get(number), width, height);
      // Spelled out, not spread: a spread's object shape is made afresh by each document and
      // dropped by the garbage collector after it, and the optimized parse with it (decision 225).
      page = { width: crop.width, height: crop.height, dx: crop.dx, dy: crop.dy, fragments: [] };
    } else if (xml.startsWith('<fontspec id="', at)) {
      const id = numberAt(xml, at + 14);
      // The size is printed rounded to a third of a point; its lower edge keeps a LaTeX table's
      // column gap (12 pt at 9.96 pt, just over the layout's 1.2 font sizes) a cell gap, as pdf.js reads it.
      fontSizes.set(id, Math.max(0.5, attribute(xml, ' size="', scanned) - 0.5) / ZOOM);
    } else if (page && xml.startsWith(PAGE_END, at)) {
      layouts.push({ blocks: pageBlocks(page.fragments), width: page.width, height: page.height });
      page = undefined;
    }
  }
}

const PAGE_END = "</page>";
/** A byte of a character outside ASCII, in output decoded byte for character. */
const NOT_ASCII = /[\x80-\xff]/;

/**
 * Output arriving in pieces, handed on up to the last occurrence of `end` (a page's end, the
 * marker after pdfinfo's output) as soon as a piece completes one; the rest waits for more. The
 * end may be split across pieces; it is looked for in the new piece and, for one split across its
 * start, in the few bytes before it, so nothing already waiting is searched again.
 */
class PieceEnds {
  private waiting: Buffer[] = [];
  /** The last end.length - 1 bytes waiting (all of them when fewer). */
  private tail: Buffer = Buffer.alloc(0);

  constructor(private readonly end: Buffer) {}

  /** Everything up to and with the last end that `piece` completes, or undefined while none. */
  take(piece: Buffer): Buffer | undefined {
    let at = piece.lastIndexOf(this.end);
    if (at >= 0) at += this.end.length;
    else {
      const across = Buffer.concat([this.tail, piece.subarray(0, this.end.length - 1)]).lastIndexOf(this.end);
      if (across >= 0) at = across + this.end.length - this.tail.length;
    }
    if (at < 0) {
      this.waiting.push(piece);
      this.tail = (piece.length >= this.end.length - 1 ? piece : Buffer.concat([this.tail, piece])).subarray(-(this.end.length - 1));
      return undefined;
    }
    const complete = Buffer.concat([...this.waiting, piece.subarray(0, at)]);
    const rest = piece.subarray(at);
    this.waiting = [rest];
    this.tail = rest.subarray(-(this.end.length - 1));
    return complete;
  }

  /** What waits after the last end. */
  rest(): Buffer {
    return Buffer.concat(this.waiting);
  }
}

/** A whole `pdftohtml -xml` output's pages. */
export function parseXmlPages(xml: string, geometry: ReadonlyMap<number, PageGeometry> = new Map()): PageLayout[] {
  const pages = new PopplerPages(geometry);
  pages.push(Buffer.from(xml));
  return pages.layouts;
}
