/**
 * The built-in model on real documents, through the path users take
 * (ARCHITECTURE §6, issue #13): PDF bytes uploaded to an embedded runtime ->
 * the ingestion workflow (the app's extraction, chunking, search index) -> a
 * workspace holding the documents -> one new conversation per question (so no
 * question borrows another's words) -> the answer and its citations as the
 * chat receives them.
 *
 * Figures per kind (plain / reworded / unanswerable), for the development set
 * and the held-aside set separately, plus ALCE-style citation recall and
 * precision judged by exact span matching, and evidence recall: how often the
 * passages handed to the model hold an accepted page and the fact, with how
 * much text was handed over (decision 195). The two-column papers (issue #41)
 * sit in a workspace of their own, their questions reported apart (decision 235).
 * Printed, and written to tests/.artifacts/eval.json. The floors below sit a little under the figures
 * measured when they were set, so a regression fails; the issue's aims are
 * printed beside them.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TOKENS } from "#application/tokens";
import type { WorkflowEngine } from "#application/ports/workflow";
import type { RequestContext } from "#application/shared/request-context";
import { type AnswerStreamEvent, ConversationService } from "#application/conversation/conversation-service";
import { LibraryQueries } from "#application/library/library-queries";
import { LibraryService } from "#application/library/library-service";
import { WorkspaceService } from "#application/workspace/workspace-service";
import { settle } from "../support/library-fixtures";
import { createTestRuntime } from "../support/test-runtime";
import { EVAL_DOCUMENTS, EVAL_QUESTIONS, type EvalQuestion, isHeldAside, PAPER_DOCUMENTS, PAPER_QUESTIONS } from "./questions";
import { type AnswerUnderTest, type EvalFigures, type Evidence, evidence, formatTable, type Judgement, judge, summarize } from "./scoring";
import { PLANS } from "#domain/billing/plans";
import { workspaceEmbeddingWorkflowId } from "#workflows/workspace-embedding";
import type { AnswerInput, LanguageModel } from "#application/ports/language-model";

/** Embedding ~2,000 passages costs minutes on two cores (0.2–0.4 s each); generous, since a shared machine is slower. */
const EMBEDDING_TIMEOUT_MS = 40 * 60_000;

const ROOT = path.resolve(__dirname, "../..");

/** `../shared/...` is relative to the checkout; a git worktree one folder deeper finds it one level further up. */
function locate(file: string): string | undefined {
  const candidates = file.startsWith("../") ? [path.resolve(ROOT, file), path.resolve(ROOT, "..", file)] : [path.resolve(ROOT, file)];
  return candidates.find((candidate) => existsSync(candidate));
}

/** A machine without the shared corpus cannot run the evaluation: the suite says so and is skipped, never passed. */
const missing = [...EVAL_DOCUMENTS, ...PAPER_DOCUMENTS].filter((document) => locate(document.path) === undefined).map((document) => document.path);
if (missing.length > 0) console.warn(`[eval] skipped: evaluation documents not found: ${missing.join(", ")}`);

const OWNER = "eval-reader";
const ctx: RequestContext = { requestId: "eval", clientAddress: "127.0.0.1", actorId: OWNER };

/**
 * Measured floors (docs/decisions/066, 069 and 071): a little under what the
 * model achieves today on the default path, hybrid retrieval with the
 * built-in embedding model and each shortlisted sentence's meaning, handed one
 * passage per page (decision 195: dev 68 % / 47 % reworded / 67 % declined /
 * 15 % wrongly declined; held 81 % / 78 % / 64 % / 8 %).
 */
const FLOORS = {
  development: { rightPageAnswerable: 0.65, rightPageReworded: 0.4, unanswerableDeclined: 0.6, maxWronglyDeclined: 0.17, citationRecall: 0.95, citationPrecision: 0.95 },
  heldAside: { rightPageAnswerable: 0.75, unanswerableDeclined: 0.5 },
  // Issue #41 (decisions 235, 211): measured 85.7 % right page and 100 % evidence recall (fact) when set.
  papers: { rightPageAnswerable: 0.8, evidenceFactAnswerable: 0.95 },
};
const AIMS = "aims: right page ≥ 85% of answerable, ≥ 75% reworded; ≥ 85% of unanswerable declined; ≤ 10% of answerable wrongly declined; papers' evidence recall (fact) ≥ 95%";

let env: Awaited<ReturnType<typeof createTestRuntime>>;
const documentIds = new Map<string, string>();
const pages = new Map<string, string[]>();

async function ingest(file: string, name: string, ocr: boolean): Promise<string> {
  const library = env.runtime.container.get(LibraryService);
  const bytes = readFileSync(locate(file)!);
  const registered = await library.registerUpload(OWNER, { document_name: name, document_type: "application/pdf", document_size: bytes.length, page_count: 1, ocr: String(ocr) }, ctx);
  const token = new URL(registered.url, "http://x").searchParams.get("token")!;
  await library.receiveUpload(registered.document_id, token, bytes, "application/pdf", ctx);
  await env.runtime.get<WorkflowEngine>(TOKENS.WorkflowEngine).waitForCompletion(`ingestion-${registered.document_id}`, 120_000);
  return registered.document_id;
}

async function ask(workspaceId: string, question: string): Promise<AnswerUnderTest> {
  const conversations = env.runtime.container.get(ConversationService);
  const { conversationId } = await conversations.create(OWNER, workspaceId, ctx);
  let text = "";
  for await (const event of conversations.ask(OWNER, conversationId, { text: question }, ctx) as AsyncGenerator<AnswerStreamEvent>) {
    if (event.type === "text") text += event.text;
    else return { text, citations: event.metadata.citations };
  }
  throw new Error(`no answer metadata for: ${question}`);
}

describe.skipIf(missing.length > 0)("the built-in model on real documents, through ingestion, retrieval and the chat", () => {
  const results: { question: EvalQuestion; set: "development" | "heldAside" | "papers"; answer: AnswerUnderTest; judgement: Judgement; evidence: Evidence }[] = [];
  const figures: Record<"development" | "heldAside" | "all" | "papers", EvalFigures> = {} as never;

  beforeAll(async () => {
    // The reader is on the yearly Pine plan: the book alone has 352 pages, more than the free plan's month.
    // The default a user with no keys gets: hybrid retrieval with the built-in embedding model (decision 070).
    // PDF_EXTRACTOR=pdfjs runs it on the previous extractor, to compare the figures before and after (issue #33).
    const extractor = process.env.PDF_EXTRACTOR;
    env = await createTestRuntime({ builtInEmbeddings: true, allowances: { limits: async () => PLANS["pine-yearly"].limits }, env: extractor ? { PDF_EXTRACTOR: extractor } : {} });
    for (const document of [...EVAL_DOCUMENTS, ...PAPER_DOCUMENTS]) documentIds.set(document.key, await ingest(document.path, document.name, document.ocr ?? false));
    await settle(env.runtime);
    const queries = env.runtime.container.get(LibraryQueries);
    for (const id of documentIds.values()) {
      const document = await queries.getDocument(OWNER, id);
      expect(document.status, `${document.name}: ${document.failureReason ?? ""}`).toBe("ACTIVE");
      pages.set(id, (await queries.pages(OWNER, id)).map((p) => p.text));
    }
    const workspaces = env.runtime.container.get(WorkspaceService);
    const engine = env.runtime.get<WorkflowEngine>(TOKENS.WorkflowEngine);
    const launch = async (name: string, documents: typeof EVAL_DOCUMENTS) => {
      const { workspaceId } = await workspaces.create(OWNER, { name, type: "Conversation", documentIds: documents.map((d) => documentIds.get(d.key)!) }, ctx);
      await engine.waitForCompletion(`workspace-launch-${workspaceId}`, 60_000);
      // Keyword-searchable at ACTIVE; the questions wait until the background embedding has reached every passage.
      const embeddingStarted = Date.now();
      await engine.waitForCompletion(workspaceEmbeddingWorkflowId(workspaceId, 1), EMBEDDING_TIMEOUT_MS);
      console.log(`[eval] the built-in embedding model embedded the workspace "${name}" in ${Math.round((Date.now() - embeddingStarted) / 1000)} s`);
      return workspaceId;
    };
    const workspaceId = await launch("Evaluation", EVAL_DOCUMENTS);
    const papersWorkspaceId = await launch("Papers", PAPER_DOCUMENTS);
    await settle(env.runtime);

    // What the model is handed per question: evidence recall is measured on it. EVAL_DUMP=<file> also writes
    // it out, so tests/eval/replay.ts can search the model's parameters over the development set in seconds.
    const handed: AnswerInput[] = [];
    const model = env.runtime.get<LanguageModel>(TOKENS.BuiltInModel);
    const streamAnswer = model.streamAnswer.bind(model);
    model.streamAnswer = (input, signal) => {
      handed.push(input);
      return streamAnswer(input, signal);
    };

    const pageText = (documentId: string, pageNumber: number) => pages.get(documentId)?.[pageNumber - 1];
    const idOf = (key: string) => documentIds.get(key)!;
    const asked = [
      ...EVAL_QUESTIONS.map((question, i) => ({ question, workspaceId, set: isHeldAside(i) ? ("heldAside" as const) : ("development" as const) })),
      ...PAPER_QUESTIONS.map((question) => ({ question, workspaceId: papersWorkspaceId, set: "papers" as const })),
    ];
    for (const [i, { question, workspaceId, set }] of asked.entries()) {
      const answer = await ask(workspaceId, question.question);
      expect(handed, "one model call per question").toHaveLength(i + 1);
      results.push({ question, set, answer, judgement: judge(question, answer, pageText, idOf), evidence: evidence(question, handed[i].passages, idOf) });
    }
    figures.development = summarize(results.filter((r) => r.set === "development"));
    figures.heldAside = summarize(results.filter((r) => r.set === "heldAside"));
    figures.all = summarize(results.filter((r) => r.set !== "papers"));
    figures.papers = summarize(results.filter((r) => r.set === "papers"));

    const misses = results
      .filter((r) => (r.question.kind === "unanswerable" ? !r.judgement.declined : !r.judgement.rightPage))
      .map((r) => `  ✗ [${{ heldAside: "held", development: "dev", papers: "paper" }[r.set]} ${r.question.kind}] ${r.question.question} → ${r.judgement.declined ? "declined" : r.answer.citations.map((c) => `p${c.pageNumber}`).join(",")}`);
    console.log(
      [`[eval] PDF text read by ${env.runtime.config.pdfExtractor.extractor}`, formatTable("development set", figures.development), formatTable("held-aside set", figures.heldAside), formatTable("all", figures.all), formatTable("two-column papers (their own workspace)", figures.papers), `[eval] ${AIMS}`, ...misses].join("\n"),
    );
    if (process.env.EVAL_DUMP) {
      // Both workspaces' documents and what was handed for each question (the papers' after the others'), as replay.ts and recall.ts read them.
      const documents = Object.fromEntries([...EVAL_DOCUMENTS, ...PAPER_DOCUMENTS].map(({ key }) => [key, { id: documentIds.get(key), pages: pages.get(documentIds.get(key)!) }]));
      writeFileSync(process.env.EVAL_DUMP, JSON.stringify({ documents, inputs: handed }));
    }
    const artifacts = path.join(ROOT, "tests/.artifacts");
    mkdirSync(artifacts, { recursive: true });
    writeFileSync(
      path.join(artifacts, "eval.json"),
      JSON.stringify(
        {
          pdfExtractor: env.runtime.config.pdfExtractor.extractor,
          figures,
          answers: results.map((r, i) => ({
            set: r.set,
            kind: r.question.kind,
            question: r.question.question,
            accepted: r.question.pages ?? [],
            also: r.question.also,
            answer: r.answer,
            judgement: r.judgement,
            evidence: r.evidence,
            handed: handed[i].passages.map((p) => ({ documentId: p.documentId, pageNumber: p.pageNumber, characters: p.text.length })),
          })),
        },
        null,
        2,
      ),
    );
  }, EMBEDDING_TIMEOUT_MS + 600_000);

  afterAll(async () => env?.cleanup());

  it("cites an accepted page for answerable questions, plain and reworded (development set)", () => {
    expect(figures.development.rightPageAnswerable).toBeGreaterThanOrEqual(FLOORS.development.rightPageAnswerable);
    expect(figures.development.rightPageReworded).toBeGreaterThanOrEqual(FLOORS.development.rightPageReworded);
  });

  it("declines questions the documents cannot answer, and rarely declines ones they can (development set)", () => {
    expect(figures.development.unanswerableDeclined).toBeGreaterThanOrEqual(FLOORS.development.unanswerableDeclined);
    expect(figures.development.answerableWronglyDeclined).toBeLessThanOrEqual(FLOORS.development.maxWronglyDeclined);
  });

  it("quotes only text its cited pages hold, and cites only pages it quotes (development set)", () => {
    expect(figures.development.citationRecall).toBeGreaterThanOrEqual(FLOORS.development.citationRecall);
    expect(figures.development.citationPrecision).toBeGreaterThanOrEqual(FLOORS.development.citationPrecision);
  });

  it("holds up on the held-aside questions it was never tuned on", () => {
    expect(figures.heldAside.rightPageAnswerable).toBeGreaterThanOrEqual(FLOORS.heldAside.rightPageAnswerable);
    expect(figures.heldAside.unanswerableDeclined).toBeGreaterThanOrEqual(FLOORS.heldAside.unanswerableDeclined);
  });

  it("hands over the passage that answers a question on a two-column paper, and cites its page", () => {
    expect(figures.papers.evidenceFactAnswerable).toBeGreaterThanOrEqual(FLOORS.papers.evidenceFactAnswerable);
    expect(figures.papers.rightPageAnswerable).toBeGreaterThanOrEqual(FLOORS.papers.rightPageAnswerable);
  });
});
