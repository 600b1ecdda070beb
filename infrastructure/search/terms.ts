import { analyzeTerm, TERM } from "#application/shared/text-analysis";

/**
 * How user text becomes search terms, shared by every SearchIndex adapter so a
 * question finds the same chunks on the embedded and the production index.
 * The word and stemming rules themselves are the shared text analysis
 * (application/shared/text-analysis.ts), which the built-in model uses too.
 */

/** At most this many distinct terms go into one query (a pasted page must not become a huge OR). */
export const MAX_QUERY_TERMS = 32;

/**
 * The distinct lower-cased terms of a query, in order of first appearance,
 * at most MAX_QUERY_TERMS. Everything that is not a letter or digit (quotes,
 * operators, punctuation, emoji) separates terms and is never syntax.
 */
export function queryTerms(text: string): string[] {
  const terms: string[] = [];
  const seen = new Set<string>();
  for (const match of text.normalize("NFC").matchAll(TERM)) {
    const term = match[0].toLowerCase();
    if (seen.has(term)) continue;
    seen.add(term);
    terms.push(term);
    if (terms.length === MAX_QUERY_TERMS) break;
  }
  return terms;
}

/** Every term of a text, in order and with repeats, analyzed for indexing. */
export function indexTerms(text: string): string[] {
  const terms: string[] = [];
  for (const match of text.normalize("NFC").matchAll(TERM)) terms.push(analyzeTerm(match[0].toLowerCase()));
  return terms;
}

/** The distinct analyzed terms of a query (at most MAX_QUERY_TERMS), as `indexTerms` would index them. */
export function analyzedQueryTerms(text: string): string[] {
  return [...new Set(queryTerms(text).map(analyzeTerm))];
}
