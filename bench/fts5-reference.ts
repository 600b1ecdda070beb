import { queryTerms } from "#infrastructure/search/terms";

/**
 * The reference the retrieval benches measure against: a bare FTS5 table with
 * the search index's tokenizer, queried with every distinct term of the
 * question double-quoted (so no word is syntax) and OR-ed, ranked by bm25().
 * Since decision 158 the index ranks with the same BM25 over the scope's own
 * statistics, so a bare table holding exactly the scoped chunks returns the
 * same chunks.
 */
export const BARE_FTS5_TOKENIZER = "porter unicode61 remove_diacritics 2";

/** The FTS5 match expression for a question, or null when nothing searchable remains. */
export function toFtsQuery(text: string): string | null {
  const terms = queryTerms(text);
  if (terms.length === 0) return null;
  return terms.map((term) => `"${term.replace(/"/g, '""')}"`).join(" OR ");
}
