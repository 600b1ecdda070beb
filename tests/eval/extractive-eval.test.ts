/**
 * Quality of the built-in model on a small generated corpus (tests/eval/corpus.ts):
 * ingestion-like chunking into a real SQLite index, retrieval scoped to the
 * workspace, then the extractive model. A question counts as answered when
 * the answer's citations include the page the fact is on. Unanswerable
 * questions count as handled when the model says it found nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type Database from "better-sqlite3";
import { composeAnswer } from "#application/conversation/extractive-model";
import { retrievePassages } from "#application/conversation/retrieval";
import type { IndexedChunk } from "#application/ports/search-index";
import { chunkPages } from "#domain/library/chunking";
import { openDatabase } from "#infrastructure/embedded/sqlite/open-database";
import { SqliteSearchIndex } from "#infrastructure/embedded/sqlite/sqlite-search-index";
import { evalQuestions, generatePages, TOPICS, UNANSWERABLE } from "./corpus";

const PASSAGES = 8;
const REQUIRED_SHARE = 0.7;

describe("built-in extractive model: evaluation set", () => {
  let db: Database.Database;
  let index: SqliteSearchIndex;
  const names = new Map(TOPICS.map((t) => [t.id, t.name]));
  const documentIds = TOPICS.map((t) => t.id);

  beforeAll(async () => {
    db = openDatabase(":memory:");
    index = new SqliteSearchIndex(db);
    for (const topic of TOPICS) {
      const chunks: IndexedChunk[] = chunkPages(topic.id, generatePages(topic)).map((c) => ({ ...c, documentId: topic.id, ownerId: "eval-owner" }));
      await index.upsert(chunks);
    }
  });
  afterAll(() => db.close());

  const ask = async (question: string) => {
    const passages = await retrievePassages({ index, question, documentIds, limit: PASSAGES, documentName: (id) => names.get(id) });
    return composeAnswer({ question, history: [], passages, language: "English" });
  };

  it(`cites the page the answer is on for at least ${REQUIRED_SHARE * 100}% of the questions`, async () => {
    const questions = evalQuestions();
    let cited = 0;
    let first = 0;
    let citations = 0;
    const misses: string[] = [];
    for (const q of questions) {
      const answer = await ask(q.question);
      citations += answer.citations.length;
      const hit = answer.citations.some((c) => c.documentId === q.documentId && c.pageNumber === q.pageNumber);
      if (hit) cited++;
      else misses.push(`  ✗ ${q.question} → expected ${q.documentId} p.${q.pageNumber}, cited ${JSON.stringify(answer.citations)}`);
      const [top] = answer.citations;
      if (top && top.documentId === q.documentId && top.pageNumber === q.pageNumber) first++;
    }
    const share = cited / questions.length;
    console.log(
      `[eval] expected page cited: ${cited}/${questions.length} = ${(share * 100).toFixed(1)}%` +
        ` (as first citation: ${first}/${questions.length} = ${((first / questions.length) * 100).toFixed(1)}%;` +
        ` ${(citations / questions.length).toFixed(2)} citations per answer)` +
        (misses.length ? `\n${misses.join("\n")}` : ""),
    );
    expect(share).toBeGreaterThanOrEqual(REQUIRED_SHARE);
  });

  it("says it cannot find an answer for most questions the documents do not answer", async () => {
    let declined = 0;
    const wrong: string[] = [];
    for (const question of UNANSWERABLE) {
      const answer = await ask(question);
      if (answer.citations.length === 0 && answer.text.includes("couldn't find")) declined++;
      else wrong.push(`  ✗ ${question} → ${answer.text.split("\n").join(" ").slice(0, 160)}`);
    }
    const share = declined / UNANSWERABLE.length;
    console.log(`[eval] unanswerable declined: ${declined}/${UNANSWERABLE.length} = ${(share * 100).toFixed(1)}%${wrong.length ? `\n${wrong.join("\n")}` : ""}`);
    expect(share).toBeGreaterThanOrEqual(REQUIRED_SHARE);
  });
});
