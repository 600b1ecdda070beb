/**
 * How user text becomes search terms, shared by every SearchIndex adapter so a
 * question finds the same chunks on the embedded and the production index.
 */

/** At most this many distinct terms go into one query (a pasted page must not become a huge OR). */
export const MAX_QUERY_TERMS = 32;

/** Letters (with combining marks) and digits: the same classes FTS5's unicode61 keeps as token characters. */
export const TERM = /[\p{L}\p{N}][\p{L}\p{M}\p{N}]*/gu;

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
