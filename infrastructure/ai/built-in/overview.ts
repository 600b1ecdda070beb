import type { Passage } from "#application/ports/language-model";
import { contentTerms, foldDiacritics, STOP_WORDS_BY_LANGUAGE, words } from "#application/shared/text-analysis";
import { questionTemplatesFor } from "./languages";
import { idfOver, pickDiverse, type Scored, shapeFactor } from "./selection";
import { dedupe, splitPassage } from "./sentences";

/**
 * Centroid summary: sentences most similar (TF-IDF cosine) to the mean of all
 * sentences are the most central; MMR keeps them from repeating each other.
 * Returned in reading order, verbatim. Empty when there is nothing to summarise.
 */
export function summarizePassages(passages: Passage[], maxSentences = passages.length <= 4 ? 3 : 5): string {
  const sentences = dedupe(passages.flatMap((p, i) => splitPassage(p.text, i))).filter(
    (s) => !s.heading && !s.unreadable && !s.partial && s.termSet.size >= 3 && s.text.split(/\s+/).length <= 60,
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
  // Unreadable text (a broken font's glyph soup) suggests no topic.
  const sentences = passages.flatMap((p, i) => splitPassage(p.text, i)).filter((s) => !s.unreadable);
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
      if (isTopicLabel(sentence.text, heading)) add(heading, contentTerms(heading).reduce((sum, t) => sum + idf(t), 0), true);
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

/**
 * A heading worth asking about: a short label with words in it. A reference
 * list's entry ("[1] LuaJIT roadmap 2008 - http://…") looks like a line on
 * its own but names no section.
 */
function isTopicLabel(line: string, heading: string): boolean {
  if (!/\p{L}{3}/u.test(heading)) return false;
  if (/^\s*\[\d+\]/.test(line) || /https?:\/\/|www\./i.test(line)) return false;
  return heading.split(/\s+/).length <= 8;
}
