import type { Citation, Passage } from "#application/ports/language-model";
import { contentTerms, foldDiacritics, STOP_WORDS_BY_LANGUAGE, words } from "#application/shared/text-analysis";
import { type ComposedAnswer, escapeMarkdown, formatName } from "./composition";
import { phrasesFor, questionTemplatesFor } from "./languages";
import { idfOver, pickDiverse, type Scored, shapeFactor } from "./selection";
import { dedupe, type Sentence, splitPassage } from "./sentences";

/**
 * Centroid summary: sentences most similar (TF-IDF cosine) to the mean of all
 * sentences are the most central; MMR keeps them from repeating each other.
 * Returned in reading order, verbatim. Empty when there is nothing to summarise.
 */
export function summarizePassages(passages: Passage[], maxSentences = passages.length <= 4 ? 3 : 5): string {
  const sentences = dedupe(passages.flatMap((p, i) => splitPassage(p.text, i))).filter((s) => quotable(s) && s.text.split(/\s+/).length <= 60);
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

/** Most headings an overview lists: a reader's first look, not the table of contents. */
const OVERVIEW_ITEMS = 8;

/**
 * The answer to a request for an overview ("Summarise the key points of this document"): what a
 * reader skims first, each document's headings with the sentence that opens each, quoted and
 * cited in reading order, the documents taking turns (issue 44 item 2). A document whose passages
 * show no heading gives its opening sentence instead. Null when nothing is quotable.
 */
export function composeOverview(passages: Passage[], language: string): ComposedAnswer | null {
  const byDocument = new Map<string, { heading: string | null; sentence: Sentence; passage: Passage }[]>();
  const seen = new Set<string>();
  for (const [i, passage] of passages.entries()) {
    const items = byDocument.get(passage.documentId) ?? [];
    byDocument.set(passage.documentId, items);
    const sentences = splitPassage(passage.text, i, passage.documentName);
    for (const [j, sentence] of sentences.entries()) {
      const opening = sentences[j + 1];
      if (!sentence.heading || !isSectionHeading(sentence.text) || !opening || !quotable(opening)) continue;
      const heading = stripNumbering(sentence.text);
      // Passages overlap: a heading read twice is listed once.
      if (seen.has(`${passage.documentId}:${heading.toLowerCase()}`)) continue;
      seen.add(`${passage.documentId}:${heading.toLowerCase()}`);
      items.push({ heading, sentence: opening, passage });
    }
  }
  for (const [documentId, items] of byDocument) {
    if (items.length > 0) continue;
    const first = passages.flatMap((passage, i) => (passage.documentId === documentId ? splitPassage(passage.text, i, passage.documentName).filter(quotable).map((sentence) => ({ heading: null, sentence, passage })) : []))[0];
    if (first) items.push(first);
  }
  const picked: { heading: string | null; sentence: Sentence; passage: Passage }[] = [];
  const lists = [...byDocument.values()];
  for (let round = 0; picked.length < OVERVIEW_ITEMS && lists.some((items) => items.length > round); round++) {
    for (const items of lists) if (items[round] && picked.length < OVERVIEW_ITEMS) picked.push(items[round]);
  }
  if (picked.length === 0) return null;
  picked.sort((a, b) => a.sentence.passage - b.sentence.passage || a.sentence.index - b.sentence.index);

  const phrases = phrasesFor(language);
  const citations: Citation[] = [];
  const lines = picked.map(({ heading, sentence, passage }) => {
    let n = citations.findIndex((c) => c.documentId === passage.documentId && c.pageNumber === passage.pageNumber) + 1;
    if (n === 0) n = citations.push({ documentId: passage.documentId, pageNumber: passage.pageNumber, quote: sentence.quote });
    const label = heading ? `**${escapeMarkdown(heading)}**: ` : "";
    return `- ${label}“${escapeMarkdown(sentence.text)}” (${phrases.source(formatName(passage.documentName), passage.pageNumber)}) [${n}]`;
  });
  return { text: `${phrases.overview}\n\n${lines.join("\n")}`, citations };
}

/** A whole sentence of prose: not a label, a fragment a chunk cut, or glyph soup. */
const quotable = (s: Sentence) => !s.heading && !s.unreadable && !s.partial && s.termSet.size >= 3;

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
 * Questions a person would ask about the passages, written from what the document itself names:
 * its headings ("What does the section “Trace trees” cover?"), the tables and figures its captions
 * announce ("What does Table 1 show?") and the terms it keeps returning to ("What do the
 * documents say about the bird survey?"). Never from a chunk's first or last words, a table row
 * or code, which only look like headings because a chunk cut them off (issue #34); a topic the
 * text names once is not a key term. Honest templates rather than invented facts, each answerable
 * from the passages it came from.
 */
export function suggestQuestionsFrom(passages: Passage[], count: number, language: string): string[] {
  const max = Math.max(0, Math.floor(count));
  if (max === 0 || passages.length === 0) return [];
  const templates = questionTemplatesFor(language);
  const idf = idfOver(passages);
  const weight = (text: string) => contentTerms(text).reduce((sum, t) => sum + idf(t), 0);

  const headings: Topic[] = [];
  const captions: Topic[] = [];
  const phrases = new Map<string, Topic & { sentences: Set<string>; articled: Set<string> }>();
  for (const [i, passage] of passages.entries()) {
    for (const line of ownLines(passage.text)) {
      const caption = CAPTION.exec(line);
      if (caption && templates.caption) captions.push({ text: `${caption[1][0].toUpperCase()}${caption[1].slice(1).toLowerCase()} ${caption[2]}`, key: caption[0].toLowerCase(), score: weight(line) });
      else if (isSectionHeading(line)) headings.push({ text: stripNumbering(line), key: contentTerms(line).join(" "), score: weight(line) });
    }
    // Unreadable text (a broken font's glyph soup) and headings suggest no key term.
    for (const sentence of splitPassage(passage.text, i).filter((s) => !s.unreadable && !s.heading)) {
      for (const { phrase, article } of nounPhrases(sentence.text.replace(/…/g, ""))) {
        const key = contentTerms(phrase).join(" ");
        if (!key) continue;
        const known = phrases.get(key) ?? { text: phrase, key, score: 0, sentences: new Set<string>(), articled: new Set<string>() };
        // Passages overlap: the same sentence read twice is one mention.
        const mention = sentence.text.replace(/^…|…$/g, "").toLowerCase();
        known.sentences.add(mention);
        if (article) known.articled.add(mention);
        known.score += weight(phrase) * (phrase.includes(" ") ? 1.5 : 1);
        phrases.set(key, known);
      }
    }
  }
  // A key term recurs: named in one sentence only, a run of words is as likely a fragment as a topic.
  // A short document may name everything once; its phrases then come after everything else.
  const byMentions = [...phrases.values()].sort((a, b) => Math.min(b.sentences.size, 2) - Math.min(a.sentences.size, 2) || b.score - a.score);
  const keyTerms = byMentions
    .filter((p, i) => p.sentences.size >= 2 || headings.length + captions.length + i < max)
    // What the text mostly calls "an extended basic block" is asked about as one, not as "extended basic block".
    .map((p) => (p.articled.size * 2 > p.sentences.size ? { ...p, text: `${/^[aeiou]/i.test(p.text) ? "an" : "a"} ${p.text}` } : p));

  const byScore = (a: Topic, b: Topic) => b.score - a.score;
  const oneDocument = new Set(passages.map((p) => p.documentId)).size === 1;
  const kinds: [Topic[], (topic: string, oneDocument?: boolean) => string][] = [
    [headings.sort(byScore), templates.heading],
    [keyTerms, templates.topic[0]],
    [captions, templates.caption ?? templates.heading],
  ];
  const questions: string[] = [];
  const usedKeys: string[] = [];
  // Round robin over the kinds, best first in each, so one kind does not crowd out the others.
  for (let round = 0; questions.length < max && kinds.some(([topics]) => topics.length > round); round++) {
    for (const [topics, template] of kinds) {
      const topic = topics[round];
      if (!topic || questions.length === max) continue;
      // "deposit" adds nothing after "security deposit"; nor the reverse.
      if (!topic.key || usedKeys.some((k) => k.includes(topic.key) || topic.key.includes(k))) continue;
      usedKeys.push(topic.key);
      questions.push(template(topic.text, oneDocument));
    }
  }
  return questions;
}

interface Topic {
  text: string;
  key: string;
  score: number;
}

/** "Table 1: Speedups over…", "Figure 3. Warm-up", "Fig. 2 –": a caption names what it labels. */
const CAPTION = /^(table|figure|fig\.)\s+(\d{1,3})\s*[.:–—-]\s*\p{L}/iu;

/**
 * The lines of a passage that stand as a paragraph of their own (a blank line, or the passage's
 * edge, before and after): headings and captions are set apart like that, while a line cut from
 * the middle of a paragraph is not.
 */
function ownLines(text: string): string[] {
  return text.split(/\n\s*\n/).flatMap((paragraph) => {
    const lines = paragraph.trim().split("\n").map((line) => line.trim());
    // A caption opens its paragraph even when it runs over several lines.
    if (lines.length === 1 || CAPTION.test(lines[0])) return lines[0] ? [lines[0]] : [];
    return [];
  });
}

const stripNumbering = (line: string) => line.replace(/^(?:[\dIVX]+(?:\.\d+)*\.?|§)\s+/u, "").trim();

/** Section names that label the apparatus of a document rather than anything a reader asks about. */
const APPARATUS = new Set(
  "abstract contents index references bibliography acknowledgements acknowledgments notes endnotes footnotes copyright appendix summary introduction overview preface foreword conclusion conclusions".split(" "),
);
/** Words a heading does not end on: a line that does was cut mid-sentence. */
const DANGLING = new Set("a an the of to in on at by for with from and or but as is are was were be that which who than this these its their our".split(" "));

/**
 * A section heading: a short label that starts with a capital (after its number), ends on a word
 * a heading ends on, holds no sentence break, table cell, figure, code or link, and is not the
 * apparatus of the document ("References") or a running head ("50 FREE CULTURE").
 */
function isSectionHeading(line: string): boolean {
  const label = stripNumbering(line);
  const words = label.split(/\s+/);
  if (words.length === 0 || words.length > 8 || !/\p{L}{3}/u.test(label)) return false;
  if (!/^\p{Lu}/u.test(label)) return false;
  // Any sentence punctuation, even at the end, makes it a sentence or a byline ("Presented by …, engineer").
  if (/[|{}<>=;\\_#@$%^*~`[\]…]|https?:|www\./.test(label) || /[.,:;!?]/.test(label)) return false;
  if (/\d/.test(label)) return false;
  if (DANGLING.has(words[words.length - 1].toLowerCase())) return false;
  if (APPARATUS.has(label.toLowerCase())) return false;
  // Four or more capitalised words and no other is a list of names (the authors under a title).
  if (words.length >= 4 && words.every((w) => /^\p{Lu}/u.test(w))) return false;
  return true;
}

/**
 * A stand-in for noun phrases without a tagger: the first 1–3 content words
 * after a function word ("the", "of", "for"…, where noun phrases start),
 * without leading quantifiers or trailing past-tense forms ("the
 * neighbourhoods changed").
 * Runs at the start of a sentence are skipped: there the subject is often
 * glued to its verb ("Maintenance records survive").
 */
function nounPhrases(sentence: string): { phrase: string; article: boolean }[] {
  const phrases: { phrase: string; article: boolean }[] = [];
  const tokens = sentence.split(/(\s+|[,;:()"“”«»!?.]+)/u).filter((t) => t.trim() !== "");
  let run: string[] = [];
  let previousWasStop = false;
  /** The run follows "a" or "an": the phrase is a singular thing the text counts. */
  let afterArticle = false;
  let previousWasArticle = false;
  const flush = () => {
    // The phrase is what follows the function word; a longer run has usually run on into a verb ("archives contain").
    let phrase = run.slice(0, 3);
    let article = afterArticle;
    while (phrase.length > 0 && QUANTIFIERS.has(phrase[0].toLowerCase())) {
      phrase = phrase.slice(1);
      article = false;
    }
    while (phrase.length > 0 && (/ed$/i.test(phrase[phrase.length - 1]) || PARTICLES.has(phrase[phrase.length - 1].toLowerCase()))) phrase = phrase.slice(0, -1);
    // Without a tagger "trust recommends" and "creek stays" look like "bird counts": a phrase that
    // ends on a word in -s after another word is left out, since a verb there reads as nonsense.
    const inner = phrase.findIndex((word, i) => i < phrase.length - 1 && /[^su]s$/i.test(word));
    if (inner >= 0) phrase = phrase.slice(0, inner + 1);
    const endsLikeAVerb = phrase.length >= 2 && /[^su]s$/i.test(phrase[phrase.length - 1]) && /^\p{Ll}/u.test(phrase[phrase.length - 1]);
    const worthAsking = phrase.length >= 2 || (phrase.length === 1 && phrase[0].length >= 6 && !PRONOUNS.has(phrase[0].toLowerCase()));
    if (worthAsking && !endsLikeAVerb) phrases.push({ phrase: phrase.join(" "), article });
    run = [];
  };
  for (const token of tokens) {
    const bare = token.replace(/^['’]+|['’]+$/g, "");
    const isWord = /^\p{L}[\p{L}\p{M}'’-]*$/u.test(bare);
    const isStop = isWord && words(bare).some((w) => STOP_WORD_SET.has(foldDiacritics(w)));
    if (!isWord || isStop || bare.length < 3 || /ly$/.test(bare)) {
      flush();
      // After "to", "will" or "can" comes a verb ("to discuss key areas"), not a noun phrase.
      previousWasStop = isStop && !BEFORE_VERBS.has(bare.toLowerCase());
      previousWasArticle = /^an?$/i.test(bare);
      continue;
    }
    // Common verbs end a noun phrase ("the archives contain…"); -ly adverbs were dropped above.
    if (COMMON_VERBS.has(bare.toLowerCase())) {
      flush();
      previousWasStop = false;
      continue;
    }
    if (run.length === 0 && previousWasStop) afterArticle = previousWasArticle;
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
const BEFORE_VERBS = new Set("to will would can could may might must shall should do does did not".split(" "));
/** Words that end a verb phrase, not a noun phrase ("thrown away", "set out"). */
const PARTICLES = new Set("away out off back again also down here there thrown done gone known seen taken given written".split(" "));
const PRONOUNS = new Set("nothing something everything anything nobody somebody everybody anybody another others itself himself herself themselves".split(" "));
const QUANTIFIERS = new Set(["many", "several", "various", "few", "numerous", "multiple", "certain"]);
const STOP_WORD_SET = new Set(Object.values(STOP_WORDS_BY_LANGUAGE).flat().map(foldDiacritics));
