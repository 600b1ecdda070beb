/**
 * How an answer is judged in the real-document evaluation. Pure functions, so
 * the judging itself is unit-tested (scoring.test.ts) apart from the model.
 */
import type { EvalQuestion } from "./questions";

export interface JudgedCitation {
  documentId: string;
  pageNumber: number;
  quote?: string;
}

export interface AnswerUnderTest {
  text: string;
  citations: JudgedCitation[];
}

export interface Judgement {
  declined: boolean;
  rightPage: boolean;
  factFound: boolean;
  /** Answer sentences and how many of them their cited page supports (ALCE citation recall). */
  statements: number;
  supportedStatements: number;
  /** Citations and how many of them support at least one answer sentence (ALCE citation precision). */
  citations: number;
  supportingCitations: number;
}

/**
 * Text as a reader compares it: Markdown escapes removed, words broken at a
 * line end rejoined ("Car- olina" → "Carolina"), typographic quotes and
 * ellipses dropped, whitespace collapsed.
 */
export function normalizeForMatch(text: string): string {
  return text
    .replace(/\\([\\`*_[\]<>#|~])/g, "$1")
    .replace(/(\p{L})[-\u00ad]\s+(\p{Ll})/gu, "$1$2")
    .replace(/[“”"]/g, "")
    .replace(/…/g, " ")
    .replace(/\s+/g, " ")
    .trim();
}

/**
 * The answer's sentences with the citation each is attached to: the text
 * before a marker `[n]` (back to the previous marker or line start) belongs to
 * the n-th citation. Lead-ins, bullets, quote marks and "(name, page N)"
 * source labels are not statements.
 */
export function citedStatements(text: string): { citation: number; sentence: string }[] {
  const statements: { citation: number; sentence: string }[] = [];
  for (const line of text.split("\n")) {
    let rest = line;
    for (const match of line.matchAll(/\[(\d+)\]/g)) {
      const upTo = rest.indexOf(match[0]);
      let segment = rest.slice(0, upTo);
      rest = rest.slice(upTo + match[0].length);
      segment = segment.replace(/^\s*(?:>|-)\s*/, "").replace(/\s*\([^()]*\b(?:page|p\.)\s*\d+\)\s*$/i, "");
      for (const sentence of splitSentences(normalizeForMatch(segment))) statements.push({ citation: Number(match[1]) - 1, sentence });
    }
  }
  return statements;
}

function splitSentences(text: string): string[] {
  return text
    .split(/(?<=[.!?])\s+(?=[“"'(]?[\p{Lu}\p{N}])/u)
    .map((s) => s.trim())
    .filter((s) => /\p{L}{2}/u.test(s));
}

/** Whether a document's page is one the question accepts: its own document's pages, or those of the same text set in another document. */
function acceptedPages(question: EvalQuestion, documentIdOf: (key: string) => string): (page: { documentId: string; pageNumber: number }) => boolean {
  const accepted = [...(question.document ? [{ document: question.document, pages: question.pages ?? [] }] : []), ...(question.also ? [question.also] : [])].map((a) => ({ id: documentIdOf(a.document), pages: a.pages }));
  return (page) => accepted.some((a) => a.id === page.documentId && a.pages.includes(page.pageNumber));
}

/**
 * Judges one answer. A sentence is supported when its cited page holds it
 * verbatim (exact span after normalisation) and, when the citation carries a
 * quote, the quote is itself a span of that page and contains the sentence.
 */
export function judge(question: EvalQuestion, answer: AnswerUnderTest, pageText: (documentId: string, pageNumber: number) => string | undefined, documentIdOf: (key: string) => string): Judgement {
  const declined = answer.citations.length === 0;
  const accepted = acceptedPages(question, documentIdOf);
  const rightPage = !declined && answer.citations.some(accepted);
  const factFound = !declined && question.fact !== undefined && question.fact.test(normalizeForMatch(answer.text));

  const statements = declined ? [] : citedStatements(answer.text);
  const supporting = new Set<number>();
  let supported = 0;
  for (const { citation, sentence } of statements) {
    const cited = answer.citations[citation];
    if (!cited) continue;
    const page = pageText(cited.documentId, cited.pageNumber);
    if (page === undefined) continue;
    const normalizedPage = normalizeForMatch(page);
    const quoteHolds = cited.quote === undefined || (page.includes(cited.quote) && normalizeForMatch(cited.quote).includes(sentence));
    if (quoteHolds && normalizedPage.includes(sentence)) {
      supported++;
      supporting.add(citation);
    }
  }
  return {
    declined,
    rightPage,
    factFound,
    statements: statements.length,
    supportedStatements: supported,
    citations: answer.citations.length,
    supportingCitations: supporting.size,
  };
}

/**
 * Evidence recall of one answerable question: what the passages handed to the
 * model held, whatever the model then made of them. `page`: a passage of an
 * accepted page of the right document; `fact`: such a passage whose text holds
 * the fact (a fact matched on another page does not count, it may be a
 * coincidence of digits).
 */
export interface Evidence {
  page: boolean;
  fact: boolean;
  /** Passages handed over and their characters, for the cost of what recall gains. */
  passages: number;
  characters: number;
}

export interface HandedPassage {
  documentId: string;
  pageNumber: number;
  text: string;
}

export function evidence(question: EvalQuestion, passages: HandedPassage[], documentIdOf: (key: string) => string): Evidence {
  const onAcceptedPage = passages.filter(acceptedPages(question, documentIdOf));
  return {
    page: onAcceptedPage.length > 0,
    fact: question.fact !== undefined && onAcceptedPage.some((p) => question.fact!.test(normalizeForMatch(p.text))),
    passages: passages.length,
    characters: passages.reduce((total, p) => total + p.text.length, 0),
  };
}

export interface KindFigures {
  questions: number;
  rightPage: number;
  factFound: number;
  declined: number;
  /** Evidence recall (answerable kinds): questions whose handed passages held an accepted page / the fact. */
  evidencePage: number;
  evidenceFact: number;
}

export interface EvalFigures {
  plain: KindFigures;
  reworded: KindFigures;
  unanswerable: KindFigures;
  /** Shares, 0..1. */
  rightPageAnswerable: number;
  rightPageReworded: number;
  factFoundAnswerable: number;
  unanswerableDeclined: number;
  answerableWronglyDeclined: number;
  citationRecall: number;
  citationPrecision: number;
  /** Evidence recall over answerable questions, and over reworded ones: an accepted page / the fact among the handed passages. */
  evidencePageAnswerable: number;
  evidenceFactAnswerable: number;
  evidencePageReworded: number;
  evidenceFactReworded: number;
  /** What was handed over per question (all kinds), on average. */
  passagesPerQuestion: number;
  charactersPerQuestion: number;
}

export function summarize(results: { question: EvalQuestion; judgement: Judgement; evidence: Evidence }[]): EvalFigures {
  const kind = (k: EvalQuestion["kind"]): KindFigures => {
    const of = results.filter((r) => r.question.kind === k);
    return {
      questions: of.length,
      rightPage: of.filter((r) => r.judgement.rightPage).length,
      factFound: of.filter((r) => r.judgement.factFound).length,
      declined: of.filter((r) => r.judgement.declined).length,
      evidencePage: of.filter((r) => r.evidence.page).length,
      evidenceFact: of.filter((r) => r.evidence.fact).length,
    };
  };
  const plain = kind("plain");
  const reworded = kind("reworded");
  const unanswerable = kind("unanswerable");
  const answerable = plain.questions + reworded.questions;
  const share = (n: number, of: number) => (of === 0 ? 0 : n / of);
  const sum = (f: (j: Judgement) => number) => results.reduce((total, r) => total + f(r.judgement), 0);
  return {
    plain,
    reworded,
    unanswerable,
    rightPageAnswerable: share(plain.rightPage + reworded.rightPage, answerable),
    rightPageReworded: share(reworded.rightPage, reworded.questions),
    factFoundAnswerable: share(plain.factFound + reworded.factFound, answerable),
    unanswerableDeclined: share(unanswerable.declined, unanswerable.questions),
    answerableWronglyDeclined: share(plain.declined + reworded.declined, answerable),
    citationRecall: share(sum((j) => j.supportedStatements), sum((j) => j.statements)),
    citationPrecision: share(sum((j) => j.supportingCitations), sum((j) => j.citations)),
    evidencePageAnswerable: share(plain.evidencePage + reworded.evidencePage, answerable),
    evidenceFactAnswerable: share(plain.evidenceFact + reworded.evidenceFact, answerable),
    evidencePageReworded: share(reworded.evidencePage, reworded.questions),
    evidenceFactReworded: share(reworded.evidenceFact, reworded.questions),
    passagesPerQuestion: share(results.reduce((total, r) => total + r.evidence.passages, 0), results.length),
    charactersPerQuestion: share(results.reduce((total, r) => total + r.evidence.characters, 0), results.length),
  };
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

/** The table printed in the test output. */
export function formatTable(label: string, f: EvalFigures): string {
  const of = (n: number, k: KindFigures) => pct(n / (k.questions || 1)).padStart(6);
  const row = (name: string, k: KindFigures, answerable: boolean) =>
    answerable
      ? `  ${name.padEnd(13)} ${String(k.questions).padStart(3)}   right page ${of(k.rightPage, k)}   fact ${of(k.factFound, k)}   wrongly declined ${of(k.declined, k)}` +
        `   | evidence: page ${of(k.evidencePage, k)}   fact ${of(k.evidenceFact, k)}`
      : `  ${name.padEnd(13)} ${String(k.questions).padStart(3)}   declined ${of(k.declined, k)}`;
  return [
    `[eval] ${label}`,
    row("plain", f.plain, true),
    row("reworded", f.reworded, true),
    row("unanswerable", f.unanswerable, false),
    `  answerable: right page ${pct(f.rightPageAnswerable)}, fact ${pct(f.factFoundAnswerable)}, wrongly declined ${pct(f.answerableWronglyDeclined)}; ` +
      `citation recall ${pct(f.citationRecall)}, citation precision ${pct(f.citationPrecision)}`,
    `  evidence recall (handed passages): answerable page ${pct(f.evidencePageAnswerable)}, fact ${pct(f.evidenceFactAnswerable)}; ` +
      `reworded page ${pct(f.evidencePageReworded)}, fact ${pct(f.evidenceFactReworded)}; ` +
      `handed per question ${f.passagesPerQuestion.toFixed(1)} passages, ${Math.round(f.charactersPerQuestion)} characters`,
  ].join("\n");
}
