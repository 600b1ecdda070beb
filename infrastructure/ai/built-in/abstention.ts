/**
 * When the built-in model says it cannot answer. It compares the relevance
 * of the best quotable sentence (selection.ts: coverage of the question,
 * answer kind, proximity) with one global threshold, measured on the
 * development half of the real-document evaluation (tests/eval) as the point
 * trading answerable questions wrongly declined against unanswerable ones
 * answered; the curve is in docs/decisions/067-built-in-model-abstention.md.
 * Never set per question.
 */
export const DEFAULT_MIN_RELEVANCE = 0.45;

export function hasEvidence(bestRelevance: number, minRelevance = DEFAULT_MIN_RELEVANCE): boolean {
  return bestRelevance >= minRelevance;
}
