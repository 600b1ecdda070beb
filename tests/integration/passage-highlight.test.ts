import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { findPassage, locatePassage, reducedText } from "#app/components/viewer/passage-match";
import { chunkPages } from "#domain/library/chunking";
import { DefaultTextExtractor } from "#infrastructure/extraction/text-extractor";
import { corpusFile } from "../support/corpus";

/**
 * The viewer's passage matcher on a real book (Free Culture, 352 pages, from
 * ../shared/corpus): quotes are sentences of the chunks the real ingestion
 * stores (what the built-in model quotes), and they are looked for where the
 * browser looks, among pdf.js's text items of the cited page (what the
 * TextLayer renders as spans), and in the extracted page text (what the text
 * viewer shows). Prints its figures.
 */

const freeCulture = corpusFile("freeculture.pdf");

/** Sentences as a model quotes them: whole sentences of the stored chunk, at least eight words. */
const sentencesOf = (text: string) =>
  text
    .replace(/\s+/g, " ")
    .split(/(?<=[.!?]["”’)]?)\s+(?=["“(]?[A-Z])/u)
    .map((s) => s.trim())
    .filter((s) => s.split(" ").length >= 8);

type Quote = { pageNumber: number; text: string };

async function textItemsByPage(bytes: Buffer): Promise<Map<number, string[]>> {
  const worker = await import("pdfjs-dist/legacy/build/pdf.worker.mjs");
  (globalThis as { pdfjsWorker?: unknown }).pdfjsWorker = worker;
  const pdfjs = await import("pdfjs-dist/legacy/build/pdf.mjs");
  const pdf = await pdfjs.getDocument({ data: new Uint8Array(bytes), verbosity: 0, isEvalSupported: false }).promise;
  const items = new Map<number, string[]>();
  try {
    for (let n = 1; n <= pdf.numPages; n++) {
      const content = await (await pdf.getPage(n)).getTextContent();
      items.set(
        n,
        content.items.flatMap((item) => ("str" in item && item.str !== "" ? [item.str] : [])),
      );
    }
  } finally {
    await pdf.destroy();
  }
  return items;
}

describe.skipIf(!freeCulture)(`highlighting quotes of stored chunks on real PDF pages${freeCulture ? "" : " (skipped: ../shared/corpus/freeculture.pdf not found)"}`, () => {
  let items: Map<number, string[]>;
  let pageTexts: Map<number, string>;
  let quotes: Quote[];

  beforeAll(async () => {
    const bytes = readFileSync(freeCulture!);
    const extracted = await new DefaultTextExtractor().extract({ bytes, kind: "pdf", ocr: false });
    pageTexts = new Map(extracted.pages.map((p) => [p.pageNumber, p.text]));
    const chunks = chunkPages("freeculture", extracted.pages);
    const all = chunks.flatMap((c) => sentencesOf(c.text).map((text) => ({ pageNumber: c.pageNumber, text })));
    // Every seventh sentence: the whole book, a few hundred quotes.
    quotes = all.filter((_, i) => i % 7 === 0);
    items = await textItemsByPage(bytes);
  }, 120_000);

  it("finds nearly every quoted sentence among the cited page's text-layer items, and highlights that sentence", () => {
    let located = 0;
    let sameExtent = 0;
    const missed: Quote[] = [];
    for (const quote of quotes) {
      const pieces = items.get(quote.pageNumber) ?? [];
      const ranges = locatePassage(pieces, quote.text);
      if (!ranges) {
        missed.push(quote);
        continue;
      }
      located++;
      const shown = ranges.map((r) => pieces[r.piece].slice(r.start, r.end)).join(" ");
      if (reducedText(shown) === reducedText(quote.text)) sameExtent++;
    }
    console.log(
      `[passage-highlight] Free Culture, pdf.js text layer: ${quotes.length} quotes, located ${located} (${pct(located, quotes.length)}), exact extent ${sameExtent} (${pct(sameExtent, quotes.length)})`,
    );
    if (missed.length) console.log(`[passage-highlight] missed, e.g.: ${missed.slice(0, 3).map((q) => `p.${q.pageNumber} "${q.text.slice(0, 90)}"`).join(" | ")}`);
    expect(quotes.length).toBeGreaterThan(200);
    expect(located / quotes.length).toBeGreaterThanOrEqual(0.97);
    expect(sameExtent / quotes.length).toBeGreaterThanOrEqual(0.9);
  });

  it("highlights nothing on a page that does not hold the quote", () => {
    let wrong = 0;
    for (const quote of quotes) {
      const other = quote.pageNumber > 10 ? quote.pageNumber - 7 : quote.pageNumber + 7;
      if (locatePassage(items.get(other) ?? [], quote.text)) wrong++;
    }
    console.log(`[passage-highlight] quotes looked for on another page: ${quotes.length}, falsely located ${wrong}`);
    expect(wrong).toBe(0);
  });

  it("finds the quoted sentences in the extracted page text the text viewer shows", () => {
    const found = quotes.filter((q) => findPassage(pageTexts.get(q.pageNumber) ?? "", q.text)).length;
    console.log(`[passage-highlight] extracted page text: located ${found} of ${quotes.length} (${pct(found, quotes.length)})`);
    expect(found).toBe(quotes.length);
  });
});

const pct = (n: number, of: number) => `${((100 * n) / Math.max(1, of)).toFixed(1)} %`;
