import { indexTerms } from "#infrastructure/search/terms";

/**
 * One document's inverted index, as the embedded search index stores it
 * (decision 158): for each term, the chunks holding it and how often, with
 * chunks named by their position in the document's reading order. Keeping
 * postings per document is what lets a search read only the scope's postings:
 * its cost follows the workspace, never the installation.
 */
export interface DocumentPostings {
  /** Term count of each chunk, by position (BM25's document length). */
  lengths: number[];
  /** term -> [position, frequency, position, frequency, …], positions ascending. */
  terms: Map<string, number[]>;
}

/** Builds the postings of a document's chunk texts, given in reading order. */
export function documentPostings(texts: string[]): DocumentPostings {
  const lengths: number[] = [];
  const terms = new Map<string, number[]>();
  texts.forEach((text, position) => {
    const counts = new Map<string, number>();
    let length = 0;
    for (const term of indexTerms(text)) {
      counts.set(term, (counts.get(term) ?? 0) + 1);
      length++;
    }
    lengths.push(length);
    for (const [term, frequency] of counts) {
      const list = terms.get(term);
      if (list) list.push(position, frequency);
      else terms.set(term, [position, frequency]);
    }
  });
  return { lengths, terms };
}

/** Unsigned integers as LEB128 varints: postings are small numbers, mostly one byte each. */
export function encodeVarints(values: number[]): Buffer {
  const bytes: number[] = [];
  for (let value of values) {
    while (value >= 0x80) {
      bytes.push((value % 0x80) | 0x80);
      value = Math.floor(value / 0x80);
    }
    bytes.push(value);
  }
  return Buffer.from(bytes);
}

export function decodeVarints(buffer: Uint8Array): number[] {
  const values: number[] = [];
  let value = 0;
  let scale = 1;
  for (const byte of buffer) {
    value += (byte & 0x7f) * scale;
    if (byte < 0x80) {
      values.push(value);
      value = 0;
      scale = 1;
    } else scale *= 0x80;
  }
  return values;
}

/** The scoped documents' statistics and the postings of the query's terms found in them. */
export interface ScopedPostings {
  /** document id -> chunk lengths by position. */
  lengths: Map<string, number[]>;
  /** term -> document id -> [position, frequency, …]. */
  postings: Map<string, Map<string, number[]>>;
}

export interface ScoredPosition {
  documentId: string;
  position: number;
  score: number;
}

/** FTS5's bm25() constants, so scores order chunks as a bare FTS5 table of the same chunks would. */
const K1 = 1.2;
const B = 0.75;

/**
 * Okapi BM25 as FTS5's bm25() computes it (same IDF floor, k1 and b), with the
 * statistics — chunk count, average length, each term's chunk frequency — of
 * the scope alone. Returns the best `limit` chunks, ties by document id then
 * reading order.
 */
export function rankBm25({ lengths, postings }: ScopedPostings, limit: number): ScoredPosition[] {
  let chunks = 0;
  let tokens = 0;
  for (const documentLengths of lengths.values()) {
    chunks += documentLengths.length;
    for (const length of documentLengths) tokens += length;
  }
  if (chunks === 0) return [];
  const averageLength = tokens / chunks;
  const scores = new Map<string, Float64Array>();
  for (const byDocument of postings.values()) {
    let frequency = 0;
    for (const list of byDocument.values()) frequency += list.length / 2;
    const raw = Math.log((chunks - frequency + 0.5) / (frequency + 0.5));
    // FTS5 floors the IDF of a term in more than half the chunks, so it still counts a little.
    const idf = raw > 0 ? raw : 1e-6;
    for (const [documentId, list] of byDocument) {
      const documentLengths = lengths.get(documentId);
      if (!documentLengths) continue;
      let documentScores = scores.get(documentId);
      if (!documentScores) scores.set(documentId, (documentScores = new Float64Array(documentLengths.length)));
      for (let i = 0; i < list.length; i += 2) {
        const position = list[i];
        const tf = list[i + 1];
        if (position >= documentLengths.length) continue;
        documentScores[position] += (idf * tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * documentLengths[position]) / averageLength));
      }
    }
  }
  const ranked: ScoredPosition[] = [];
  for (const [documentId, documentScores] of scores) {
    documentScores.forEach((score, position) => {
      if (score > 0) ranked.push({ documentId, position, score });
    });
  }
  ranked.sort((a, b) => b.score - a.score || (a.documentId < b.documentId ? -1 : a.documentId > b.documentId ? 1 : a.position - b.position));
  return ranked.slice(0, limit);
}
