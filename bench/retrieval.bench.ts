/**
 * Retrieval latency of the embedded search index (ARCHITECTURE §6, §10) in a
 * large installation, beside bare FTS5 tables holding ONLY the scoped chunks,
 * built and queried in the same run, so each ratio means something on a noisy
 * machine. Not a test: nothing is asserted.
 *
 *   npx tsx bench/retrieval.bench.ts            (BENCH_USERS=10 for a quicker run)
 *
 * Installation: BENCH_USERS users (100) × 1,000 documents each. The measured
 * user's documents have 1–40 pages (~14 on average, ~2 chunks a page); the
 * other users' documents are kept to one page so the index builds in bounded
 * time, which leaves the installation's document count — what a search must not
 * pay for — as in production. Text is English-like: shared function words and
 * a Zipf-distributed vocabulary of 30,000 words whose common part differs from
 * user to user (each user writes about their own things). Every chunk has a
 * 384-d vector.
 *
 * Scopes: 10, 100 and 1,000 of the measured user's documents. Queries: 200
 * questions of 2–6 words from that user's vocabulary (some common, some rare),
 * the same OR-of-quoted-terms FTS5 query on the bare side.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import type { IndexedChunk } from "#application/ports/search-index";
import { termStatistics } from "#application/conversation/term-statistics";
import { chunkPages, type PageText } from "#domain/library/chunking";
import { openDatabase } from "#infrastructure/embedded/sqlite/open-database";
import { SqliteSearchIndex } from "#infrastructure/embedded/sqlite/sqlite-search-index";
import { BARE_FTS5_TOKENIZER, toFtsQuery } from "./fts5-reference";
import { percentile } from "./support";

/** The embedding model the vectors stand for. */
const SPACE = "bench/random-vectors";
const USERS = Number(process.env.BENCH_USERS ?? 100);
const DOCUMENTS_PER_USER = 1_000;
const PAGE_CHARS = 1_000;
const QUERIES = 200;
const WARMUP = 20;
const LIMIT = 8;
const VECTOR_DIMS = 384;
const SCOPES = [10, 100, 1_000];

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

const SYLLABLES = ["ka", "lo", "mi", "ter", "san", "po", "ri", "ven", "da", "mul", "gor", "ex", "tal", "bri", "num", "so"];
const VOCABULARY = Array.from({ length: 30_000 }, (_, i) => {
  let word = "";
  let n = i + 17;
  do {
    word += SYLLABLES[n % SYLLABLES.length];
    n = Math.floor(n / SYLLABLES.length);
  } while (n > 0);
  return word;
});
const COMMON = ["the", "of", "and", "to", "in", "is", "that", "for", "with", "as"];
/** A Zipf-like draw from the vocabulary rotated by the user's offset: each user's common words are their own. */
const zipfWord = (user: number) => VOCABULARY[(Math.floor(VOCABULARY.length * random() ** 3) + user * 7_919) % VOCABULARY.length];
const word = (user: number) => (random() < 0.3 ? COMMON[Math.floor(random() * COMMON.length)] : zipfWord(user));

function sentence(user: number): string {
  const words = Array.from({ length: 8 + Math.floor(random() * 14) }, () => word(user));
  words[0] = words[0][0].toUpperCase() + words[0].slice(1);
  return `${words.join(" ")}.`;
}

function page(user: number, pageNumber: number): PageText {
  const paragraphs: string[] = [];
  for (let total = 0; total < PAGE_CHARS; ) {
    const paragraph = Array.from({ length: 2 + Math.floor(random() * 4) }, () => sentence(user)).join(" ");
    paragraphs.push(paragraph);
    total += paragraph.length + 2;
  }
  return { pageNumber, text: paragraphs.join("\n\n"), blocks: paragraphs.map((text, i) => ({ id: `p${pageNumber}-b${i}`, text })) };
}

function documentChunks(user: number, d: number): IndexedChunk[] {
  const documentId = `user-${user}-doc-${d}`;
  const pages = user === 0 ? 1 + Math.floor(40 * random() ** 2) : 1;
  return chunkPages(documentId, Array.from({ length: pages }, (_, i) => page(user, i + 1))).map((c) => ({ ...c, documentId, ownerId: `user-${user}` }));
}

function randomVector(): number[] {
  return Array.from({ length: VECTOR_DIMS }, () => random() * 2 - 1);
}

interface Figures {
  p50: number;
  p95: number;
}

async function measure(label: string, run: (i: number) => unknown | Promise<unknown>, count: number): Promise<Figures> {
  for (let i = 0; i < WARMUP; i++) await run(i);
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const t = process.hrtime.bigint();
    await run(i);
    times.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  times.sort((a, b) => a - b);
  const figures = { p50: percentile(times, 50), p95: percentile(times, 95) };
  console.log(`  ${label.padEnd(58)} p50 ${figures.p50.toFixed(3).padStart(8)} ms   p95 ${figures.p95.toFixed(3).padStart(8)} ms`);
  return figures;
}

const ratio = (ours: Figures, reference: Figures) =>
  `p50 ${(ours.p50 / reference.p50).toFixed(2)}×, p95 ${(ours.p95 / reference.p95).toFixed(2)}×`;

/** Exact cosine top-k over vectors, the reference's half of the dense comparison. */
function cosineTopK(rows: Iterable<{ vector: Buffer }>, query: Float32Array, k: number): number[] {
  let qq = 0;
  for (const x of query) qq += x * x;
  const scores: number[] = [];
  for (const { vector } of rows) {
    const stored = new Float32Array(vector.buffer.slice(vector.byteOffset, vector.byteOffset + vector.byteLength));
    let dot = 0;
    let sq = 0;
    for (let i = 0; i < stored.length; i++) {
      dot += stored[i] * query[i];
      sq += stored[i] * stored[i];
    }
    scores.push(dot / Math.sqrt(sq * qq));
  }
  return scores.sort((a, b) => b - a).slice(0, k);
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), "docuchat-retrieval-bench-"));
  try {
    const db = openDatabase(join(dir, "search.db"));
    const index = new SqliteSearchIndex(db);

    const started = performance.now();
    const measured: IndexedChunk[][] = [];
    // The measured user's vectors, as Float32 bytes, for the reference tables.
    const measuredVectors = new Map<string, Buffer>();
    let chunkCount = 0;
    // The measured user last, so the scoped rows are no more cache-warm than in a long-lived installation.
    for (const user of [...Array.from({ length: USERS - 1 }, (_, i) => i + 1), 0]) {
      const chunks: IndexedChunk[] = [];
      for (let d = 0; d < DOCUMENTS_PER_USER; d++) {
        const document = documentChunks(user, d);
        if (user === 0) measured.push(document);
        chunks.push(...document);
      }
      await index.upsert(chunks);
      const vectors = chunks.map((c) => ({ chunkId: c.chunkId, documentId: c.documentId, vector: randomVector() }));
      if (user === 0) for (const v of vectors) measuredVectors.set(v.chunkId, Buffer.from(Float32Array.from(v.vector).buffer));
      await index.upsertVectors(SPACE, vectors);
      chunkCount += chunks.length;
    }
    const measuredChunks = measured.reduce((n, d) => n + d.length, 0);
    console.log(
      `installation: ${USERS} users × ${DOCUMENTS_PER_USER} documents, ${chunkCount} chunks with ${VECTOR_DIMS}-d vectors ` +
        `(measured user: ${measuredChunks} chunks), indexed in ${((performance.now() - started) / 1000).toFixed(0)} s`,
    );

    // Scopes: the first n documents of a shuffled order of the measured user's library.
    const order = measured.map((_, i) => i).sort(() => random() - 0.5);
    const questions = Array.from({ length: QUERIES }, () =>
      Array.from({ length: 2 + Math.floor(random() * 5) }, () => (random() < 0.25 ? COMMON[Math.floor(random() * COMMON.length)] : zipfWord(0))).join(" "),
    );
    const ftsQueries = questions.map((q) => toFtsQuery(q) ?? '""');
    const vectors = Array.from({ length: 50 }, randomVector);

    for (const size of SCOPES) {
      const documents = order.slice(0, size).map((i) => measured[i]);
      const scope = { documentIds: documents.map((d) => d[0].documentId) };
      const scoped = documents.flat();
      // The reference: a plain FTS5 table with the same tokenizer, holding only the scoped chunks; and their vectors alone.
      const table = `bare_${size}`;
      db.exec(`CREATE VIRTUAL TABLE ${table} USING fts5 (chunk_id UNINDEXED, text, tokenize = '${BARE_FTS5_TOKENIZER}')`);
      db.exec(`CREATE TABLE ${table}_vectors (id INTEGER PRIMARY KEY, vector BLOB NOT NULL)`);
      const insert = db.prepare(`INSERT INTO ${table} (chunk_id, text) VALUES (?, ?)`);
      const insertVector = db.prepare(`INSERT INTO ${table}_vectors (vector) VALUES (?)`);
      db.transaction(() => {
        for (const c of scoped) {
          insert.run(c.chunkId, c.text);
          insertVector.run(measuredVectors.get(c.chunkId));
        }
      })();
      const bareSearch = db.prepare(`SELECT chunk_id, text, rank FROM ${table} WHERE ${table} MATCH ? ORDER BY rank LIMIT ${LIMIT}`);
      const bareVectors = db.prepare(`SELECT vector FROM ${table}_vectors`);

      console.log(`\nscope: ${size} documents, ${scoped.length} chunks (of ${chunkCount} in the index)`);
      const ours = await measure("SqliteSearchIndex.searchText", (i) => index.searchText(questions[i % QUERIES], scope, LIMIT), QUERIES);
      const bare = await measure(`bare FTS5 of the scoped chunks, MATCH … ORDER BY rank LIMIT ${LIMIT}`, (i) => bareSearch.all(ftsQueries[i % QUERIES]), QUERIES);
      const statistics = await measure("termStatistics (document frequencies over the scope)", (i) =>
        termStatistics({ index, question: questions[i % QUERIES], documentIds: scope.documentIds }), QUERIES);
      const dense = await measure("SqliteSearchIndex.searchVector (exact)", (i) => index.searchVector(SPACE, vectors[i % 50], scope, LIMIT), 50);
      const bareDense = await measure("exact scan of a table of the scoped vectors only", (i) =>
        cosineTopK(bareVectors.iterate() as Iterable<{ vector: Buffer }>, Float32Array.from(vectors[i % 50]), LIMIT), 50);

      // Same BM25 over the same chunks: the scoped answer should be the bare table's.
      let same = 0;
      for (let i = 0; i < QUERIES; i++) {
        const a = (await index.searchText(questions[i], scope, LIMIT)).map((h) => h.chunk.chunkId);
        const b = (bareSearch.all(ftsQueries[i]) as { chunk_id: string }[]).map((r) => r.chunk_id);
        if (a.length === b.length && a.every((id, k) => id === b[k])) same++;
      }
      console.log(`  ratio searchText / bare FTS5: ${ratio(ours, bare)}   (identical top-${LIMIT} for ${same}/${QUERIES} queries)`);
      console.log(`  ratio termStatistics / bare FTS5: ${ratio(statistics, bare)}`);
      console.log(`  ratio searchVector / scan of the scoped vectors: ${ratio(dense, bareDense)}`);
    }
    console.log(`\nload average (1, 5, 15 min): ${loadavg().map((l) => l.toFixed(2)).join(", ")} on this machine`);
    db.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
