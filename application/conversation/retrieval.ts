import type { Passage } from "#application/ports/language-model";
import type { ChunkHit, SearchIndex } from "#application/ports/search-index";

/**
 * Retrieval for a question (ARCHITECTURE §6): BM25 over the workspace's chunks
 * always, dense search too when the workspace has an embedding model, the two
 * rankings fused by reciprocal rank fusion.
 *
 * Scoping is the index's job: both searches receive the workspace's document
 * ids and rank only those chunks (never "search everything, filter after", which
 * would let another user's chunks take the top slots and leave the workspace
 * with nothing). An empty workspace retrieves nothing without asking the index.
 */
export interface RetrieveOptions {
  index: SearchIndex;
  question: string;
  /** The workspace's documents: the only ones retrieval may reach. */
  documentIds: string[];
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
}

/** The usual RRF constant (Cormack et al., 2009): damps the head so neither ranking dominates. */
export const RRF_K = 60;
/** Each ranking contributes this many candidates per passage returned, so fusion can promote a chunk ranked lower by one side. */
const CANDIDATES_PER_RESULT = 3;
const MIN_CANDIDATES = 20;
const UNTITLED = "Untitled document";

export async function retrievePassages(options: RetrieveOptions): Promise<Passage[]> {
  const documentIds = [...new Set(options.documentIds.filter((id) => id.length > 0))];
  const limit = Number.isFinite(options.limit) ? Math.max(0, Math.floor(options.limit)) : 0;
  if (documentIds.length === 0 || limit === 0 || options.question.trim() === "") return [];
  const scope = { documentIds };
  const candidates = Math.max(MIN_CANDIDATES, limit * CANDIDATES_PER_RESULT);

  // BM25 gets the content words only: question words and stop words would
  // otherwise OR in half the corpus. The model still scores sentences against
  // the original question.
  const textSearch = options.index.searchText(reformulateQuery(options.question), scope, candidates);
  const vectors = options.vectors;
  const vectorSearch = vectors
    ? vectors
        .embed(options.question)
        .then((vector) => options.index.searchVector(vectors.space, vector, scope, candidates))
        .catch(() => [] as ChunkHit[])
    : Promise.resolve<ChunkHit[]>([]);
  const [textHits, vectorHits] = await Promise.all([textSearch, vectorSearch]);

  const inScope = new Set(documentIds);
  const fused = reciprocalRankFusion([textHits, vectorHits])
    // Defence in depth, not the scoping mechanism: an adapter bug must not leak another user's chunk.
    .filter((hit) => inScope.has(hit.chunk.documentId))
    .slice(0, limit);

  const names = new Map<string, string>();
  for (const documentId of new Set(fused.map((hit) => hit.chunk.documentId))) {
    const name = (await options.documentName?.(documentId))?.trim();
    names.set(documentId, name || UNTITLED);
  }
  return fused.map(({ chunk, score }) => ({
    chunkId: chunk.chunkId,
    documentId: chunk.documentId,
    documentName: names.get(chunk.documentId) ?? UNTITLED,
    pageNumber: chunk.pageNumber,
    text: chunk.text,
    score,
  }));
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
  const kept = dropQuestionWords(words(question)).filter((word) => !isStopWord(word));
  return kept.length > 0 ? kept.join(" ") : question;
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

function dropQuestionWords(tokens: string[]): string[] {
  return tokens.filter((word, i) => !(i > 0 && tokens[i - 1] === "how" && QUANTITY_WORDS.has(word)));
}

// ---------------------------------------------------------------------------
// Text analysis shared with the built-in model (extractive-model.ts): one
// notion of "word", "stop word" and "same word" for retrieval and scoring.

/** Letters/digits runs, like the FTS5 unicode61 tokenizer; apostrophes split ("tenant's" → tenant, s). */
const WORD = /[\p{L}\p{N}][\p{L}\p{M}\p{N}]*/gu;

/** Lower-cased words of a text, in order, NFC-normalised (diacritics kept). */
export function words(text: string): string[] {
  return [...text.normalize("NFC").toLowerCase().matchAll(WORD)].map((m) => m[0]);
}

/** Lower-case and strip combining marks: "Résumé" → "resume", "Größe" → "große". */
export function foldDiacritics(word: string): string {
  return word.normalize("NFD").replace(/\p{M}+/gu, "").toLowerCase();
}

/**
 * A light suffix stripper (English-oriented, harmless elsewhere): maps
 * inflections and common derivations of a word to one key, so "terminated",
 * "terminate" and "termination" match, as do "policy" and "policies". Cruder
 * than Porter on purpose: it only has to make question and passage agree, and
 * both go through it. Never strips a stem below three letters.
 */
export function stem(word: string): string {
  let cached = STEMS.get(word);
  if (cached === undefined) {
    cached = computeStem(word);
    // Vocabulary is bounded in practice; the cap only guards a pathological stream of unique tokens.
    if (STEMS.size >= MAX_CACHED_STEMS) STEMS.clear();
    STEMS.set(word, cached);
  }
  return cached;
}

const STEMS = new Map<string, string>();
const MAX_CACHED_STEMS = 100_000;

function computeStem(word: string): string {
  let w = foldDiacritics(word);
  if (w.length <= 3 || /^\d/.test(w)) return w;
  for (const [suffix, replacement] of SUFFIXES) {
    if (w.endsWith(suffix) && w.length - suffix.length >= (LONG_STEM_SUFFIXES.has(suffix) ? 5 : 3)) {
      w = w.slice(0, w.length - suffix.length) + replacement;
      break;
    }
  }
  // "employees" → "employe" and "employed" → "employ" must meet: a trailing "e" never decides.
  if (w.endsWith("e") && w.length > 4) w = w.slice(0, -1);
  // "running" → "runn" → "run"; "fitted" → "fitt" → "fit".
  if (/([b-df-hj-np-tv-z])\1$/.test(w) && !/(ll|ss|zz)$/.test(w)) w = w.slice(0, -1);
  return w;
}

/**
 * Suffixes that end many short root words ("boiler", "letter", "water",
 * "total", "only"): stripped only from longer words, where they are far more
 * often real suffixes ("manager", "computer", "rental", "monthly").
 */
const LONG_STEM_SUFFIXES = new Set(["er", "ers", "al", "als", "ly"]);

// Longest first: the first match wins.
const SUFFIXES: [string, string][] = [
  ["izations", "iz"],
  ["ization", "iz"],
  ["ational", "at"],
  ["fulness", "ful"],
  ["iveness", "ive"],
  ["ations", "at"],
  ["ation", "at"],
  ["ments", ""],
  ["ment", ""],
  ["ities", "i"],
  ["ings", ""],
  ["ness", ""],
  ["ated", "at"],
  ["ates", "at"],
  ["ions", ""],
  ["ing", ""],
  ["ity", "i"],
  ["ies", "i"],
  ["ied", "i"],
  ["ion", ""],
  ["ate", "at"],
  ["ers", ""],
  ["als", ""],
  ["ly", ""],
  ["ed", ""],
  ["er", ""],
  ["es", ""],
  ["al", ""],
  ["y", "i"],
  ["e", ""],
  ["s", ""],
];

export function isStopWord(word: string): boolean {
  return STOP_WORDS.has(foldDiacritics(word));
}

/** Content terms of a text, stemmed, in order (duplicates kept). */
export function contentTerms(text: string): string[] {
  const terms: string[] = [];
  for (const word of words(text)) {
    let term = TERMS.get(word);
    if (term === undefined) {
      // Single letters carry no meaning ("s" of "tenant's"); single digits might ("3 months"). "" marks a non-term.
      term = isStopWord(word) || (word.length < 2 && !/\d/.test(word)) ? "" : stem(word);
      if (TERMS.size >= MAX_CACHED_STEMS) TERMS.clear();
      TERMS.set(word, term);
    }
    if (term) terms.push(term);
  }
  return terms;
}

const TERMS = new Map<string, string>();

/** Stop words per language (diacritics folded). Question words included: they say what is asked, not about what. */
export const STOP_WORDS_BY_LANGUAGE: Record<string, readonly string[]> = {
  en: (
    "a about above after again against all also am an and any are as at be because been before being below between both but by can " +
    "could did do does doing done down during each either else ever every few for from further get gets got had has have having he her " +
    "here hers herself him himself his how however i if in into is it its itself just let lets may me might more most much must my myself " +
    "need needs no nor not now of off on once only or other our ours ourselves out over own please same shall she should so some " +
    "such tell than that the their theirs them themselves then there these they this those through to too under until up upon us " +
    "use used very was we were what whats when where whether which while who whom whose why will with within without would yes yet " +
    "you your yours yourself yourselves explain describe say says said according document documents give show find know"
  ).split(" "),
  es: (
    "el la los las un una unos unas de del al a en y o u que quien quienes cual cuales cuando cuanto cuanta cuantos cuantas como donde " +
    "por para con sobre es esta estan ser fue hay se su sus lo le les me mi mis te tu tus nos este esta estos estas ese esa " +
    "qué puede pueden debe deben dice segun documento"
  ).split(" "),
  fr: (
    "le la les un une des de du au aux a en et ou que qui quoi quel quelle quels quelles quand combien comment ou pourquoi par pour avec " +
    "sans sur est sont etre etait il elle ils elles se sa ses ce cette ces dans ne pas je tu nous vous y on dit selon document"
  ).split(" "),
  de: (
    "der die das den dem des ein eine einer eines einem einen und oder zu im in am an auf fur mit von vom bei aus ist sind waren wird " +
    "werden wer was wann wie wo warum welche welcher welches wieviel viele es sie er ich du wir ihr nicht kein keine sich sein seine " +
    "ihre dass laut dokument"
  ).split(" "),
  pt: (
    "o a os as um uma uns umas de do da dos das em no na nos nas e ou que quem qual quais quando quanto quanta quantos quantas como onde " +
    "por para com sem sobre e sao esta estao ser foi ha se seu sua seus suas lhe me meu minha te nos este esta isso isto diz segundo documento"
  ).split(" "),
  it: (
    "il lo la i gli le un uno una di del della dei delle degli a al alla ai agli alle da dal dalla in nel nella e ed o che chi quale quali " +
    "quando quanto quanta quanti quante come perche per con senza su sul sulla e sono essere si suo sua suoi sue mi ti ci vi questo " +
    "questa questi queste quello quella dice secondo documento"
  ).split(" "),
};

const STOP_WORDS = new Set(Object.values(STOP_WORDS_BY_LANGUAGE).flat().map(foldDiacritics));
