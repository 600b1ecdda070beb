/**
 * Replays what the built-in model was handed in one run of the real-document
 * evaluation (EVAL_DUMP=<file> npx vitest run tests/eval/real-documents.eval.test.ts)
 * through the model again, and prints the figures of the development and
 * held-aside sets and of the two-column papers. A change to the model's rules is measured in seconds this
 * way, without re-ingesting and re-embedding the documents; the evaluation
 * itself still decides (it runs the whole path).
 *
 *   npx tsx tests/eval/replay.ts <dump.json>
 *
 * Tune on the development set only; the held-aside set is for reporting.
 */
import { readFileSync } from "node:fs";
import type { AnswerInput } from "#application/ports/language-model";
import { ExtractiveModel } from "#infrastructure/ai/built-in/built-in-model";
import { SentenceEncoderEmbedder } from "#infrastructure/ai/built-in/sentence-encoder";
import { EVAL_QUESTIONS, isHeldAside, PAPER_QUESTIONS } from "./questions";
import { type AnswerUnderTest, evidence, formatTable, judge, summarize } from "./scoring";

interface Dump {
  documents: Record<string, { id: string; pages: string[] }>;
  inputs: AnswerInput[];
}

const file = process.argv[2];
if (!file) {
  console.error("usage: npx tsx tests/eval/replay.ts <dump.json>");
  process.exit(2);
}
const dump = JSON.parse(readFileSync(file, "utf8")) as Dump;
const asked = [...EVAL_QUESTIONS.map((question, i) => ({ question, set: isHeldAside(i) ? "held" : "dev" })), ...PAPER_QUESTIONS.map((question) => ({ question, set: "papers" }))];
if (dump.inputs.length !== asked.length) throw new Error(`the dump holds ${dump.inputs.length} inputs for ${asked.length} questions`);

const pagesById = new Map(Object.values(dump.documents).map((d) => [d.id, d.pages]));
const pageText = (documentId: string, pageNumber: number) => pagesById.get(documentId)?.[pageNumber - 1];
const idOf = (key: string) => dump.documents[key].id;

const embedder = new SentenceEncoderEmbedder();
const model = new ExtractiveModel({ encoder: { embed: (texts, signal) => embedder.embedFirst(texts, signal) } });

const results = [];
for (const [i, { question, set }] of asked.entries()) {
  const answer: AnswerUnderTest = { text: "", citations: [] };
  for await (const event of model.streamAnswer(dump.inputs[i])) {
    if (event.type === "text") answer.text += event.text;
    else answer.citations = event.citations;
  }
  results.push({ question, set, answer, judgement: judge(question, answer, pageText, idOf), evidence: evidence(question, dump.inputs[i].passages, idOf) });
}
embedder.close();

console.log(formatTable("development set", summarize(results.filter((r) => r.set === "dev"))));
console.log(formatTable("held-aside set", summarize(results.filter((r) => r.set === "held"))));
console.log(formatTable("all", summarize(results.filter((r) => r.set !== "papers"))));
console.log(formatTable("two-column papers", summarize(results.filter((r) => r.set === "papers"))));
for (const r of results.filter((r) => r.set === "dev" || r.set === "papers")) {
  const wrong = r.question.kind === "unanswerable" ? !r.judgement.declined : !r.judgement.rightPage;
  if (wrong) console.log(`  ✗ [${r.set} ${r.question.kind}] ${r.question.question} → ${r.judgement.declined ? "declined" : r.answer.citations.map((c) => `p${c.pageNumber}`).join(",")}`);
}
process.exit(0);
