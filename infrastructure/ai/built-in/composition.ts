import type { AnswerInput, Citation, Passage, TokenUsage } from "#application/ports/language-model";
import { contentTermForms } from "#application/shared/text-analysis";
import {
  DEFAULT_MIN_RELEVANCE,
  hasEvidence,
  SEMANTIC_MIN_RELEVANCE,
  SENTENCE_EVIDENCE,
  SENTENCE_MIN_RELEVANCE,
  SENTENCE_SHORTLIST,
  type SemanticEvidence,
  semanticCloseness,
  withMeaning,
  WORDS_ALONE_RELEVANCE,
} from "./abstention";
import { detectLanguage, phrasesFor } from "./languages";
import { analyzeQuestion } from "./question";
import { idfOver, passageCoverage, pickDiverse, type Scored, scoreSentence } from "./selection";
import { dedupe, type Sentence, splitPassage } from "./sentences";

/**
 * The answer of the built-in model: the picked sentences, quoted verbatim in
 * reading order, grouped per document page, each group with its citation and
 * the exact spans it quotes (what a click on the citation highlights). Or,
 * without enough evidence, the fixed phrase saying it found nothing.
 */
export interface ComposedAnswer {
  text: string;
  citations: Citation[];
}

export interface CompositionOptions {
  /** Most sentences quoted in one answer (default 3). */
  maxSentences?: number;
  /**
   * Below this relevance the documents are taken not to contain an answer
   * (abstention.ts). Default: the threshold measured for the retrieval the
   * passages came from (with similarities in meaning, or words alone).
   */
  minRelevance?: number;
  /** How meaning (the passage's embedding similarity to the question) adds to a sentence's relevance (abstention.ts). */
  semantic?: SemanticEvidence;
  /**
   * Each shortlisted sentence's own similarity in meaning to the question
   * (`shortlist`, keyed by `sentenceKey`), measured by the built-in encoder.
   * Used with the passages' similarities (hybrid retrieval, the default);
   * absent, the passage-level rule decides alone.
   */
  sentenceSimilarity?: Map<string, number>;
}

/** Identifies a sentence across calls: ranking is deterministic for the same input. */
export function sentenceKey(sentence: Sentence): string {
  return `${sentence.passage}:${sentence.index}`;
}

/** The sentences worth measuring in meaning: the best by words and passage meaning, a few, since each costs the encoder. */
export function shortlist(ranked: RankedSentences, size = SENTENCE_SHORTLIST): Sentence[] {
  return [...ranked.quotable].sort((a, b) => b.score - a.score).slice(0, size).map((s) => s.sentence);
}

/** A further quote must be nearly as relevant as the best one: answers stay short and on point. */
const SECONDARY_SHARE = 0.75;

/** The quotable sentences of the passages, scored: by words alone, and with their passage's meaning added. */
export interface RankedSentences {
  byWords: Scored[];
  quotable: Scored[];
  /** Whether retrieval passed similarities in meaning (a workspace with an embedding model). */
  withSimilarities: boolean;
}

export function rankSentences(input: AnswerInput, options: CompositionOptions = {}): RankedSentences | null {
  const question = analyzeQuestion(input);
  if (question.weights.size === 0 || input.passages.length === 0) return null;
  const sentences = dedupe(input.passages.flatMap((passage, i) => splitPassage(passage.text, i, passage.documentName)));
  const idf = idfOver(input.passages, input.termStatistics);
  // What the text around a sentence speaks of is its section: a chunk of a paper's page runs across several,
  // and "Related Work" two sections down is not what a sentence of "5.5 Energy" is about.
  const coverage = new Map<string, number>();
  const sectionCoverage = ({ passage, section }: Sentence) => {
    const key = `${passage}:${section.start}`;
    let value = coverage.get(key);
    if (value === undefined) coverage.set(key, (value = passageCoverage(contentTermForms(input.passages[passage].text.slice(section.start, section.end)), question, idf)));
    return value;
  };
  const closeness = input.passages.map((p) => semanticCloseness(p.similarity, options.semantic));
  // Headings label, unreadable text (a broken font's glyph soup) misleads: neither is ever quoted.
  const byWords = sentences.filter((s) => !s.heading && !s.unreadable).map((s) => scoreSentence(s, question, idf, sectionCoverage(s)));
  const quotable = byWords.map((scored) => withMeaning(scored, closeness[scored.sentence.passage], options.semantic));
  return { byWords, quotable, withSimilarities: input.passages.some((p) => p.similarity !== undefined) };
}

export function composeAnswer(input: AnswerInput, options: CompositionOptions = {}): ComposedAnswer {
  const phrases = phrasesFor(input.language);
  const prefix = input.images && input.images.length > 0 ? `${phrases.images}\n\n` : "";
  const notFound = { text: prefix + phrases.notFound, citations: [] };

  const ranked = rankSentences(input, options);
  if (!ranked) return notFound;
  const chosen = options.sentenceSimilarity && ranked.withSimilarities ? bySentenceMeaning(ranked, options.sentenceSimilarity) : byPassageMeaning(ranked, options);
  if (!chosen) return notFound;
  const picked = pickDiverse(chosen.candidates, options.maxSentences ?? 3);
  if (picked.length === 0) return notFound;

  // Quote in reading order: passages in the order they were first picked, sentences in document order within each.
  const passageOrder = [...new Set(picked.map((s) => s.passage))];
  picked.sort((a, b) => passageOrder.indexOf(a.passage) - passageOrder.indexOf(b.passage) || a.index - b.index);
  const groups = groupByPage(picked, input.passages);

  let body: string;
  if (groups.length === 1) {
    const [group] = groups;
    body = `${phrases.lead(formatName(group.name), group.citation.pageNumber)}\n\n> ${group.sentences.join(" ")} [1]`;
  } else {
    const bullets = groups.map((g, i) => `- “${g.sentences.join(" ")}” (${phrases.source(formatName(g.name), g.citation.pageNumber)}) [${i + 1}]`);
    body = `${phrases.leadMany}\n\n${bullets.join("\n")}`;
  }
  // Quotes stay verbatim, so say so when they are not in the language the user asked for.
  const quotedLanguage = detectLanguage(picked.map((s) => s.text).join(" "));
  const note = quotedLanguage && quotedLanguage !== phrases.code ? `\n\n_${phrases.quotedNote}_` : "";
  return { text: prefix + body + note, citations: groups.map((g) => g.citation) };
}

/** The sentences that may be quoted, each at least as relevant as the bar, or null: no evidence. */
type Choice = { candidates: Scored[] } | null;

/**
 * Decisions 067 and 069: words, plus the passage's meaning when retrieval
 * measured it. Meaning adds evidence and never takes any away: what words
 * alone answered before still answers (a passage not embedded yet, a
 * transcript whose recognition errors blur its meaning but keep the words).
 */
function byPassageMeaning({ byWords, quotable, withSimilarities }: RankedSentences, options: CompositionOptions): Choice {
  const minRelevance = options.minRelevance ?? (withSimilarities ? SEMANTIC_MIN_RELEVANCE : DEFAULT_MIN_RELEVANCE);
  const best = Math.max(0, ...quotable.map((s) => s.relevance));
  const bestByWords = Math.max(0, ...byWords.map((s) => s.relevance));
  const bar = hasEvidence(best, minRelevance) ? minRelevance : hasEvidence(bestByWords, DEFAULT_MIN_RELEVANCE) ? DEFAULT_MIN_RELEVANCE : null;
  if (bar === null) return null;
  const floor = Math.max(best * SECONDARY_SHARE, bar);
  return { candidates: quotable.filter((s) => s.relevance >= floor) };
}

/**
 * Decision 071: the shortlisted sentences, each with its own meaning added
 * to its words and its passage's meaning. Sentences off the shortlist are
 * not quoted (their meaning was not measured, and they ranked lower anyway).
 */
function bySentenceMeaning({ byWords, quotable }: RankedSentences, similarity: Map<string, number>): Choice {
  const words = new Map(byWords.map((s) => [sentenceKey(s.sentence), s.relevance]));
  const measured = quotable
    .filter((s) => similarity.has(sentenceKey(s.sentence)))
    .map((s) => withMeaning(s, semanticCloseness(similarity.get(sentenceKey(s.sentence)), SENTENCE_EVIDENCE), SENTENCE_EVIDENCE));
  const best = Math.max(0, ...measured.map((s) => s.relevance));
  const bestByWords = Math.max(0, ...measured.map((s) => words.get(sentenceKey(s.sentence)) ?? 0));
  if (!hasEvidence(best, SENTENCE_MIN_RELEVANCE) && !hasEvidence(bestByWords, WORDS_ALONE_RELEVANCE)) return null;
  const floor = Math.max(best * SECONDARY_SHARE, hasEvidence(best, SENTENCE_MIN_RELEVANCE) ? SENTENCE_MIN_RELEVANCE : 0);
  return { candidates: measured.filter((s) => s.relevance >= floor) };
}

/**
 * One group per document-page pair, so one citation each, once, and one
 * quote per citation (decision 068): the exact span of the passage from the
 * group's first sentence to its last, which the viewer highlights. A further
 * sentence of the same page joins its group only when it lies in the same
 * passage within MAX_GAP sentences of that span (the highlight then covers
 * the few sentences between); one from elsewhere on the page is left out
 * rather than cited with a span that does not hold it.
 */
const MAX_GAP = 2;

function groupByPage(picked: Sentence[], passages: Passage[]) {
  const groups: { citation: Citation; name: string; passage: number; first: Sentence; last: Sentence; sentences: string[] }[] = [];
  for (const sentence of picked) {
    const passage = passages[sentence.passage];
    const group = groups.find((g) => g.citation.documentId === passage.documentId && g.citation.pageNumber === passage.pageNumber);
    if (!group) {
      groups.push({
        citation: { documentId: passage.documentId, pageNumber: passage.pageNumber, quote: sentence.quote },
        name: passage.documentName,
        passage: sentence.passage,
        first: sentence,
        last: sentence,
        sentences: [escapeMarkdown(sentence.text)],
      });
      continue;
    }
    if (group.passage !== sentence.passage) continue;
    if (sentence.index > group.last.index && sentence.index - group.last.index <= MAX_GAP + 1) {
      group.last = sentence;
      group.sentences.push(escapeMarkdown(sentence.text));
    } else if (sentence.index < group.first.index && group.first.index - sentence.index <= MAX_GAP + 1) {
      group.first = sentence;
      group.sentences.unshift(escapeMarkdown(sentence.text));
    } else continue;
    group.citation.quote = passage.text.slice(group.first.start, group.last.end);
  }
  return groups;
}

// ---------------------------------------------------------------------------
// Output hygiene


/**
 * The answer is rendered as Markdown: quoted document text must stay text, so
 * a document cannot inject links, images, HTML or fake structure (headings,
 * a bogus "Sources" list) into the answer. Whitespace is already collapsed,
 * so a quote cannot break out of its blockquote or bullet.
 */
export function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_[\]<>#|~]/g, (ch) => `\\${ch}`);
}

export function formatName(name: string): string {
  return `*${escapeMarkdown(name.replace(/\s+/g, " ").trim())}*`;
}

// ---------------------------------------------------------------------------
// Streaming and usage

/** Word groups whose concatenation is exactly `text` (whitespace kept with the word before it). */
export function streamChunks(text: string, wordsPerChunk: number): string[] {
  const tokens = text.match(/\s*\S+\s*/g) ?? [];
  const chunks: string[] = [];
  for (let i = 0; i < tokens.length; i += wordsPerChunk) chunks.push(tokens.slice(i, i + wordsPerChunk).join(""));
  return chunks;
}

/** Approximate: providers report real counts; ~1.3 tokens per word is typical for BPE tokenizers on prose. */
function approximateTokens(text: string): number {
  return Math.ceil((text.match(/\S+/g)?.length ?? 0) * 1.3);
}

export function usageOf(input: AnswerInput, answer: string): TokenUsage {
  const inputText = [input.question, input.selectedText ?? "", ...input.history.map((t) => t.text), ...input.passages.map((p) => p.text)].join(" ");
  return { inputTokens: approximateTokens(inputText), outputTokens: approximateTokens(answer) };
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
