/**
 * Word and PowerPoint: DOCX through mammoth's document model, PPTX slide text straight from the
 * slide XML, and the old binary formats (DOC, PPT, XLS) through LibreOffice when it is installed.
 */
import { execFile } from "node:child_process";
import { dyingWithDescendants } from "#infrastructure/processes/dying-with-parent";
import { mkdtemp, readFile, readdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { XMLParser } from "fast-xml-parser";
import mammoth from "mammoth";
import { ExtractionError } from "#application/ports/text-extraction";
import { splitParagraphsIntoPages } from "#infrastructure/extraction/page-rules";
import { readZipEntries, type ArchiveLimits } from "#infrastructure/extraction/zip-archive";

const run = promisify(execFile);

/** The parts of mammoth's document model we read (mammoth types it as `any`). */
interface DocxNode {
  type: string;
  value?: string;
  breakType?: string;
  children?: DocxNode[];
}

const PAGE_BREAK = Symbol("page break");
type Piece = string | typeof PAGE_BREAK;

/** Flattens mammoth's tree into paragraphs and explicit page breaks, in document order. */
function collectPieces(root: DocxNode): Piece[] {
  const pieces: Piece[] = [];
  let current = "";
  const endParagraph = () => {
    if (current.trim() !== "") pieces.push(current.trim());
    current = "";
  };
  const cellText = (node: DocxNode): string => {
    const saved = current;
    current = "";
    const inner: string[] = [];
    for (const child of node.children ?? []) {
      walk(child, inner);
    }
    const text = [...inner, current].map((s) => s.trim()).filter(Boolean).join(" ");
    current = saved;
    return text;
  };
  // `sink` collects paragraphs inside table cells, which become one line per row.
  const walk = (node: DocxNode, sink?: string[]) => {
    switch (node.type) {
      case "text":
        current += node.value ?? "";
        return;
      case "tab":
        current += "\t";
        return;
      case "break":
        if (node.breakType === "page" && !sink) {
          endParagraph();
          pieces.push(PAGE_BREAK);
        } else {
          current += "\n";
        }
        return;
      case "table": {
        endParagraph();
        const rows = (node.children ?? []).map((row) => (row.children ?? []).map(cellText).join("\t"));
        const table = rows.filter((r) => r.trim() !== "").join("\n");
        if (table !== "") pieces.push(table);
        return;
      }
      case "paragraph":
        for (const child of node.children ?? []) walk(child, sink);
        if (sink) {
          sink.push(current);
          current = "";
        } else {
          endParagraph();
        }
        return;
      default:
        for (const child of node.children ?? []) walk(child, sink);
    }
  };
  walk(root);
  endParagraph();
  return pieces;
}

/** DOCX pages: explicit page breaks first, then the words rule within each stretch (see page-rules). */
export async function extractDocxPages(bytes: Buffer, limits: ArchiveLimits): Promise<string[]> {
  // Inflating every part with our own limits first means mammoth never meets a zip bomb.
  readZipEntries(bytes, limits);
  let pieces: Piece[] = [];
  try {
    await mammoth.convertToHtml(
      { buffer: bytes },
      {
        transformDocument: (document: DocxNode) => {
          pieces = collectPieces(document);
          return document;
        },
      },
    );
  } catch {
    throw new ExtractionError("DAMAGED_FILE", "This Word document is damaged and could not be read.");
  }
  const stretches: string[][] = [[]];
  for (const piece of pieces) {
    if (piece === PAGE_BREAK) stretches.push([]);
    else stretches[stretches.length - 1].push(piece);
  }
  const pages = stretches.filter((s) => s.length > 0).flatMap((s) => splitParagraphsIntoPages(s));
  return pages.length > 0 ? pages : [""];
}

type XmlNode = Record<string, unknown>;

const orderedParser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: "",
  // Keep text exactly: runs like "Hello " + "world" rely on their spaces, and "007" is text.
  trimValues: false,
  parseTagValue: false,
  parseAttributeValue: false,
});

const tagOf = (node: XmlNode): string | undefined => Object.keys(node).find((k) => k !== ":@");
const childrenOf = (node: XmlNode, tag: string): XmlNode[] => (Array.isArray(node[tag]) ? (node[tag] as XmlNode[]) : []);
const attributesOf = (node: XmlNode): Record<string, string> => (node[":@"] as Record<string, string> | undefined) ?? {};

function findAll(nodes: XmlNode[], tag: string, found: XmlNode[] = []): XmlNode[] {
  for (const node of nodes) {
    const name = tagOf(node);
    if (!name || name === "#text") continue;
    if (name === tag) found.push(node);
    findAll(childrenOf(node, name), tag, found);
  }
  return found;
}

/** Text of a DrawingML paragraph: its a:t runs, a:br as a line break. */
function paragraphText(nodes: XmlNode[]): string {
  let text = "";
  for (const node of nodes) {
    const name = tagOf(node);
    if (!name) continue;
    if (name === "#text") continue;
    if (name === "a:t") text += childrenOf(node, name).map((t) => String(t["#text"] ?? "")).join("");
    else if (name === "a:br") text += "\n";
    else text += paragraphText(childrenOf(node, name));
  }
  return text;
}

const decodeXml = (data: Uint8Array | undefined): XmlNode[] =>
  data ? (orderedParser.parse(Buffer.from(data).toString("utf8")) as XmlNode[]) : [];

/** Slide part names in presentation order (p:sldIdLst), resolved through the presentation's relationships. */
function slideOrder(entries: Map<string, Uint8Array>): string[] {
  const presentation = decodeXml(entries.get("ppt/presentation.xml"));
  const relationships = decodeXml(entries.get("ppt/_rels/presentation.xml.rels"));
  const targets = new Map<string, string>();
  for (const rel of findAll(relationships, "Relationship")) {
    const { Id, Target } = attributesOf(rel);
    if (Id && Target) targets.set(Id, Target.startsWith("/") ? Target.slice(1) : `ppt/${Target}`);
  }
  return findAll(presentation, "p:sldId")
    .map((node) => targets.get(attributesOf(node)["r:id"] ?? ""))
    .filter((target): target is string => target !== undefined);
}

export async function extractPptxPages(bytes: Buffer, limits: ArchiveLimits): Promise<string[]> {
  const entries = readZipEntries(bytes, limits, (name) => name.startsWith("ppt/") && name.endsWith(".xml") || name.endsWith(".rels"));
  try {
    return slideOrder(entries).map((slide) =>
      findAll(decodeXml(entries.get(slide)), "a:p")
        .map((p) => paragraphText(childrenOf(p, "a:p")).trim())
        .filter((line) => line !== "")
        .join("\n"),
    );
  } catch {
    throw new ExtractionError("DAMAGED_FILE", "This PowerPoint file is damaged and could not be read.");
  }
}

export function countPptxSlides(bytes: Buffer, limits: ArchiveLimits): number {
  const entries = readZipEntries(bytes, limits, (name) => name === "ppt/presentation.xml" || name === "ppt/_rels/presentation.xml.rels");
  return slideOrder(entries).length;
}

const LEGACY: Record<"doc" | "ppt" | "xls", { target: "docx" | "pptx" | "xlsx"; label: string; modern: string }> = {
  doc: { target: "docx", label: "DOC", modern: "DOCX" },
  ppt: { target: "pptx", label: "PPT", modern: "PPTX" },
  xls: { target: "xlsx", label: "XLS", modern: "XLSX" },
};

/**
 * Converts DOC/PPT/XLS to their modern format with LibreOffice (soffice --headless). Without
 * soffice on the server the user is told to convert the file themselves.
 */
export async function convertLegacyOffice(
  bytes: Buffer,
  kind: "doc" | "ppt" | "xls",
  command: string,
  tempDir: string,
  timeoutMs: number,
): Promise<{ bytes: Buffer; kind: "docx" | "pptx" | "xlsx" }> {
  const { target, label, modern } = LEGACY[kind];
  const unsupported = new ExtractionError(
    "UNSUPPORTED",
    `${label} files cannot be read on this server yet. Save it as ${modern} or PDF and upload again.`,
  );
  const dir = await mkdtemp(join(tempDir, "office-"));
  try {
    const input = join(dir, `input.${kind}`);
    await writeFile(input, bytes);
    try {
      await run(
        // A profile per conversion: soffice refuses to run twice on one profile at the same time.
        // soffice runs its work in a process it forks (soffice.bin), which must end with us too.
        ...dyingWithDescendants(command, [`-env:UserInstallation=${pathToFileURL(join(dir, "profile")).href}`, "--headless", "--convert-to", target, "--outdir", dir, input]),
        { timeout: timeoutMs, env: { ...process.env, HOME: dir } },
      );
    } catch (error) {
      if ((error as { code?: unknown }).code === "ENOENT") throw unsupported;
      throw new ExtractionError("DAMAGED_FILE", `This ${label} file could not be converted. Save it as ${modern} or PDF and upload again.`);
    }
    const output = (await readdir(dir)).find((name) => name.endsWith(`.${target}`));
    if (!output) throw new ExtractionError("DAMAGED_FILE", `This ${label} file could not be converted. Save it as ${modern} or PDF and upload again.`);
    return { bytes: await readFile(join(dir, output)), kind: target };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
