import type { Passage } from "#application/ports/language-model";
import type { ChunkHit, SearchIndex } from "#application/ports/search-index";
import { contentTerms, isStopWord, words } from "#application/shared/text-analysis";
import { passageWindows } from "./passage-windows";

/**
 * Retrieval for a question (ARCHITECTURE §6): BM25 over the workspace's chunks
 * always, dense search too when the workspace has an embedding model, the two
 * rankings fused by reciprocal rank fusion.
 *
 * Scoping is the index's job: both searches receive the workspace's document
 * ids and rank only those chunks (never "search everything, filter after", which
 * would let another user's chunks take the top slots and leave the workspace
 * with nothing). An empty workspace retrieves nothing without asking the index.
 * Who may read which document is decided here too, at question time (`readable`).
 */
export interface RetrieveOptions {
  index: SearchIndex;
  question: string;
  /** The workspace's documents: the only ones retrieval may reach. */
  documentIds: string[];
  /**
   * The access policy, asked at question time (decision 120): of the
   * workspace's documents, those the asker may read right now (own, or held
   * by a community where their role opens resources). A document removed
   * from a community, or a member who left, is out of scope from the next
   * question on. The app always passes it; tests of ranking alone may not.
   */
  readable?: (documentIds: string[]) => Promise<string[]>;
  /** How many passages to return. */
  limit: number;
  /**
   * Dense search with the workspace's embedding model: the model's vector space
   * in the index and the question's embedding. Absent when none is set; a
   * failing provider leaves keyword search alone.
   */
  vectors?: { space: string; embed: (text: string) => Promise<number[]> };
  /** Display name of a document (called once per distinct document in the result). */
  documentName?: (documentId: string) => string | undefined | Promise<string | undefined>;
  /**
   * Other phrasings of the question (a real model writes them when one is
   * configured): each is searched as the question is, keyword and dense, and
   * its rankings fused with the question's by RRF, so a passage worded unlike
   * the question can still rank. Passages keep the question's own similarity:
   * it is what a model compares across questions.
   */
  alternateQueries?: string[];
}

/**
 * The name a passage is cited by: a transcript says so (decision 141), so an
 * answer drawn from a recording or a video reads "According to *memo.wav
 * (transcript of a recording)*", and the reader weighs its exact words accordingly.
 */
export function citedName(name: string, source: string): string {
  if (source === "audio") return `${name} (transcript of a recording)`;
  if (source === "youtube_link") return `${name} (transcript of a video)`;
  return name;
}

/** The usual RRF constant (Cormack et al., 2009): damps the head so neither ranking dominates. */
export const RRF_K = 60;
/** Each ranking contributes this many candidates per passage returned, so fusion can promote a chunk ranked lower by one side. */
const CANDIDATES_PER_RESULT = 3;
const MIN_CANDIDATES = 20;
/**
 * The dense side is asked for at least this many, so most passages fused from
 * the keyword side still arrive with their similarity in meaning; only the
 * first `candidates` of them take part in the fusion. An exact scan costs the
 * same whatever the limit; an index answers 60 as fast as 24.
 */
const SIMILARITY_CANDIDATES = 60;
const UNTITLED = "Untitled document";
/**
 * A passage shorter than this reads its page's neighbouring chunks, while all
 * passages together stay within `CHARS_PER_PASSAGE` each on average (a chunk
 * is at most 800): decision 195. Hits of a page already chosen join its
 * passage when they rank within `limit`.
 */
const SHORT_PASSAGE_CHARS = 1200;
const CHARS_PER_PASSAGE = 1000;

export async function retrievePassages(options: RetrieveOptions): Promise<Passage[]> {
  const asked = [...new Set(options.documentIds.filter((id) => id.length > 0))];
  const limit = Number.isFinite(options.limit) ? Math.max(0, Math.floor(options.limit)) : 0;
  if (asked.length === 0 || limit === 0 || options.question.trim() === "") return [];
  const documentIds = options.readable ? await options.readable(asked) : asked;
  if (documentIds.length === 0) return [];
  const scope = { documentIds };
  const candidates = Math.max(MIN_CANDIDATES, limit * CANDIDATES_PER_RESULT);

  const vectors = options.vectors;
  const search = async (query: string, denseLimit: number): Promise<[ChunkHit[], ChunkHit[]]> =>
    Promise.all([
      // BM25 gets the content words only: question words and stop words would
      // otherwise OR in half the corpus. The model still scores sentences against
      // the original question.
      options.index.searchText(reformulateQuery(query), scope, candidates),
      vectors
        ? vectors
            .embed(query)
            .then((vector) => options.index.searchVector(vectors.space, vector, scope, denseLimit))
            .catch(() => [] as ChunkHit[])
        : Promise.resolve<ChunkHit[]>([]),
    ]);
  const alternates = distinctAlternates(options.question, options.alternateQueries ?? []);
  const [[textHits, denseHits], ...alternateHits] = await Promise.all([
    search(options.question, Math.max(candidates, SIMILARITY_CANDIDATES)),
    ...alternates.map((query) => search(query, candidates)),
  ]);

  // Cosine per chunk from the dense side: the model weighs meaning by it (Passage.similarity).
  const similarity = new Map(denseHits.map((hit) => [hit.chunk.chunkId, hit.score]));
  const inScope = new Set(documentIds);
  const fused = reciprocalRankFusion([textHits, denseHits.slice(0, candidates), ...alternateHits.flat()])
    // Defence in depth, not the scoping mechanism: an adapter bug must not leak another user's chunk.
    .filter((hit) => inScope.has(hit.chunk.documentId));
  // Neighbours are read from the hits' own documents, so they stay in scope.
  const windows = await passageWindows(fused, { limit, mergeDepth: limit, minChars: SHORT_PASSAGE_CHARS, maxChars: limit * CHARS_PER_PASSAGE, index: options.index });

  const names = new Map<string, string>();
  for (const documentId of new Set(windows.map((window) => window.lead.documentId))) {
    const name = (await options.documentName?.(documentId))?.trim();
    names.set(documentId, name || UNTITLED);
  }
  return windows.map(({ lead, chunks, score, text }) => {
    // The passage is as close in meaning as its closest chunk the dense side measured.
    const measured = chunks.map((chunk) => similarity.get(chunk.chunkId)).filter((s): s is number => s !== undefined);
    return {
      chunkId: lead.chunkId,
      documentId: lead.documentId,
      documentName: names.get(lead.documentId) ?? UNTITLED,
      pageNumber: lead.pageNumber,
      text,
      score,
      ...(measured.length > 0 ? { similarity: Math.max(...measured) } : {}),
    };
  });
}

/** At most this many other phrasings are searched: each costs a keyword search, and an embedding and a dense search. */
export const MAX_ALTERNATE_QUERIES = 4;

/** Non-blank phrasings other than the question itself (compared without case and spacing), each once. */
function distinctAlternates(question: string, alternates: string[]): string[] {
  const key = (text: string) => text.trim().replace(/\s+/g, " ").toLowerCase();
  const seen = new Set([key(question)]);
  const kept: string[] = [];
  for (const alternate of alternates) {
    const k = key(alternate);
    if (k === "" || seen.has(k)) continue;
    seen.add(k);
    kept.push(alternate.trim());
  }
  return kept.slice(0, MAX_ALTERNATE_QUERIES);
}

/**
 * Reciprocal rank fusion: each ranking adds 1 / (k + rank) for every chunk it
 * holds (rank from 1), chunks deduplicated by chunkId. Scores of different
 * rankers are not comparable (BM25 vs cosine); ranks are. Ties keep the order
 * of first appearance, so a BM25-only result keeps BM25's order exactly.
 */
export function reciprocalRankFusion(rankings: ChunkHit[][], k = RRF_K): ChunkHit[] {
  const fused = new Map<string, { hit: ChunkHit; score: number; first: number }>();
  let seen = 0;
  for (const ranking of rankings) {
    const rankedHere = new Set<string>();
    ranking.forEach((hit, i) => {
      const id = hit.chunk.chunkId;
      // A ranking listing a chunk twice counts its best rank only.
      if (rankedHere.has(id)) return;
      rankedHere.add(id);
      const entry = fused.get(id);
      const contribution = 1 / (k + i + 1);
      if (entry) entry.score += contribution;
      else fused.set(id, { hit, score: contribution, first: seen++ });
    });
  }
  return [...fused.values()]
    .sort((a, b) => b.score - a.score || a.first - b.first)
    .map(({ hit, score }) => ({ chunk: hit.chunk, score }));
}

/**
 * The question's content words for BM25: question words, auxiliaries and stop
 * words (English and the main Western European languages) removed. Falls back
 * to the original text when nothing would remain ("What is it?"), so a
 * question never silently searches for nothing.
 */
export function reformulateQuery(question: string): string {
  const kept = questionContentWords(question);
  return kept.length > 0 ? kept.join(" ") : question;
}

/** The words a question is about: question words, the kind of answer asked for and stop words left out. */
export function questionContentWords(question: string): string[] {
  return dropQuestionWords(words(question)).filter((word) => !isStopWord(word));
}

/** Content terms of a question, stemmed: like `contentTerms`, less the quantity asked for ("how many", "how long"). */
export function questionTerms(question: string): string[] {
  return contentTerms(dropQuestionWords(words(question)).join(" "));
}

/**
 * "How many/much/long/often/old…" ask for a quantity; the adverb says what
 * kind of answer is wanted, not what it is about, and the answer rarely
 * repeats it ("How long is the warranty?" → "covers ten years"). Only after
 * "how", so "a longer warranty" keeps its word.
 */
const QUANTITY_WORDS = new Set(["many", "much", "long", "often", "old", "far", "big", "large", "soon", "quickly", "fast", "frequently"]);

/**
 * Likewise "what year", "which date", "what is the name": the noun says what
 * kind of answer is wanted ("1774", "Jacob Tonson"), and the answer does not
 * repeat it.
 */
const ANSWER_NOUNS = new Set(["year", "years", "date", "day", "month", "century", "time", "name", "percentage", "number", "amount"]);

function dropQuestionWords(tokens: string[]): string[] {
  return tokens.filter((word, i) => {
    if (i > 0 && tokens[i - 1] === "how" && QUANTITY_WORDS.has(word)) return false;
    const asker = tokens.slice(Math.max(0, i - 3), i);
    return !(ANSWER_NOUNS.has(word) && (asker.includes("what") || asker.includes("which")) && asker.every((w) => /^(what|which|in|on|is|was|the|s)$/.test(w)));
  });
}
