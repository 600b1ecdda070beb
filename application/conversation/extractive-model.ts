import type {
  AnswerEvent,
  AnswerInput,
  Citation,
  LanguageModel,
  ModelCapabilities,
  Passage,
  TokenUsage,
} from "#application/ports/language-model";
import { contentTerms, foldDiacritics, questionTerms, STOP_WORDS_BY_LANGUAGE, words } from "./retrieval";

/**
 * The built-in model (ARCHITECTURE §6): no network, no generative AI. It picks
 * the sentences of the retrieved passages that best match the question and
 * quotes them verbatim, each attributed to its (documentId, pageNumber).
 *
 * Safety by construction: it only ever sees the passages it is handed (scoped
 * to the workspace by retrieval) and only ever outputs fixed phrases plus
 * verbatim sentences of those passages. Document text is data, never
 * instructions: "ignore previous instructions…" in a document can at most be
 * quoted back, and there is nothing else it could reveal.
 *
 * Scoring is general, not tuned to particular questions: query-term coverage
 * weighted by IDF over the retrieved passages (stemmed, diacritics folded),
 * partial credit for terms in the sentence's heading or previous sentence,
 * a bonus for question bigrams kept together, a small prior for the passage's
 * retrieval rank, and a penalty for fragments and run-ons. Sentences are picked
 * MMR-style so a second quote adds something the first did not.
 */
export interface ExtractiveModelOptions {
  /** Pause between streamed chunks, for a typing effect (default 0). */
  chunkDelayMs?: number;
  /** Words per streamed text event (default 3). */
  wordsPerChunk?: number;
  /** Most sentences quoted in one answer (default 3). */
  maxSentences?: number;
  /** Below this coverage the documents are taken not to contain an answer (default 0.3). */
  minScore?: number;
}

export const EXTRACTIVE_MODEL_ID = "docuchat-extractive";

export class ExtractiveModel implements LanguageModel {
  readonly id = EXTRACTIVE_MODEL_ID;
  readonly label = "DocuChat built-in (extractive: quotes your documents, no generative AI)";
  readonly capabilities: ModelCapabilities = { images: false, generative: false };
  private readonly options: Required<ExtractiveModelOptions>;

  constructor(options: ExtractiveModelOptions = {}) {
    this.options = {
      chunkDelayMs: options.chunkDelayMs ?? 0,
      wordsPerChunk: Math.max(1, Math.floor(options.wordsPerChunk ?? 3)),
      maxSentences: Math.max(1, Math.floor(options.maxSentences ?? 3)),
      minScore: options.minScore ?? DEFAULT_MIN_SCORE,
    };
  }

  async *streamAnswer(input: AnswerInput, signal?: AbortSignal): AsyncIterable<AnswerEvent> {
    signal?.throwIfAborted();
    const answer = composeAnswer(input, this.options);
    for (const text of streamChunks(answer.text, this.options.wordsPerChunk)) {
      if (this.options.chunkDelayMs > 0) await sleep(this.options.chunkDelayMs, signal);
      signal?.throwIfAborted();
      yield { type: "text", text };
    }
    signal?.throwIfAborted();
    yield { type: "done", citations: answer.citations, usage: usageOf(input, answer.text) };
  }

  async summarize(input: { passages: Passage[]; language: string }): Promise<string> {
    return summarizePassages(input.passages);
  }

  async suggestQuestions(input: { passages: Passage[]; count: number; language?: string }): Promise<string[]> {
    return suggestQuestionsFrom(input.passages, input.count, input.language ?? "English");
  }
}

/**
 * The one global threshold: IDF-weighted share of the question found in the
 * best sentence. Set between the answerable and unanswerable questions of the
 * evaluation set (tests/eval), trading one against the other; never per question.
 */
const DEFAULT_MIN_SCORE = 0.3;

// ---------------------------------------------------------------------------
// Answering

export interface ComposedAnswer {
  text: string;
  citations: Citation[];
}

interface Sentence {
  /** Verbatim text, whitespace collapsed; "…" marks where a chunk cut a sentence. */
  text: string;
  terms: string[];
  termSet: Set<string>;
  /** Terms of the sentence's heading and previous sentence: what "it" and "this" may refer to. */
  context: Set<string>;
  passage: number;
  /** Position in the passage. */
  index: number;
  heading: boolean;
  partial: boolean;
}

interface Scored {
  sentence: Sentence;
  /** IDF-weighted coverage of the question, plus the bigram bonus: what the threshold compares. */
  relevance: number;
  /** Relevance with rank prior and length penalty: what picks the quotes. */
  score: number;
}

/** Pure core of `streamAnswer`: the full answer text and its citations. */
export function composeAnswer(input: AnswerInput, options: Pick<ExtractiveModelOptions, "maxSentences" | "minScore"> = {}): ComposedAnswer {
  const phrases = phrasesFor(input.language);
  const prefix = input.images && input.images.length > 0 ? `${phrases.images}\n\n` : "";
  const notFound = { text: prefix + phrases.notFound, citations: [] };

  const query = queryWeights(input);
  if (query.size === 0 || input.passages.length === 0) return notFound;
  const sentences = dedupe(input.passages.flatMap((passage, i) => splitPassage(passage.text, i, passage.documentName)));
  const idf = idfOver(input.passages);
  const wantsNumber = asksForQuantity(input.question);
  const scored = sentences.map((sentence) => scoreSentence(sentence, query, idf, questionBigrams(input), wantsNumber));
  const best = Math.max(0, ...scored.map((s) => s.relevance));
  if (best < (options.minScore ?? DEFAULT_MIN_SCORE)) return notFound;

  const picked = pickDiverse(
    scored.filter((s) => !s.sentence.heading && s.relevance >= Math.max(best * SECONDARY_SHARE, options.minScore ?? DEFAULT_MIN_SCORE)),
    options.maxSentences ?? 3,
  );
  if (picked.length === 0) return notFound;

  // Quote in reading order: passages in the order they were first picked, sentences in document order within each.
  const passageOrder = [...new Set(picked.map((s) => s.passage))];
  picked.sort((a, b) => passageOrder.indexOf(a.passage) - passageOrder.indexOf(b.passage) || a.index - b.index);

  // One group per document-page pair: one citation each, once.
  const groups: { citation: Citation; name: string; sentences: string[] }[] = [];
  for (const sentence of picked) {
    const passage = input.passages[sentence.passage];
    let group = groups.find((g) => g.citation.documentId === passage.documentId && g.citation.pageNumber === passage.pageNumber);
    if (!group) {
      group = { citation: { documentId: passage.documentId, pageNumber: passage.pageNumber, quote: sentence.text }, name: passage.documentName, sentences: [] };
      groups.push(group);
    }
    group.sentences.push(escapeMarkdown(sentence.text));
  }

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

/** Question terms with weights: the question itself 1; selected text 0.5; the previous question 0.3 for short follow-ups. */
function queryWeights(input: AnswerInput): Map<string, number> {
  const weights = new Map<string, number>();
  const add = (text: string, weight: number) => {
    for (const term of contentTerms(text)) weights.set(term, Math.max(weights.get(term) ?? 0, weight));
  };
  for (const term of questionTerms(input.question)) weights.set(term, 1);
  if (input.selectedText) add(input.selectedText.slice(0, 2_000), 0.5);
  // "And the deposit?" means little alone: borrow the previous question's terms, weakly.
  if (new Set(questionTerms(input.question)).size <= 2) {
    const previous = [...input.history].reverse().find((turn) => turn.role === "user");
    if (previous) add(previous.text, 0.3);
  }
  return weights;
}

function questionBigrams(input: AnswerInput): Set<string> {
  const terms = questionTerms(input.question);
  const bigrams = new Set<string>();
  for (let i = 1; i < terms.length; i++) bigrams.add(`${terms[i - 1]} ${terms[i]}`);
  return bigrams;
}

/**
 * Smoothed IDF with each retrieved passage as a document. Terms absent from
 * every passage weigh as much as the rarest present term: a paraphrased word
 * ("renter" for "tenant") should lower coverage, not veto the answer, while a
 * question made mostly of absent words still falls below the threshold.
 */
function idfOver(passages: Passage[]): (term: string) => number {
  const df = new Map<string, number>();
  for (const passage of passages) for (const term of new Set(contentTerms(passage.text))) df.set(term, (df.get(term) ?? 0) + 1);
  const n = passages.length;
  const idf = (count: number) => Math.log((n + 1) / (count + 0.5)) + 0.1;
  return (term) => idf(Math.max(1, df.get(term) ?? 0));
}

/** A further quote must be nearly as relevant as the best one: answers stay short and on point. */
const SECONDARY_SHARE = 0.75;
const CONTEXT_CREDIT = 0.35;
const BIGRAM_BONUS = 0.08;
const MAX_BIGRAM_BONUS = 0.2;
const RANK_PRIOR = 0.08;

function scoreSentence(
  sentence: Sentence,
  query: Map<string, number>,
  idf: (term: string) => number,
  bigrams: Set<string>,
  wantsNumber: boolean,
): Scored {
  let total = 0;
  let matched = 0;
  for (const [term, weight] of query) {
    const w = weight * idf(term);
    total += w;
    if (sentence.termSet.has(term)) matched += w;
    else if (sentence.context.has(term)) matched += w * CONTEXT_CREDIT;
  }
  let bonus = 0;
  for (let i = 1; i < sentence.terms.length; i++) if (bigrams.has(`${sentence.terms[i - 1]} ${sentence.terms[i]}`)) bonus += BIGRAM_BONUS;
  const relevance = total > 0 ? matched / total + Math.min(bonus, MAX_BIGRAM_BONUS) : 0;
  // Answer type: "how many…?" and "when…?" are answered by sentences holding a number or a date. Only
  // a tie-breaker between relevant sentences: it changes which sentence is quoted, never whether one is.
  const typeBonus = wantsNumber && relevance > 0 && NUMBER.test(sentence.text) ? ANSWER_TYPE_BONUS : 0;
  const score = (relevance + typeBonus + RANK_PRIOR / (1 + sentence.passage)) * shapeFactor(sentence);
  return { sentence, relevance: relevance * shapeFactor(sentence), score };
}

const ANSWER_TYPE_BONUS = 0.1;
const NUMBER_WORDS =
  "one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|forty|fifty|sixty|ninety|hundred|thousand|million|billion|half|twice|once";
const NUMBER = new RegExp(`\\d|\\b(?:${NUMBER_WORDS})\\b`, "i");

/** English quantity and time questions (the other languages' equivalents are welcome; without them only the bonus is lost). */
function asksForQuantity(question: string): boolean {
  return /\b(how (many|much|long|often|old|far|soon)|when|what (year|date|time)|which (year|date)|by how)\b/i.test(question);
}

/** Fragments say too little to stand alone, run-ons bury the answer; headings are labels, not answers. */
function shapeFactor(sentence: Sentence): number {
  const n = sentence.text.split(/\s+/).length;
  let factor = n < 3 ? 0.5 : n < 5 ? 0.85 : n > 80 ? 0.6 : n > 50 ? 0.8 : 1;
  if (sentence.heading) factor *= 0.5;
  if (sentence.partial) factor *= 0.85;
  return factor;
}

/** Maximal marginal relevance: each pick trades relevance against similarity to what is already quoted. */
function pickDiverse(candidates: Scored[], max: number, lambda = 0.7): Sentence[] {
  const pool = [...candidates].sort((a, b) => b.score - a.score);
  const picked: Sentence[] = [];
  while (picked.length < max && pool.length > 0) {
    let bestIndex = 0;
    let bestValue = -Infinity;
    pool.forEach((candidate, i) => {
      const redundancy = Math.max(0, ...picked.map((p) => jaccard(p.termSet, candidate.sentence.termSet)));
      const value = lambda * candidate.score - (1 - lambda) * redundancy;
      if (value > bestValue) {
        bestValue = value;
        bestIndex = i;
      }
    });
    const [choice] = pool.splice(bestIndex, 1);
    // A near-duplicate adds nothing (overlapping chunks, boilerplate repeated on every page).
    if (picked.some((p) => jaccard(p.termSet, choice.sentence.termSet) > 0.8)) continue;
    picked.push(choice.sentence);
  }
  return picked;
}

function jaccard(a: Set<string>, b: Set<string>): number {
  if (a.size === 0 || b.size === 0) return 0;
  let shared = 0;
  for (const term of a) if (b.has(term)) shared++;
  return shared / (a.size + b.size - shared);
}

// ---------------------------------------------------------------------------
// Sentences

const ABBREVIATIONS = new Set(
  "mr mrs ms dr prof st no nr vs etc e.g i.e eg ie fig figs p pp inc ltd co corp jr sr approx art sec ch vol ed eds dept est min max".split(" "),
);
const SENTENCE_END = /[.!?…]+["'”’»)\]]*\s+(?=["“'«(\[¿¡]?[\p{Lu}\p{N}])|[。！？]+/gu;

/** Splits a passage into headings and sentences, in order, with the context each sentence inherits. */
export function splitPassage(text: string, passage: number, documentName = ""): Sentence[] {
  const pieces: { text: string; heading: boolean }[] = [];
  for (const block of text.split(/\n[^\S\n]*\n/)) {
    let paragraph: string[] = [];
    const flush = () => {
      if (paragraph.length > 0) for (const s of splitSentences(paragraph.join(" "))) pieces.push({ text: s, heading: false });
      paragraph = [];
    };
    for (const rawLine of block.split("\n")) {
      const line = rawLine.trim();
      if (!line) continue;
      if (paragraph.length === 0 && isHeading(line)) pieces.push({ text: line, heading: true });
      else paragraph.push(line);
    }
    flush();
  }

  const sentences: Sentence[] = [];
  // The document's name is context for all of its sentences: "the bridge" in a question about "The Kessling Bridge: A History".
  const title = contentTerms(documentName);
  let heading = new Set<string>();
  let previous = new Set<string>();
  pieces.forEach((piece, index) => {
    let text = piece.text.replace(/\s+/g, " ").trim();
    // A chunk may start or end mid-sentence; mark the cut rather than pass a fragment off as a whole sentence.
    const startsCut = index === 0 && !piece.heading && /^\p{Ll}/u.test(text);
    const endsCut = index === pieces.length - 1 && !piece.heading && !/[.!?…。！？:;"'”’»)\]]$/u.test(text);
    if (startsCut) text = `…${text}`;
    if (endsCut) text = `${text}…`;
    const terms = contentTerms(piece.text);
    const termSet = new Set(terms);
    sentences.push({
      text,
      terms,
      termSet,
      context: new Set([...title, ...heading, ...previous]),
      passage,
      index,
      heading: piece.heading,
      partial: startsCut || endsCut,
    });
    if (piece.heading) heading = termSet;
    previous = termSet;
  });
  return sentences;
}

function splitSentences(paragraph: string): string[] {
  const out: string[] = [];
  let start = 0;
  for (const match of paragraph.matchAll(SENTENCE_END)) {
    const end = match.index + match[0].length;
    const candidate = paragraph.slice(start, end).trim();
    // "Mr. Smith", "e.g. Paris", "J. Doe": a period after an abbreviation or an initial ends nothing.
    const lastToken = (/(\S+?)\.["'”’»)\]]*\s*$/u.exec(candidate)?.[1] ?? "").replace(/^["'“‘«(\[]+/u, "");
    if (match[0].startsWith(".") && (ABBREVIATIONS.has(lastToken.toLowerCase()) || /^\p{Lu}$/u.test(lastToken))) continue;
    if (candidate) out.push(candidate);
    start = end;
  }
  const rest = paragraph.slice(start).trim();
  if (rest) out.push(rest);
  return out;
}

/** A short line without closing punctuation, on its own: "4. Security deposit", "Warranty". */
function isHeading(line: string): boolean {
  return line.split(/\s+/).length <= 10 && !/[.!?…,;。！？]$/.test(line);
}

/** Overlapping chunks repeat sentences: keep the first (best-ranked) copy, and drop fragments of a sentence kept whole. */
function dedupe(sentences: Sentence[]): Sentence[] {
  const seen = new Set<string>();
  const unique: { sentence: Sentence; key: string }[] = [];
  for (const sentence of sentences) {
    const key = foldDiacritics(sentence.text.replace(/…/g, "")).replace(/\s+/g, " ").trim();
    if (!key || seen.has(key)) continue;
    seen.add(key);
    unique.push({ sentence, key });
  }
  const wholeKeys = unique.filter((u) => !u.sentence.partial).map((u) => u.key);
  return unique
    .filter((u) => !u.sentence.partial || !wholeKeys.some((k) => k !== u.key && k.includes(u.key)))
    .map((u) => u.sentence);
}

// ---------------------------------------------------------------------------
// Summary and suggested questions

/**
 * Centroid summary: sentences most similar (TF-IDF cosine) to the mean of all
 * sentences are the most central; MMR keeps them from repeating each other.
 * Returned in reading order, verbatim. Empty when there is nothing to summarise.
 */
export function summarizePassages(passages: Passage[], maxSentences = passages.length <= 4 ? 3 : 5): string {
  const sentences = dedupe(passages.flatMap((p, i) => splitPassage(p.text, i))).filter(
    (s) => !s.heading && !s.partial && s.termSet.size >= 3 && s.text.split(/\s+/).length <= 60,
  );
  if (sentences.length === 0) return "";
  const idf = idfOver(passages);
  const vectors = sentences.map((s) => tfidf(s.terms, idf));
  const centroid = new Map<string, number>();
  for (const vector of vectors) for (const [term, w] of vector) centroid.set(term, (centroid.get(term) ?? 0) + w);
  const scored: Scored[] = sentences.map((sentence, i) => {
    const similarity = cosine(vectors[i], centroid);
    return { sentence, relevance: similarity, score: similarity * shapeFactor(sentence) };
  });
  const picked = pickDiverse(scored, maxSentences);
  picked.sort((a, b) => a.passage - b.passage || a.index - b.index);
  return picked.map((s) => s.text).join(" ");
}

function tfidf(terms: string[], idf: (term: string) => number): Map<string, number> {
  const vector = new Map<string, number>();
  for (const term of terms) vector.set(term, (vector.get(term) ?? 0) + 1);
  let norm = 0;
  for (const [term, tf] of vector) {
    const w = tf * idf(term);
    vector.set(term, w);
    norm += w * w;
  }
  norm = Math.sqrt(norm);
  if (norm > 0) for (const [term, w] of vector) vector.set(term, w / norm);
  return vector;
}

function cosine(a: Map<string, number>, b: Map<string, number>): number {
  let dot = 0;
  let nb = 0;
  for (const [term, w] of a) dot += w * (b.get(term) ?? 0);
  for (const w of b.values()) nb += w * w;
  return nb > 0 ? dot / Math.sqrt(nb) : 0;
}

/**
 * Template questions about the passages' salient topics: headings first, then
 * the noun-phrase-like runs of content words (between stop words) that recur
 * and are rare across passages. Honest templates ("What do the documents say
 * about …?") rather than invented facts; the topic is quoted as written.
 */
export function suggestQuestionsFrom(passages: Passage[], count: number, language: string): string[] {
  const max = Math.max(0, Math.floor(count));
  if (max === 0 || passages.length === 0) return [];
  const templates = questionTemplatesFor(language);
  const sentences = passages.flatMap((p, i) => splitPassage(p.text, i));
  const idf = idfOver(passages);

  const topics: { text: string; key: string; score: number; heading: boolean }[] = [];
  const add = (text: string, score: number, heading: boolean) => {
    const key = contentTerms(text).join(" ");
    if (!key) return;
    const existing = topics.find((t) => t.key === key);
    if (existing) existing.score += score;
    else topics.push({ text, key, score, heading });
  };
  for (const sentence of sentences) {
    if (sentence.heading) {
      const heading = sentence.text.replace(/^[\d.\s)(§-]+/u, "").trim();
      if (/\p{L}{3}/u.test(heading)) add(heading, contentTerms(heading).reduce((sum, t) => sum + idf(t), 0), true);
      continue;
    }
    for (const phrase of nounPhrases(sentence.text.replace(/…/g, ""))) {
      const terms = contentTerms(phrase);
      add(phrase, terms.reduce((sum, t) => sum + idf(t), 0) * (terms.length > 1 ? 1.5 : 1), false);
    }
  }
  // Alternate headings (authored topic labels) and recurring phrases (what the text dwells on), best first in each.
  const byScore = (a: { score: number }, b: { score: number }) => b.score - a.score;
  const headings = topics.filter((t) => t.heading).sort(byScore);
  const phrases = topics.filter((t) => !t.heading).sort(byScore);
  const interleaved = Array.from({ length: Math.max(headings.length, phrases.length) }, (_, i) => [headings[i], phrases[i]])
    .flat()
    .filter((t): t is (typeof topics)[number] => t !== undefined);

  const questions: string[] = [];
  const usedKeys: string[] = [];
  for (const topic of interleaved) {
    if (questions.length === max) break;
    // "deposit" adds nothing after "security deposit"; nor the reverse.
    if (usedKeys.some((k) => k.includes(topic.key) || topic.key.includes(k))) continue;
    usedKeys.push(topic.key);
    const template = topic.heading ? templates.heading : templates.topic[questions.length % templates.topic.length];
    questions.push(template(topic.text));
  }
  return questions;
}

/**
 * A stand-in for noun phrases without a tagger: the first 1–3 content words
 * after a function word ("the", "of", "for"…, where noun phrases start),
 * without leading quantifiers or trailing past-tense forms ("the
 * neighbourhoods changed").
 * Runs at the start of a sentence are skipped: there the subject is often
 * glued to its verb ("Maintenance records survive").
 */
function nounPhrases(sentence: string): string[] {
  const phrases: string[] = [];
  const tokens = sentence.split(/(\s+|[,;:()"“”«»!?.]+)/u).filter((t) => t.trim() !== "");
  let run: string[] = [];
  let previousWasStop = false;
  const flush = () => {
    // The phrase is what follows the function word; a longer run has usually run on into a verb ("archives contain").
    let phrase = run.slice(0, 3);
    while (phrase.length > 0 && QUANTIFIERS.has(phrase[0].toLowerCase())) phrase = phrase.slice(1);
    while (phrase.length > 0 && /ed$/i.test(phrase[phrase.length - 1])) phrase = phrase.slice(0, -1);
    if (phrase.length >= 2 || (phrase.length === 1 && phrase[0].length >= 6)) phrases.push(phrase.join(" "));
    run = [];
  };
  for (const token of tokens) {
    const bare = token.replace(/^['’]+|['’]+$/g, "");
    const isWord = /^\p{L}[\p{L}\p{M}'’-]*$/u.test(bare);
    const isStop = isWord && words(bare).some((w) => STOP_WORD_SET.has(foldDiacritics(w)));
    if (!isWord || isStop || bare.length < 3 || /ly$/.test(bare)) {
      flush();
      previousWasStop = isStop;
      continue;
    }
    // Common verbs end a noun phrase ("the archives contain…"); -ly adverbs were dropped above.
    if (COMMON_VERBS.has(bare.toLowerCase())) {
      flush();
      previousWasStop = false;
      continue;
    }
    if (run.length > 0 || previousWasStop) run.push(bare);
    previousWasStop = false;
  }
  flush();
  return phrases;
}

const COMMON_VERBS = new Set(
  (
    "became become becomes began begin begins came come comes contain contains contained gave give gives grew grow grows held hold holds " +
    "include includes kept keep keeps left made make makes met remain remains remained saw see sees show shows showed sold take takes took " +
    "went goes found finds appear appears apply applies follow follows require requires provide provides allow allows offer offers " +
    "connect connects depend depends continue continues receive receives cover covers mean means set sets"
  ).split(" "),
);
const QUANTIFIERS = new Set(["many", "several", "various", "few", "numerous", "multiple", "certain"]);
const STOP_WORD_SET = new Set(Object.values(STOP_WORDS_BY_LANGUAGE).flat().map(foldDiacritics));
const STOP_WORD_SETS = Object.fromEntries(
  Object.entries(STOP_WORDS_BY_LANGUAGE).map(([code, list]) => [code, new Set(list.map(foldDiacritics))]),
) as Record<string, Set<string>>;

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

function usageOf(input: AnswerInput, answer: string): TokenUsage {
  const inputText = [input.question, input.selectedText ?? "", ...input.history.map((t) => t.text), ...input.passages.map((p) => p.text)].join(" ");
  return { inputTokens: approximateTokens(inputText), outputTokens: approximateTokens(answer) };
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
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

// ---------------------------------------------------------------------------
// Output hygiene

/**
 * The answer is rendered as Markdown: quoted document text must stay text, so
 * a document cannot inject links, images, HTML or fake structure (headings,
 * a bogus "Sources" list) into the answer. Whitespace is already collapsed,
 * so a quote cannot break out of its blockquote or bullet.
 */
function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_[\]<>#|~]/g, (ch) => `\\${ch}`);
}

function formatName(name: string): string {
  return `*${escapeMarkdown(name.replace(/\s+/g, " ").trim())}*`;
}

// ---------------------------------------------------------------------------
// Languages: fixed phrases of the answer; quoted sentences stay as written.

interface Phrases {
  code: string;
  notFound: string;
  lead: (name: string, page: number) => string;
  leadMany: string;
  source: (name: string, page: number) => string;
  images: string;
  quotedNote: string;
}

const PHRASES: Record<string, Phrases> = {
  en: {
    code: "en",
    notFound: "I couldn't find this in the documents of this workspace.",
    lead: (name, page) => `According to ${name} (page ${page}):`,
    leadMany: "Here is what your documents say:",
    source: (name, page) => `${name}, page ${page}`,
    images: "I can't read images: the built-in model only quotes the text of your documents.",
    quotedNote: "Quoted in the document's original language.",
  },
  es: {
    code: "es",
    notFound: "No he encontrado esto en los documentos de este espacio de trabajo.",
    lead: (name, page) => `Según ${name} (página ${page}):`,
    leadMany: "Esto es lo que dicen sus documentos:",
    source: (name, page) => `${name}, página ${page}`,
    images: "No puedo leer imágenes: el modelo integrado solo cita el texto de sus documentos.",
    quotedNote: "Citado en el idioma original del documento.",
  },
  fr: {
    code: "fr",
    notFound: "Je n'ai pas trouvé cette information dans les documents de cet espace de travail.",
    lead: (name, page) => `D'après ${name} (page ${page}) :`,
    leadMany: "Voici ce que disent vos documents :",
    source: (name, page) => `${name}, page ${page}`,
    images: "Je ne peux pas lire les images : le modèle intégré ne fait que citer le texte de vos documents.",
    quotedNote: "Cité dans la langue d'origine du document.",
  },
  de: {
    code: "de",
    notFound: "Das habe ich in den Dokumenten dieses Arbeitsbereichs nicht gefunden.",
    lead: (name, page) => `Laut ${name} (Seite ${page}):`,
    leadMany: "Das steht in Ihren Dokumenten:",
    source: (name, page) => `${name}, Seite ${page}`,
    images: "Bilder kann ich nicht lesen: Das integrierte Modell zitiert nur den Text Ihrer Dokumente.",
    quotedNote: "Zitiert in der Originalsprache des Dokuments.",
  },
  pt: {
    code: "pt",
    notFound: "Não encontrei isso nos documentos deste espaço de trabalho.",
    lead: (name, page) => `De acordo com ${name} (página ${page}):`,
    leadMany: "Veja o que dizem os seus documentos:",
    source: (name, page) => `${name}, página ${page}`,
    images: "Não consigo ler imagens: o modelo integrado apenas cita o texto dos seus documentos.",
    quotedNote: "Citado no idioma original do documento.",
  },
  it: {
    code: "it",
    notFound: "Non ho trovato questa informazione nei documenti di questo spazio di lavoro.",
    lead: (name, page) => `Secondo ${name} (pagina ${page}):`,
    leadMany: "Ecco cosa dicono i tuoi documenti:",
    source: (name, page) => `${name}, pagina ${page}`,
    images: "Non posso leggere le immagini: il modello integrato cita solo il testo dei tuoi documenti.",
    quotedNote: "Citato nella lingua originale del documento.",
  },
  nl: {
    code: "nl",
    notFound: "Ik heb dit niet gevonden in de documenten van deze werkruimte.",
    lead: (name, page) => `Volgens ${name} (pagina ${page}):`,
    leadMany: "Dit staat er in uw documenten:",
    source: (name, page) => `${name}, pagina ${page}`,
    images: "Ik kan geen afbeeldingen lezen: het ingebouwde model citeert alleen de tekst van uw documenten.",
    quotedNote: "Geciteerd in de oorspronkelijke taal van het document.",
  },
  hi: {
    code: "hi",
    notFound: "मुझे यह जानकारी इस वर्कस्पेस के दस्तावेज़ों में नहीं मिली।",
    lead: (name, page) => `${name} (पृष्ठ ${page}) के अनुसार:`,
    leadMany: "आपके दस्तावेज़ों में यह लिखा है:",
    source: (name, page) => `${name}, पृष्ठ ${page}`,
    images: "मैं चित्र नहीं पढ़ सकता: अंतर्निहित मॉडल केवल आपके दस्तावेज़ों का पाठ उद्धृत करता है।",
    quotedNote: "दस्तावेज़ की मूल भाषा में उद्धृत।",
  },
  zh: {
    code: "zh",
    notFound: "我在此工作区的文档中没有找到相关内容。",
    lead: (name, page) => `根据 ${name}（第 ${page} 页）：`,
    leadMany: "您的文档中是这样写的：",
    source: (name, page) => `${name}，第 ${page} 页`,
    images: "我无法读取图片：内置模型只会引用您文档中的文字。",
    quotedNote: "引文保留文档的原始语言。",
  },
  ja: {
    code: "ja",
    notFound: "このワークスペースのドキュメントには該当する情報が見つかりませんでした。",
    lead: (name, page) => `${name}（${page} ページ）によると：`,
    leadMany: "ドキュメントには次のように書かれています：",
    source: (name, page) => `${name}、${page} ページ`,
    images: "画像は読み取れません。組み込みモデルはドキュメントのテキストを引用するだけです。",
    quotedNote: "引用はドキュメントの元の言語のままです。",
  },
};

const LANGUAGE_NAMES: Record<string, string> = {
  english: "en",
  spanish: "es",
  espanol: "es",
  castellano: "es",
  french: "fr",
  francais: "fr",
  german: "de",
  deutsch: "de",
  portuguese: "pt",
  portugues: "pt",
  italian: "it",
  italiano: "it",
  dutch: "nl",
  nederlands: "nl",
  hindi: "hi",
  "हिन्दी": "hi",
  "हिंदी": "hi",
  chinese: "zh",
  "中文": "zh",
  japanese: "ja",
  "日本語": "ja",
};

/** "Spanish", "español", "es", "es-MX" → "es"; anything unknown → English. */
export function languageCode(language: string): string {
  const folded = foldDiacritics(language.trim());
  const code = LANGUAGE_NAMES[folded] ?? LANGUAGE_NAMES[language.trim()] ?? folded.split(/[-_]/)[0];
  return code in PHRASES ? code : "en";
}

function phrasesFor(language: string): Phrases {
  return PHRASES[languageCode(language)];
}

/** Stop-word votes for Latin-script languages, script for the others; undefined when unsure. */
export function detectLanguage(text: string): string | undefined {
  if (/\p{Script=Devanagari}/u.test(text)) return "hi";
  if (/[\p{Script=Hiragana}\p{Script=Katakana}]/u.test(text)) return "ja";
  if (/\p{Script=Han}/u.test(text)) return "zh";
  const tokens = words(text).map(foldDiacritics);
  if (tokens.length < 4) return undefined;
  const votes = Object.entries(STOP_WORD_SETS).map(([code, set]) => ({ code, hits: tokens.filter((t) => set.has(t)).length }));
  votes.sort((a, b) => b.hits - a.hits);
  const [first, second] = votes;
  // Short words are shared across languages ("a", "de", "en"): require a clear lead.
  return first.hits >= 2 && first.hits >= 1.5 * second.hits ? first.code : undefined;
}

interface QuestionTemplates {
  heading: (heading: string) => string;
  topic: ((topic: string) => string)[];
}

const QUESTION_TEMPLATES: Record<string, QuestionTemplates> = {
  en: {
    heading: (h) => `What does the section “${h}” cover?`,
    topic: [(t) => `What do the documents say about ${t}?`, (t) => `Can you summarise the part about ${t}?`, (t) => `What are the key points on ${t}?`],
  },
  es: {
    heading: (h) => `¿Qué trata la sección «${h}»?`,
    topic: [(t) => `¿Qué dicen los documentos sobre ${t}?`, (t) => `¿Puedes resumir la parte sobre ${t}?`, (t) => `¿Cuáles son los puntos clave sobre ${t}?`],
  },
  fr: {
    heading: (h) => `Que couvre la section « ${h} » ?`,
    topic: [(t) => `Que disent les documents sur ${t} ?`, (t) => `Peux-tu résumer la partie sur ${t} ?`, (t) => `Quels sont les points clés sur ${t} ?`],
  },
  de: {
    heading: (h) => `Worum geht es im Abschnitt „${h}“?`,
    topic: [(t) => `Was sagen die Dokumente über ${t}?`, (t) => `Kannst du den Teil über ${t} zusammenfassen?`, (t) => `Was sind die wichtigsten Punkte zu ${t}?`],
  },
  pt: {
    heading: (h) => `O que cobre a seção “${h}”?`,
    topic: [(t) => `O que os documentos dizem sobre ${t}?`, (t) => `Pode resumir a parte sobre ${t}?`, (t) => `Quais são os pontos principais sobre ${t}?`],
  },
  it: {
    heading: (h) => `Di cosa tratta la sezione «${h}»?`,
    topic: [(t) => `Cosa dicono i documenti su ${t}?`, (t) => `Puoi riassumere la parte su ${t}?`, (t) => `Quali sono i punti chiave su ${t}?`],
  },
};

function questionTemplatesFor(language: string): QuestionTemplates {
  return QUESTION_TEMPLATES[languageCode(language)] ?? QUESTION_TEMPLATES.en;
}
