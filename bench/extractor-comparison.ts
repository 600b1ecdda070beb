/**
 * The text of every made document and corpus PDF as pdf.js and as poppler read it, side by side
 * (issue #33): pages, characters, words only one of them read, and each page's text written to
 * EXTRACT_OUT (default tests/.artifacts/extractors/) for a closer look. Run: npx tsx bench/extractor-comparison.ts
 */
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { DocumentReader } from "#infrastructure/extraction/document-reader";
import { corpusFile } from "../tests/support/corpus";

const ROOT = path.resolve(import.meta.dirname, "..");
const OUT = process.env.EXTRACT_OUT ?? path.join(ROOT, "tests/.artifacts/extractors");
const fixtures = path.join(ROOT, "tests/fixtures/documents");
const files = [
  ...readdirSync(fixtures).filter((f) => f.endsWith(".pdf")).map((f) => path.join(fixtures, f)),
  ...["pdkids.pdf", "freeculture.pdf"].map((f) => corpusFile(f)).filter((f): f is string => f !== undefined),
];
mkdirSync(OUT, { recursive: true });

const words = (text: string) => new Map([...text.toLowerCase().matchAll(/[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu)].reduce((m, [w]) => m.set(w, (m.get(w) ?? 0) + 1), new Map<string, number>()));
function onlyIn(a: Map<string, number>, b: Map<string, number>): string[] {
  const out: string[] = [];
  for (const [w, n] of a) if (n > (b.get(w) ?? 0)) out.push(n - (b.get(w) ?? 0) > 1 ? `${w}×${n - (b.get(w) ?? 0)}` : w);
  return out;
}

for (const file of files) {
  const bytes = readFileSync(file);
  const name = path.basename(file, ".pdf");
  const results: Record<string, { pages: string[]; ms: number; extractor?: string; error?: string }> = {};
  for (const extractor of ["pdfjs", "poppler"] as const) {
    const started = performance.now();
    try {
      const result = await new DocumentReader({ pdfExtractor: extractor }).extract({ bytes, kind: "pdf", ocr: true });
      results[extractor] = { pages: result.pages.map((p) => p.text), ms: performance.now() - started, extractor: result.extractor };
    } catch (error) {
      results[extractor] = { pages: [], ms: performance.now() - started, error: error instanceof Error ? error.message : String(error) };
    }
    writeFileSync(path.join(OUT, `${name}.${extractor}.txt`), results[extractor].pages.map((t, i) => `=== page ${i + 1}\n${t}`).join("\n"));
  }
  const [a, b] = [results.pdfjs, results.poppler];
  const samePages = a.pages.filter((t, i) => t === b.pages[i]).length;
  const wa = words(a.pages.join("\n"));
  const wb = words(b.pages.join("\n"));
  console.log(`\n${name}: ${a.pages.length} / ${b.pages.length} pages (pdf.js / poppler${b.extractor && b.extractor !== "poppler" ? `, which fell back to ${b.extractor}` : ""}), ${samePages} pages identical; characters ${a.pages.join("").length} / ${b.pages.join("").length}`);
  if (a.error || b.error) console.log(`  errors: pdf.js ${a.error ?? "-"}; poppler ${b.error ?? "-"}`);
  const missing = onlyIn(wa, wb);
  const extra = onlyIn(wb, wa);
  console.log(`  words only pdf.js read (${missing.length}): ${missing.slice(0, 25).join(" ")}`);
  console.log(`  words only poppler read (${extra.length}): ${extra.slice(0, 25).join(" ")}`);
}
