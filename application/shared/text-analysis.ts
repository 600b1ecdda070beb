import { inflectionalStem, porterStem } from "./porter-stemmer";

/**
 * One notion of "word", "same word" and "stop word" for everything that
 * matches text: the search index's terms (infrastructure/search/terms.ts),
 * the question reformulation of retrieval, and the built-in model's scoring
 * (infrastructure/ai/built-in). A question and a passage meet only if they are
 * cut and stemmed the same way, so there is exactly one tokenizer. The model
 * also asks which forms a stem takes (`contentTermForms`), to tell apart
 * words the stemmer joins.
 */

/** Letters (with combining marks) and digits: the same classes FTS5's unicode61 keeps as token characters. */
export const TERM = /[\p{L}\p{N}][\p{L}\p{M}\p{N}]*/gu;

/** Lower-cased words of a text, in order, NFC-normalised (diacritics kept); apostrophes split ("tenant's" → tenant, s). */
export function words(text: string): string[] {
  return [...text.normalize("NFC").toLowerCase().matchAll(TERM)].map((m) => m[0]);
}

/** Lower-case and strip every combining mark: "Résumé" → "resume", "Größe" → "große". */
export function foldDiacritics(word: string): string {
  return word.normalize("NFD").replace(/\p{M}+/gu, "").toLowerCase();
}

/**
 * One lower-cased term as SQLite's `porter unicode61 remove_diacritics 2`
 * tokenizer indexes it: diacritics are removed from Latin letters ("résumé" ->
 * "resume", "Łódź" -> "łodz"; other scripts keep their marks, as in FTS5), then
 * the Porter stemmer applies ("payments" -> "payment").
 */
export function analyzeTerm(term: string): string {
  return porterStem(foldLatinDiacritics(term));
}

function foldLatinDiacritics(term: string): string {
  return /[^\x00-\x7f]/.test(term) ? term.normalize("NFD").replace(LATIN_DIACRITICS, "$1").normalize("NFC") : term;
}

/** A Latin letter followed by combining diacritical marks (U+0300–U+036F). */
const LATIN_DIACRITICS = /(\p{Script=Latin})[\u0300-\u036f]+/gu;

export function isStopWord(word: string): boolean {
  return STOP_WORDS.has(foldDiacritics(word));
}

/** Content terms of a text, analyzed as the index analyzes them, in order (duplicates kept). */
export function contentTerms(text: string): string[] {
  const terms: string[] = [];
  for (const word of words(text)) {
    let term = TERMS.get(word);
    if (term === undefined) {
      // Single letters carry no meaning ("s" of "tenant's"); single digits might ("3 months"). "" marks a non-term.
      term = isStopWord(word) || (word.length < 2 && !/\d/.test(word)) ? "" : analyzeTerm(word);
      // Vocabulary is bounded in practice; the cap only guards a pathological stream of unique tokens.
      if (TERMS.size >= MAX_CACHED_TERMS) TERMS.clear();
      TERMS.set(word, term);
    }
    if (term) terms.push(term);
  }
  return terms;
}

/**
 * Content terms of a text, each with the forms it takes there up to
 * inflection (`inflectionalStem`): Porter's stem makes one term of "engines"
 * and "engineers", of "refer" and "references"; their forms tell them apart.
 */
export function contentTermForms(text: string): Map<string, Set<string>> {
  const forms = new Map<string, Set<string>>();
  for (const word of words(text)) {
    const term = contentTerms(word)[0];
    if (term === undefined) continue;
    const form = inflectionalStem(foldLatinDiacritics(word));
    const known = forms.get(term);
    if (known) known.add(form);
    else forms.set(term, new Set([form]));
  }
  return forms;
}

const TERMS = new Map<string, string>();
const MAX_CACHED_TERMS = 100_000;

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

/**
 * Stop words of one language that are content words of another: "die" in
 * German is an article, in English a verb; "MIT", "fur", "hay", "dice" and
 * "come" likewise. One shared list serves every language, so these stay terms.
 */
const CONTENT_ELSEWHERE = new Set(["die", "den", "fur", "mit", "come", "dice", "hay", "par", "ed"]);

const STOP_WORDS = new Set(
  Object.values(STOP_WORDS_BY_LANGUAGE)
    .flat()
    .map(foldDiacritics)
    .filter((word) => STOP_WORDS_BY_LANGUAGE.en.includes(word) || !CONTENT_ELSEWHERE.has(word)),
);
