import { porterStem } from "./porter-stemmer";

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

/**
 * One lower-cased term as SQLite's `porter unicode61 remove_diacritics 2`
 * tokenizer indexes it: diacritics are removed from Latin letters ("résumé" ->
 * "resume", "Łódź" -> "łodz"; other scripts keep their marks, as in FTS5), then
 * the Porter stemmer applies ("payments" -> "payment").
 */
export function analyzeTerm(term: string): string {
  const folded = /[^\x00-\x7f]/.test(term) ? term.normalize("NFD").replace(LATIN_DIACRITICS, "$1").normalize("NFC") : term;
  return porterStem(folded);
}

/** A Latin letter followed by combining diacritical marks (U+0300–U+036F). */
const LATIN_DIACRITICS = /(\p{Script=Latin})[\u0300-\u036f]+/gu;

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
