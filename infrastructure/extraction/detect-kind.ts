/**
 * Deciding what an upload is: the extension says what the user thinks it is, the bytes say
 * what it really is, and both must agree before anything parses it.
 */
import { ExtractionError, type FileKind } from "#application/ports/text-extraction";
import {
  assertDeclaredSizesWithinLimits,
  DEFAULT_ARCHIVE_LIMITS,
  isZip,
  readZipDirectory,
  type ArchiveLimits,
} from "#infrastructure/extraction/zip-archive";

/** Code and data files people upload to chat about; all read as plain text. */
const TEXT_EXTENSIONS = new Set([
  "txt", "text", "md", "markdown", "rst", "adoc", "org", "tex", "bib", "log",
  "csv", "tsv", "json", "jsonl", "ndjson", "yaml", "yml", "toml", "ini", "cfg", "conf", "env", "xml", "svg",
  "html", "htm", "css", "scss", "less",
  "py", "js", "mjs", "cjs", "jsx", "ts", "mts", "cts", "tsx", "java", "kt", "kts", "scala", "groovy",
  "go", "rs", "c", "h", "cpp", "cc", "cxx", "hpp", "hh", "cs", "fs", "swift", "m", "mm",
  "rb", "php", "pl", "pm", "lua", "r", "jl", "dart", "ex", "exs", "erl", "hs", "clj", "elm", "vue", "svelte",
  "sh", "bash", "zsh", "fish", "ps1", "bat", "sql", "graphql", "gql", "proto", "gradle", "dockerfile", "makefile",
]);

const AUDIO_EXTENSIONS = new Set(["mp3", "wav", "m4a", "ogg", "oga", "opus", "webm", "flac", "aac"]);

const EXTENSION_KINDS: Record<string, FileKind> = {
  pdf: "pdf",
  docx: "docx",
  doc: "doc",
  pptx: "pptx",
  ppt: "ppt",
  xlsx: "xlsx",
  xls: "xls",
  jpg: "jpg",
  jpeg: "jpg",
  png: "png",
};

/** What the user is told the file is not ("The file "x.pdf" is not a PDF."). */
const KIND_LABELS: Record<FileKind, string> = {
  pdf: "a PDF",
  txt: "a text file",
  docx: "a Word document (DOCX)",
  doc: "a Word document (DOC)",
  pptx: "a PowerPoint presentation (PPTX)",
  ppt: "a PowerPoint presentation (PPT)",
  xlsx: "an Excel workbook (XLSX)",
  xls: "an Excel workbook (XLS)",
  jpg: "a JPEG image",
  png: "a PNG image",
  html: "a web page",
  audio: "an audio file",
};

export function extensionOf(fileName: string): string {
  const base = fileName.split(/[\\/]/).pop() ?? "";
  const dot = base.lastIndexOf(".");
  // Extensionless names such as "Makefile" or "Dockerfile" are text files by convention.
  return dot < 0 ? base.toLowerCase() : base.slice(dot + 1).toLowerCase();
}

function expectedKind(fileName: string): FileKind {
  const extension = extensionOf(fileName);
  const kind = EXTENSION_KINDS[extension];
  if (kind) return kind;
  if (TEXT_EXTENSIONS.has(extension)) return "txt";
  if (AUDIO_EXTENSIONS.has(extension)) return "audio";
  throw new ExtractionError(
    "UNSUPPORTED_TYPE",
    `The file "${fileName}" is of a type that cannot be read. Upload a PDF, Word, PowerPoint, Excel, text or image file.`,
  );
}

const startsWith = (bytes: Buffer, signature: number[], at = 0): boolean =>
  bytes.length >= at + signature.length && signature.every((b, i) => bytes[at + i] === b);

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const JPEG = [0xff, 0xd8, 0xff];
const OLE = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];

/** PDFs may carry a few bytes of junk before the header; readers accept it within 1 KiB. */
const isPdf = (bytes: Buffer, expected: FileKind): boolean =>
  bytes.subarray(0, 5).toString("latin1") === "%PDF-" ||
  // Only a file that claims to be a PDF gets the lenient check: a text file may mention "%PDF-".
  (expected === "pdf" && bytes.subarray(0, 1024).includes("%PDF-"));

function zipKind(bytes: Buffer, limits: ArchiveLimits): FileKind | undefined {
  const entries = readZipDirectory(bytes);
  assertDeclaredSizesWithinLimits(entries, limits);
  const names = new Set(entries.map((e) => e.name));
  if (!names.has("[Content_Types].xml")) return undefined;
  if (names.has("word/document.xml")) return "docx";
  if (names.has("ppt/presentation.xml")) return "pptx";
  if (names.has("xl/workbook.xml")) return "xlsx";
  return undefined;
}

/** Old Office files are OLE containers; the stream names (UTF-16 in the directory) tell them apart. */
function oleKind(bytes: Buffer): FileKind | undefined {
  const has = (name: string) => bytes.includes(Buffer.from(name, "utf16le"));
  if (has("WordDocument")) return "doc";
  if (has("PowerPoint Document")) return "ppt";
  if (has("Workbook") || has("Book")) return "xls";
  return undefined;
}

function isAudio(bytes: Buffer): boolean {
  const ascii = bytes.toString("latin1", 0, 12);
  return (
    ascii.startsWith("ID3") ||
    (bytes[0] === 0xff && ((bytes[1] ?? 0) & 0xe0) === 0xe0) ||
    (ascii.startsWith("RIFF") && ascii.slice(8, 12) === "WAVE") ||
    ascii.startsWith("OggS") ||
    ascii.startsWith("fLaC") ||
    ascii.slice(4, 8) === "ftyp" ||
    startsWith(bytes, [0x1a, 0x45, 0xdf, 0xa3])
  );
}

/** UTF-8 (optionally with BOM) or UTF-16 with BOM, and no NUL characters: binary files have them. */
export function decodeText(bytes: Buffer): string | undefined {
  let text: string;
  try {
    if (startsWith(bytes, [0xff, 0xfe])) text = new TextDecoder("utf-16le", { fatal: true }).decode(bytes.subarray(2));
    else if (startsWith(bytes, [0xfe, 0xff])) text = new TextDecoder("utf-16be", { fatal: true }).decode(bytes.subarray(2));
    else text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return undefined;
  }
  return text.includes("\u0000") ? undefined : text;
}

/** The kind the bytes actually are, or undefined when they match none we know. */
function sniff(bytes: Buffer, expected: FileKind, limits: ArchiveLimits): FileKind | undefined {
  if (isPdf(bytes, expected)) return "pdf";
  if (startsWith(bytes, PNG)) return "png";
  if (startsWith(bytes, JPEG)) return "jpg";
  if (isZip(bytes)) return zipKind(bytes, limits);
  if (startsWith(bytes, OLE)) return oleKind(bytes) ?? (["doc", "ppt", "xls"].includes(expected) ? expected : undefined);
  if (expected === "audio" && isAudio(bytes)) return "audio";
  if (decodeText(bytes) !== undefined) return "txt";
  return undefined;
}

export function detectKind(bytes: Buffer, fileName: string, limits: ArchiveLimits = DEFAULT_ARCHIVE_LIMITS): FileKind {
  const expected = expectedKind(fileName);
  if (bytes.length === 0) throw new ExtractionError("EMPTY_FILE", `The file "${fileName}" is empty.`);
  const actual = sniff(bytes, expected, limits);
  if (actual !== expected) {
    throw new ExtractionError("TYPE_MISMATCH", `The file "${fileName}" is not ${KIND_LABELS[expected]}.`);
  }
  return actual;
}
