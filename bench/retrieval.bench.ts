/**
 * Retrieval latency of the embedded search index (ARCHITECTURE §6, §10), beside
 * a bare FTS5 table holding the same rows and queried in the same run, so the
 * ratio means something on a noisy machine. Not a test: nothing is asserted.
 *
 *   npx tsx bench/retrieval.bench.ts
 *
 * Corpus: 10 documents × 200 pages of generated English-like text, chunked by
 * `chunkPages` (~2 chunks per page). Queries: 200 questions of 2–6 words drawn
 * from the same vocabulary (some common words, some rare), each turned into the
 * same OR-of-quoted-terms FTS5 query both sides use.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { IndexedChunk } from "#application/ports/search-index";
import { chunkPages, type PageText } from "#domain/library/chunking";
import { openDatabase } from "#infrastructure/embedded/sqlite/open-database";
import { SqliteSearchIndex } from "#infrastructure/embedded/sqlite/sqlite-search-index";
import { toFtsQuery } from "./fts5-reference";

/** The embedding model the vectors stand for. */
const SPACE = "bench/random-vectors";
const DOCUMENTS = 10;
const PAGES = 200;
const PAGE_CHARS = 1_000;
const QUERIES = 200;
const WARMUP = 20;
const LIMIT = 8;
const VECTOR_DIMS = 384;

// Deterministic PRNG (mulberry32) so every run indexes the same corpus.
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const random = rng(42);

// A Zipf-like vocabulary: a few very common words, a long tail of rare ones.
const SYLLABLES = ["ka", "lo", "mi", "ter", "san", "po", "ri", "ven", "da", "mul", "gor", "ex", "tal", "bri", "num", "so"];
const VOCABULARY = Array.from({ length: 5_000 }, (_, i) => {
  let word = "";
  let n = i + 17;
  do {
    word += SYLLABLES[n % SYLLABLES.length];
    n = Math.floor(n / SYLLABLES.length);
  } while (n > 0);
  return word;
});
const COMMON = ["the", "of", "and", "to", "in", "is", "that", "for", "with", "as"];
const zipfWord = () => VOCABULARY[Math.floor(VOCABULARY.length * random() ** 3)];
const word = () => (random() < 0.3 ? COMMON[Math.floor(random() * COMMON.length)] : zipfWord());

function sentence(): string {
  const length = 8 + Math.floor(random() * 14);
  const words = Array.from({ length }, word);
  words[0] = words[0][0].toUpperCase() + words[0].slice(1);
  return `${words.join(" ")}.`;
}

function page(pageNumber: number): PageText {
  const paragraphs: string[] = [];
  let total = 0;
  while (total < PAGE_CHARS) {
    const paragraph = Array.from({ length: 2 + Math.floor(random() * 4) }, sentence).join(" ");
    paragraphs.push(paragraph);
    total += paragraph.length + 2;
  }
  return {
    pageNumber,
    text: paragraphs.join("\n\n"),
    blocks: paragraphs.map((text, i) => ({ id: `p${pageNumber}-b${i}`, text })),
  };
}

function randomVector(): number[] {
  return Array.from({ length: VECTOR_DIMS }, () => random() * 2 - 1);
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function measure(label: string, run: (i: number) => unknown | Promise<unknown>, count: number) {
  for (let i = 0; i < WARMUP; i++) await run(i);
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const t = process.hrtime.bigint();
    await run(i);
    times.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  times.sort((a, b) => a - b);
  const result = { label, p50: percentile(times, 50), p95: percentile(times, 95) };
  console.log(`${label.padEnd(52)} p50 ${result.p50.toFixed(3).padStart(8)} ms   p95 ${result.p95.toFixed(3).padStart(8)} ms`);
  return result;
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), "docuchat-retrieval-bench-"));
  try {
    const db = openDatabase(join(dir, "search.db"));
    const index = new SqliteSearchIndex(db);

    // The baseline: a plain FTS5 table with the same rows and tokenizer, no join, no scope.
    db.exec(`CREATE VIRTUAL TABLE bare_fts USING fts5 (chunk_id UNINDEXED, text, tokenize = 'porter unicode61 remove_diacritics 2')`);
    const bareInsert = db.prepare("INSERT INTO bare_fts (chunk_id, text) VALUES (?, ?)");
    const bareSearch = db.prepare(`SELECT chunk_id, text, rank FROM bare_fts WHERE bare_fts MATCH ? ORDER BY rank LIMIT ${LIMIT}`);

    const documentIds: string[] = [];
    let chunkCount = 0;
    let indexMs = 0;
    let bareMs = 0;
    for (let d = 0; d < DOCUMENTS; d++) {
      const documentId = `doc-${d}`;
      documentIds.push(documentId);
      const pages = Array.from({ length: PAGES }, (_, i) => page(i + 1));
      const chunks: IndexedChunk[] = chunkPages(documentId, pages).map((c) => ({ ...c, documentId, ownerId: `owner-${d % 3}` }));
      chunkCount += chunks.length;
      let t = performance.now();
      await index.upsert(chunks);
      await index.upsertVectors(SPACE, chunks.map((c) => ({ chunkId: c.chunkId, documentId, vector: randomVector() })));
      indexMs += performance.now() - t;
      t = performance.now();
      db.transaction(() => {
        for (const c of chunks) bareInsert.run(c.chunkId, c.text);
      })();
      bareMs += performance.now() - t;
    }
    console.log(
      `corpus: ${DOCUMENTS} documents × ${PAGES} pages, ${chunkCount} chunks (${(chunkCount / (DOCUMENTS * PAGES)).toFixed(2)}/page), ` +
        `vectors ${VECTOR_DIMS}-d`,
    );
    console.log(`indexing: SqliteSearchIndex.upsert ${indexMs.toFixed(0)} ms (with vectors), bare FTS5 insert ${bareMs.toFixed(0)} ms\n`);

    const questions = Array.from({ length: QUERIES }, () =>
      Array.from({ length: 2 + Math.floor(random() * 5) }, () => (random() < 0.25 ? COMMON[Math.floor(random() * COMMON.length)] : zipfWord())).join(" "),
    );
    const ftsQueries = questions.map((q) => toFtsQuery(q) ?? '""');
    const allScope = { documentIds };
    const oneScope = { documentIds: [documentIds[3]] };

    let indexHits = 0;
    let bareHits = 0;
    const ours = await measure(
      `SqliteSearchIndex.searchText (scope: all ${DOCUMENTS} docs)`,
      async (i) => {
        indexHits += (await index.searchText(questions[i % QUERIES], allScope, LIMIT)).length;
      },
      QUERIES,
    );
    const bare = await measure(
      `bare FTS5 MATCH + ORDER BY rank LIMIT ${LIMIT}`,
      (i) => {
        bareHits += bareSearch.all(ftsQueries[i % QUERIES]).length;
      },
      QUERIES,
    );
    await measure(`SqliteSearchIndex.searchText (scope: 1 doc)`, (i) => index.searchText(questions[i % QUERIES], oneScope, LIMIT), QUERIES);
    const vectors = Array.from({ length: 50 }, randomVector);
    await measure(`SqliteSearchIndex.searchVector (scope: all, exact)`, (i) => index.searchVector(SPACE, vectors[i % 50], allScope, LIMIT), 50);
    await measure(`SqliteSearchIndex.searchVector (scope: 1 doc, exact)`, (i) => index.searchVector(SPACE, vectors[i % 50], oneScope, LIMIT), 50);

    // Same queries, same top-k: the scoped answer over all documents must equal the bare one.
    let same = 0;
    for (let i = 0; i < QUERIES; i++) {
      const a = (await index.searchText(questions[i], allScope, LIMIT)).map((h) => h.chunk.chunkId);
      const b = (bareSearch.all(ftsQueries[i]) as { chunk_id: string }[]).map((r) => r.chunk_id);
      if (a.length === b.length && a.every((id, k) => id === b[k])) same++;
    }

    console.log(
      `\nratio searchText / bare FTS5: p50 ${(ours.p50 / bare.p50).toFixed(2)}×, p95 ${(ours.p95 / bare.p95).toFixed(2)}×` +
        `   (hits per query: ${(indexHits / (QUERIES + WARMUP)).toFixed(1)} vs ${(bareHits / (QUERIES + WARMUP)).toFixed(1)}; ` +
        `identical top-${LIMIT} for ${same}/${QUERIES} queries)`,
    );
    db.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
