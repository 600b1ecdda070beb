/**
 * When the built-in model says it cannot answer. It compares the relevance
 * of the best quotable sentence (selection.ts: coverage of the question,
 * answer kind, proximity; plus meaning, below) with a global threshold,
 * measured on the development half of the real-document evaluation
 * (tests/eval) as the point trading answerable questions wrongly declined
 * against unanswerable ones answered. Never set per question.
 *
 * Words alone answer from 0.45 (the curve is in docs/decisions/067). With the
 * embedding model's similarities (the default; decision 069) a passage close
 * in meaning adds to its sentences' relevance, and words plus meaning answer
 * from 0.8: a reworded question can be answered, while words alone keep
 * answering what they answered before.
 */
export const DEFAULT_MIN_RELEVANCE = 0.45;
export const SEMANTIC_MIN_RELEVANCE = 0.8;

export function hasEvidence(bestRelevance: number, minRelevance = DEFAULT_MIN_RELEVANCE): boolean {
  return bestRelevance >= minRelevance;
}

/**
 * Meaning as evidence. Word matching cannot tell a reworded question's
 * passage ("army planes scared their hens" / "low-flying military aircraft …
 * chickens") from a near miss sharing a word ("open-source licence" of a
 * "browser"); the embedding model's similarity of the passage to the
 * question can. A passage closer than `floor` adds to the relevance of each
 * of its sentences, linearly up to `weight` at `ceiling` and above; within a
 * passage the words still choose the sentence.
 */
export interface SemanticEvidence {
  floor: number;
  ceiling: number;
  weight: number;
}

export const DEFAULT_SEMANTIC_EVIDENCE: SemanticEvidence = { floor: 0.4, ceiling: 0.6, weight: 1 };

/** 0 below the floor (or without a similarity), 1 at the ceiling and above. */
export function semanticCloseness(similarity: number | undefined, evidence: SemanticEvidence = DEFAULT_SEMANTIC_EVIDENCE): number {
  if (similarity === undefined || !Number.isFinite(similarity)) return 0;
  return Math.min(1, Math.max(0, (similarity - evidence.floor) / (evidence.ceiling - evidence.floor)));
}

/** A scored sentence with its passage's closeness in meaning added to what picks it and to what the threshold compares. */
export function withMeaning<T extends { relevance: number; score: number }>(scored: T, closeness: number, evidence: SemanticEvidence = DEFAULT_SEMANTIC_EVIDENCE): T {
  const added = evidence.weight * closeness;
  return { ...scored, relevance: scored.relevance + added, score: scored.score + added };
}

/**
 * Meaning per sentence (decision 071). A passage close to the question
 * still holds sentences that do not answer it: "the population of Troy, New
 * York" is close to the page naming Troy, and words plus the passage's
 * meaning reached the bar there. With each shortlisted sentence's own
 * similarity to the question (the built-in encoder, at question time) added,
 * a sentence answers when its words, its passage's meaning and its own
 * meaning together reach SENTENCE_MIN_RELEVANCE; words alone answer only
 * when they are overwhelming (WORDS_ALONE_RELEVANCE: every rare word of the
 * question in one sentence that holds the kind of answer asked for), so a
 * transcript whose recognition errors blur its meaning still answers what it
 * says word for word.
 */
export const SENTENCE_EVIDENCE: SemanticEvidence = { floor: 0.35, ceiling: 0.65, weight: 1 };
export const SENTENCE_MIN_RELEVANCE = 1.15;
export const WORDS_ALONE_RELEVANCE = 1.1;
/** Sentences whose meaning is measured per question: the best by words and passage meaning. */
export const SENTENCE_SHORTLIST = 8;
