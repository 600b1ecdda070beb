import type { Passage, TermStatistics } from "#application/ports/language-model";
import { contentTerms } from "#application/shared/text-analysis";
import { holdsAnswerKind, type Question } from "./question";
import type { Sentence, TermForms } from "./sentences";

/**
 * Which sentences answer the question best. General rules, never tuned to
 * particular questions:
 * - coverage: the IDF-weighted share of the question's terms the sentence
 *   holds (terms of its heading, previous sentence and document name count in
 *   part: what "it" refers to);
 * - answer kind: "how many" wants a number, "who" a name, "when" a date,
 *   "why" a reason; a sentence without one answers less;
 * - proximity: the question's terms close together, and its bigrams kept;
 * - the passage's retrieval rank, a small prior;
 * - shape: fragments and run-ons say less; headings are labels.
 * Then picked MMR-style so a second quote adds something the first did not.
 */
export interface Scored {
  sentence: Sentence;
  /** How well the sentence answers (coverage, answer kind, proximity): what the abstention threshold compares. */
  relevance: number;
  /** Relevance with rank prior and shape: what picks the quotes. */
  score: number;
}

const CONTEXT_CREDIT = 0.35;
const BIGRAM_BONUS = 0.08;
const MAX_BIGRAM_BONUS = 0.2;
const PROXIMITY_BONUS = 0.1;
const RANK_PRIOR = 0.08;
/** A sentence lacking the kind of thing asked for keeps this share of its relevance. */
const MISSING_KIND = 0.4;
const KIND_BONUS = 0.1;

/**
 * Smoothed IDF of a term. Over the workspace when retrieval measured it
 * (`termStatistics`): a word the question is about is weighed by how rare it
 * is in the documents, and a word no chunk holds weighs most, since its
 * absence is evidence the workspace does not speak of it. Otherwise (and for
 * words not measured: selected text, the previous question) over the
 * retrieved passages, each passage a document, a term none holds weighing a
 * little more than the rarest present one.
 */
export function idfOver(passages: Passage[], statistics?: TermStatistics): (term: string) => number {
  const df = new Map<string, number>();
  for (const passage of passages) for (const term of new Set(contentTerms(passage.text))) df.set(term, (df.get(term) ?? 0) + 1);
  const n = passages.length;
  const overPassages = (term: string) => Math.log((n + 1) / ((df.get(term) ?? ABSENT_DOCUMENT_FREQUENCY) + 0.5)) + 0.1;
  if (!statistics || statistics.chunks === 0) return overPassages;
  const overWorkspace = (count: number) => Math.log((statistics.chunks + 1) / (count + 0.5)) + 0.1;
  const measured = Object.values(statistics.documentFrequency).map(overWorkspace);
  // Unmeasured words get the measured words' mean: neither vetoes nor dominates.
  const fallback = measured.length > 0 ? measured.reduce((a, b) => a + b, 0) / measured.length : overWorkspace(1);
  return (term) => {
    const count = statistics.documentFrequency[term];
    return count === undefined ? fallback : overWorkspace(count);
  };
}

const ABSENT_DOCUMENT_FREQUENCY = 0;

/**
 * Whether a text holds a term of the question as the same word, up to
 * inflection ("worked" for "work", "engines" for "engine"). The index's
 * Porter stems also join derivations, and retrieval may cast that wide net;
 * but the model decides whether a sentence answers, and a derivation is
 * often another thing: "engines" for "engineers", "references" for "refer".
 */
export function holds(forms: TermForms, term: string, question: Question): boolean {
  const written = forms.get(term);
  return written !== undefined && [...(question.forms.get(term) ?? [])].some((form) => written.has(form));
}

/**
 * Coverage of the question by the text around a sentence (its section of the
 * passage): a sentence answers better when that text speaks of everything the
 * question names ("he died on the 4th of July" on the page about Jefferson).
 */
export function passageCoverage(forms: TermForms, question: Question, idf: (term: string) => number): number {
  let total = 0;
  let matched = 0;
  for (const [term, weight] of question.weights) {
    const w = weight * idf(term);
    total += w;
    if (holds(forms, term, question)) matched += w;
  }
  return total > 0 ? matched / total : 0;
}

/** Share of a sentence's relevance that comes from the coverage of the question by its section of the passage. */
const PASSAGE_SHARE = 0.5;

export function scoreSentence(sentence: Sentence, question: Question, idf: (term: string) => number, passage = 0): Scored {
  let total = 0;
  let matched = 0;
  let matchedTerms = 0;
  for (const [term, weight] of question.weights) {
    const w = weight * idf(term);
    total += w;
    if (holds(sentence.forms, term, question)) {
      matched += w;
      matchedTerms++;
    } else if (holds(sentence.context, term, question)) matched += w * CONTEXT_CREDIT;
  }
  // Bigrams and proximity over the terms the sentence holds as the question's words.
  const terms = sentence.terms.map((term) => (holds(sentence.forms, term, question) ? term : ""));
  let bonus = 0;
  for (let i = 1; i < terms.length; i++) if (question.bigrams.has(`${terms[i - 1]} ${terms[i]}`)) bonus += BIGRAM_BONUS;
  bonus = Math.min(bonus, MAX_BIGRAM_BONUS) + (matchedTerms >= 2 ? PROXIMITY_BONUS * proximity(terms, question.weights) : 0);
  const coverage = (1 - PASSAGE_SHARE) * (total > 0 ? matched / total : 0) + PASSAGE_SHARE * passage;
  const kindHeld = question.kind === null || holdsAnswerKind(sentence.text, question);
  const relevance = (coverage + bonus) * (kindHeld ? 1 : MISSING_KIND) * shapeFactor(sentence);
  const kindBonus = question.kind !== null && kindHeld && coverage > 0 ? KIND_BONUS : 0;
  const score = relevance + (kindBonus + RANK_PRIOR / (1 + sentence.passage)) * shapeFactor(sentence);
  return { sentence, relevance, score };
}

/** Matched question terms per token of the shortest stretch holding them all: 1 when adjacent, toward 0 when spread out. */
function proximity(terms: string[], weights: Map<string, number>): number {
  const positions = terms.map((t, i) => (weights.has(t) ? i : -1)).filter((i) => i >= 0);
  const wanted = new Set(positions.map((i) => terms[i])).size;
  let best = Infinity;
  for (let a = 0; a < positions.length; a++) {
    const seen = new Set<string>();
    for (let b = a; b < positions.length; b++) {
      seen.add(terms[positions[b]]);
      if (seen.size === wanted) {
        best = Math.min(best, positions[b] - positions[a] + 1);
        break;
      }
    }
  }
  return Number.isFinite(best) ? wanted / best : 0;
}

/** Fragments say too little to stand alone, run-ons bury the answer; headings are labels, not answers. */
export function shapeFactor(sentence: Sentence): number {
  const n = sentence.text.split(/\s+/).length;
  let factor = n < 3 ? 0.5 : n < 5 ? 0.85 : n > 80 ? 0.6 : n > 50 ? 0.8 : 1;
  if (sentence.heading) factor *= 0.5;
  if (sentence.partial) factor *= 0.85;
  return factor;
}

/** Maximal marginal relevance: each pick trades relevance against similarity to what is already quoted. */
export function pickDiverse(candidates: Scored[], max: number, lambda = 0.7): Sentence[] {
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
