/**
 * Evidence recall of retrieval alone, in seconds: the pages of one run of the
 * real-document evaluation (EVAL_DUMP=<file>) chunked by the app's chunker,
 * indexed in an embedded search index, embedded by the built-in model (vectors
 * cached by text in <cache>, so only changed chunks are embedded again), and
 * each question retrieved as the chat retrieves it. Prints per set and kind
 * whether the handed passages hold an accepted page and the fact, for the
 * development and held-aside sets and for the two-column papers' questions.
 *
 *   npx tsx tests/eval/recall.ts <dump.json> <vector-cache.json>
 *
 * For trying a retrieval or chunking change; tune on the development set only.
 * The figures that count come from the evaluation itself (real ingestion).
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { retrievePassages } from "#application/conversation/retrieval";
import { chunkPages } from "#domain/library/chunking";
import { SentenceEncoderEmbedder } from "#infrastructure/ai/built-in/sentence-encoder";
import { openDatabase } from "#infrastructure/embedded/sqlite/open-database";
import { SqliteSearchIndex } from "#infrastructure/embedded/sqlite/sqlite-search-index";
import { EVAL_DOCUMENTS, EVAL_QUESTIONS, isHeldAside, PAPER_DOCUMENTS, PAPER_QUESTIONS } from "./questions";
import { evidence } from "./scoring";

const [dumpFile, cacheFile] = process.argv.slice(2);
if (!dumpFile || !cacheFile) {
  console.error("usage: npx tsx tests/eval/recall.ts <dump.json> <vector-cache.json>");
  process.exit(2);
}
const dump = JSON.parse(readFileSync(dumpFile, "utf8")) as { documents: Record<string, { id: string; pages: string[] }> };
const cache: Record<string, number[]> = existsSync(cacheFile) ? JSON.parse(readFileSync(cacheFile, "utf8")) : {};
const key = (text: string) => createHash("sha1").update(text).digest("hex");

const embedder = new SentenceEncoderEmbedder();
let added = 0;
async function embedAll(texts: string[]): Promise<number[][]> {
  const missing = [...new Set(texts.filter((t) => !cache[key(t)]))];
  for (let i = 0; i < missing.length; i += 32) {
    const batch = missing.slice(i, i + 32);
    (await embedder.embed(batch)).forEach((vector, j) => (cache[key(batch[j])] = vector));
    if (missing.length > 32) process.stderr.write(`\rembedded ${Math.min(i + 32, missing.length)} of ${missing.length}`);
  }
  // Saved after each document's chunks, so an interrupted first run keeps what it embedded.
  added += missing.length;
  if (missing.length > 32) save();
  return texts.map((t) => cache[key(t)]);
}
const save = () => added > 0 && writeFileSync(cacheFile, JSON.stringify(cache));

const SPACE = "docuchat/docuchat-sentence-encoder";
const index = new SqliteSearchIndex(openDatabase(":memory:"));
// Each workspace's documents are searched for its own questions, as the chat searches a workspace.
const workspaces = [
  { documents: EVAL_DOCUMENTS, questions: EVAL_QUESTIONS.map((question, i) => ({ question, set: isHeldAside(i) ? "held" : "dev" })) },
  { documents: PAPER_DOCUMENTS, questions: PAPER_QUESTIONS.map((question) => ({ question, set: "papers" })) },
];
for (const { documents } of workspaces) {
  for (const { id, pages } of documents.map(({ key }) => dump.documents[key])) {
    const chunks = chunkPages(id, pages.map((text, i) => ({ pageNumber: i + 1, text, blocks: [] })));
    await index.upsert(chunks.map((c) => ({ ...c, documentId: id, ownerId: "eval" })));
    const vectors = await embedAll(chunks.map((c) => c.text));
    await index.upsertVectors(SPACE, chunks.map((c, i) => ({ chunkId: c.chunkId, documentId: id, vector: vectors[i] })));
  }
}
const idOf = (k: string) => dump.documents[k].id;

const rows: { set: string; kind: string; page: boolean; fact: boolean; passages: number; characters: number; question: string }[] = [];
for (const { documents, questions } of workspaces) {
  const documentIds = documents.map(({ key }) => idOf(key));
  for (const { question, set } of questions) {
    const passages = await retrievePassages({
      index,
      question: question.question,
      documentIds,
      limit: 8,
      vectors: { space: SPACE, embed: async (text) => (await embedAll([text]))[0] },
    });
    rows.push({ set, kind: question.kind, question: question.question, ...evidence(question, passages, idOf) });
  }
}
embedder.close();
save();

const pct = (n: number, of: number) => `${((100 * n) / (of || 1)).toFixed(1)}%`;
for (const set of ["dev", "held", "papers"]) {
  const of = rows.filter((r) => r.set === set);
  const line = (label: string, rs: typeof rows) => `  ${label.padEnd(10)} ${String(rs.length).padStart(3)}  page ${pct(rs.filter((r) => r.page).length, rs.length).padStart(6)}  fact ${pct(rs.filter((r) => r.fact).length, rs.length).padStart(6)}`;
  const answerable = of.filter((r) => r.kind !== "unanswerable");
  console.log(`[recall] ${set}`);
  console.log(line("plain", of.filter((r) => r.kind === "plain")));
  console.log(line("reworded", of.filter((r) => r.kind === "reworded")));
  console.log(line("answerable", answerable));
  console.log(`  handed per question: ${(of.reduce((t, r) => t + r.passages, 0) / of.length).toFixed(1)} passages, ${Math.round(of.reduce((t, r) => t + r.characters, 0) / of.length)} characters`);
  if (set === "dev") for (const r of answerable.filter((r) => !r.fact)) console.log(`    ✗ [${r.kind}] ${r.page ? "page, no fact" : "no page"}: ${r.question}`);
}
process.exit(0);
