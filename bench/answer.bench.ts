/**
 * Answer latency of the built-in model (ARCHITECTURE §6, §10): retrieval
 * latency and time to first streamed token, beside a bare SQLite FTS5 query
 * on the same rows in the same run, so the ratios mean something on a noisy
 * machine. Not a test: nothing is asserted.
 *
 *   npx tsx bench/answer.bench.ts
 *
 * Workspace: 10 documents × 200 pages of generated topical prose (the
 * evaluation corpus's generator, tests/eval/corpus.ts, one of its six topics
 * per document, a different seed each), chunked by `chunkPages` and indexed
 * in a file-backed SqliteSearchIndex with 384-d vectors. Questions: the
 * evaluation set's 35 answerable and 8 unanswerable questions, cycled to 100.
 *
 *  - retrieval: `retrievePassages` (BM25 with the scope of all 10 documents,
 *    question reformulated, RRF, names looked up), 8 passages.
 *  - time to first token: retrieval + `ExtractiveModel.streamAnswer` until its
 *    first text event (the model composes the whole answer before streaming,
 *    so this includes sentence splitting and scoring).
 *  - time to first token with sentence meaning: hybrid retrieval, then the
 *    model embedding the question and its shortlisted sentences with the
 *    built-in encoder before it answers (decision 071).
 *  - bare FTS5: `SELECT … FROM bare_fts WHERE bare_fts MATCH ? ORDER BY rank
 *    LIMIT n` on a plain FTS5 table holding the same chunk texts, same
 *    tokenizer, same query string, same n as retrieval's candidate count.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ExtractiveModel } from "#infrastructure/ai/built-in/built-in-model";
import { SentenceEncoderEmbedder } from "#infrastructure/ai/built-in/sentence-encoder";
import { reformulateQuery, retrievePassages } from "#application/conversation/retrieval";
import type { IndexedChunk } from "#application/ports/search-index";
import { chunkPages } from "#domain/library/chunking";
import { openDatabase } from "#infrastructure/embedded/sqlite/open-database";
import { SqliteSearchIndex } from "#infrastructure/embedded/sqlite/sqlite-search-index";
import { toFtsQuery } from "./fts5-reference";
import { evalQuestions, generatePages, rng, TOPICS, UNANSWERABLE } from "../tests/eval/corpus";
import { percentile } from "./support";

/** The embedding model the vectors stand for. */
const SPACE = "bench/random-vectors";
const DOCUMENTS = 10;
const PAGES = 200;
const QUESTIONS = 100;
const WARMUP = 20;
const PASSAGES = 8;
/** retrievePassages asks each ranking for max(20, 3 × limit) candidates; the bare query gets the same. */
const CANDIDATES = Math.max(20, 3 * PASSAGES);
const VECTOR_DIMS = 384;

const random = rng(7);
const randomVector = () => Array.from({ length: VECTOR_DIMS }, () => random() * 2 - 1);

interface Result {
  p50: number;
  p95: number;
}

async function measure(label: string, run: (i: number) => unknown | Promise<unknown>): Promise<Result> {
  for (let i = 0; i < WARMUP; i++) await run(i);
  const times: number[] = [];
  for (let i = 0; i < QUESTIONS; i++) {
    const t = process.hrtime.bigint();
    await run(i);
    times.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  times.sort((a, b) => a - b);
  const result = { p50: percentile(times, 50), p95: percentile(times, 95) };
  console.log(`${label.padEnd(62)} p50 ${result.p50.toFixed(3).padStart(8)} ms   p95 ${result.p95.toFixed(3).padStart(8)} ms`);
  return result;
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), "docuchat-answer-bench-"));
  try {
    const db = openDatabase(join(dir, "search.db"));
    const index = new SqliteSearchIndex(db);
    db.exec(`CREATE VIRTUAL TABLE bare_fts USING fts5 (chunk_id UNINDEXED, text, tokenize = 'porter unicode61 remove_diacritics 2')`);
    const bareInsert = db.prepare("INSERT INTO bare_fts (chunk_id, text) VALUES (?, ?)");
    const bareSearch = db.prepare(`SELECT chunk_id, text, rank FROM bare_fts WHERE bare_fts MATCH ? ORDER BY rank LIMIT ${CANDIDATES}`);

    const documentIds: string[] = [];
    const names = new Map<string, string>();
    let chunkCount = 0;
    for (let d = 0; d < DOCUMENTS; d++) {
      const topic = TOPICS[d % TOPICS.length];
      const documentId = `doc-${d}`;
      documentIds.push(documentId);
      names.set(documentId, `${topic.name} (${d})`);
      const chunks: IndexedChunk[] = chunkPages(documentId, generatePages(topic, PAGES, d + 1)).map((c) => ({ ...c, documentId, ownerId: `owner-${d % 3}` }));
      chunkCount += chunks.length;
      await index.upsert(chunks);
      await index.upsertVectors(SPACE, chunks.map((c) => ({ chunkId: c.chunkId, documentId, vector: randomVector() })));
      db.transaction(() => {
        for (const c of chunks) bareInsert.run(c.chunkId, c.text);
      })();
    }
    console.log(`workspace: ${DOCUMENTS} documents × ${PAGES} pages, ${chunkCount} chunks, ${VECTOR_DIMS}-d vectors; ${QUESTIONS} questions (+${WARMUP} warm-up)\n`);

    const pool = [...evalQuestions().map((q) => q.question), ...UNANSWERABLE];
    const questions = Array.from({ length: QUESTIONS + WARMUP }, (_, i) => pool[i % pool.length]);
    const ftsQueries = questions.map((q) => toFtsQuery(reformulateQuery(q)) ?? '""');
    const model = new ExtractiveModel();
    const documentName = (id: string) => names.get(id);
    const retrieve = (question: string, embed?: (text: string) => Promise<number[]>) =>
      retrievePassages({ index, question, documentIds, limit: PASSAGES, documentName, vectors: embed && { space: SPACE, embed } });
    const queryVectors = Array.from({ length: 50 }, randomVector);

    const bare = await measure(`bare FTS5 MATCH … ORDER BY rank LIMIT ${CANDIDATES}`, (i) => bareSearch.all(ftsQueries[i]));
    const retrieval = await measure(`retrievePassages (BM25, scope ${DOCUMENTS} docs, top ${PASSAGES})`, (i) => retrieve(questions[i]));
    let found = 0;
    const ttft = await measure("time to first token (retrieval + first text event)", async (i) => {
      const passages = await retrieve(questions[i]);
      for await (const event of model.streamAnswer({ question: questions[i], history: [], passages, language: "English" })) {
        if (event.type === "text") {
          if (!event.text.startsWith("I couldn't")) found++;
          break;
        }
      }
    });
    const full = await measure("full answer (retrieval + whole stream to done)", async (i) => {
      const passages = await retrieve(questions[i]);
      for await (const _event of model.streamAnswer({ question: questions[i], history: [], passages, language: "English" })) {
        // drain
      }
    });
    const hybrid = await measure(`retrievePassages hybrid (BM25 + exact ${VECTOR_DIMS}-d scan, RRF)`, (i) =>
      retrieve(questions[i], async () => queryVectors[i % queryVectors.length]),
    );

    // The default path (decision 071): hybrid retrieval, and the built-in encoder weighing the shortlisted sentences.
    const encoder = new SentenceEncoderEmbedder();
    const weighing = new ExtractiveModel({ encoder: { embed: (texts, signal) => encoder.embedFirst(texts, signal) } });
    const ttftMeaning = await measure("time to first token, hybrid + sentence meaning (built-in encoder)", async (i) => {
      const passages = await retrieve(questions[i], async () => queryVectors[i % queryVectors.length]);
      for await (const event of weighing.streamAnswer({ question: questions[i], history: [], passages, language: "English" })) {
        if (event.type === "text") break;
      }
    });
    encoder.close();

    const ratio = (a: Result, b: Result) => `p50 ${(a.p50 / b.p50).toFixed(2)}×, p95 ${(a.p95 / b.p95).toFixed(2)}×`;
    console.log(`\nratio retrieval / bare FTS5:            ${ratio(retrieval, bare)}`);
    console.log(`ratio time to first token / bare FTS5:  ${ratio(ttft, bare)}`);
    console.log(`ratio full answer / bare FTS5:          ${ratio(full, bare)}`);
    console.log(`ratio hybrid retrieval / bare FTS5:     ${ratio(hybrid, bare)}`);
    console.log(`ratio TTFT with sentence meaning / bare FTS5: ${ratio(ttftMeaning, bare)} (vs keyword TTFT: ${ratio(ttftMeaning, ttft)})`);
    console.log(`(answers with a quote rather than "not found" in the TTFT run: ${found}/${QUESTIONS + WARMUP})`);
    db.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
