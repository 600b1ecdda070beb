/**
 * The Porter stemmer exactly as SQLite's FTS5 `porter` tokenizer applies it
 * (ext/fts5/fts5_tokenize.c), so an index built outside SQLite stems words the
 * way the embedded index does: "payments" -> "payment", "terminated" and
 * "termination" -> "termin".
 *
 * Like FTS5 it works on the UTF-8 bytes of a lower-cased token: tokens under 3
 * or over 64 bytes pass through, bytes outside ASCII are consonants, and the
 * suffix rules only ever match ASCII letters (so non-Latin words pass through
 * unchanged in practice). Each rule fires only when the word is longer than
 * its suffix, and the first suffix of a step that matches decides that step,
 * whether or not its condition holds (as in Porter's original algorithm).
 */
export function porterStem(token: string): string {
  const ascii = /^[\x00-\x7f]*$/.test(token);
  const bytes = ascii ? token : Buffer.from(token, "utf8").toString("latin1");
  if (bytes.length < 3 || bytes.length > MAX_TOKEN_BYTES) return token;
  const stemmed = stemBytes(bytes);
  if (stemmed === bytes) return token;
  return ascii ? stemmed : Buffer.from(stemmed, "latin1").toString("utf8");
}

const MAX_TOKEN_BYTES = 64;

/**
 * A word up to its inflection: Porter's step 1 only (plural -s, -ed, -ing,
 * y -> i), less a final e, so "engines" -> "engin", "engineers" -> "engineer",
 * "licensing" and "license" -> "licens". Not what FTS5 indexes: its later
 * steps strip derivations too, and so give "engines" and "engineers" one stem.
 */
export function inflectionalStem(token: string): string {
  const ascii = /^[\x00-\x7f]*$/.test(token);
  const bytes = ascii ? token : Buffer.from(token, "utf8").toString("latin1");
  if (bytes.length < 3 || bytes.length > MAX_TOKEN_BYTES) return token;
  const stemmed = step1(bytes).replace(/(?<=..)e$/, "");
  if (stemmed === bytes) return token;
  return ascii ? stemmed : Buffer.from(stemmed, "latin1").toString("utf8");
}

function stemBytes(word: string): string {
  let w = step1(word);
  w = applyRules(w, STEP2, (stem) => measure(stem) > 0);
  w = applyRules(w, STEP3, (stem) => measure(stem) > 0);
  w = step4(w);
  // Step 5a: (m>1) E -> ; (m=1 and not *o) E ->
  if (w.endsWith("e")) {
    const stem = w.slice(0, -1);
    const m = measure(stem);
    if (m > 1 || (m === 1 && !endsCvc(stem))) w = stem;
  }
  // Step 5b: (m>1 and *d and *L) -> single letter
  if (w.length > 1 && w.endsWith("ll") && measure(w.slice(0, -1)) > 1) w = w.slice(0, -1);
  return w;
}

function isVowel(c: string, yIsVowel: boolean): boolean {
  return c === "a" || c === "e" || c === "i" || c === "o" || c === "u" || (yIsVowel && c === "y");
}

/** Porter's m: the number of vowel-consonant sequences in [C](VC)^m[V]; "y" is a vowel after a consonant. */
function measure(stem: string): number {
  let m = 0;
  let previousConsonant = false;
  let seenVowel = false;
  for (let i = 0; i < stem.length; i++) {
    const consonant: boolean = !isVowel(stem[i], previousConsonant);
    if (!consonant) seenVowel = true;
    else if (seenVowel) {
      m++;
      seenVowel = false;
    }
    previousConsonant = consonant;
  }
  return m;
}

/** *v*: the stem holds a vowel ("y" counts after the first letter, as in FTS5). */
function hasVowel(stem: string): boolean {
  for (let i = 0; i < stem.length; i++) if (isVowel(stem[i], i > 0)) return true;
  return false;
}

/** *o: the stem ends consonant-vowel-consonant, the last not w, x or y. */
function endsCvc(stem: string): boolean {
  const last = stem[stem.length - 1];
  if (stem.length < 3 || last === "w" || last === "x" || last === "y") return false;
  let previousConsonant = false;
  const pattern: boolean[] = [];
  for (let i = 0; i < stem.length; i++) {
    previousConsonant = !isVowel(stem[i], previousConsonant);
    pattern.push(previousConsonant);
  }
  const n = pattern.length;
  return pattern[n - 3] && !pattern[n - 2] && pattern[n - 1];
}

function endsWithSuffix(word: string, suffix: string): boolean {
  return word.length > suffix.length && word.endsWith(suffix);
}

function step1(word: string): string {
  let w = step1a(word);
  const [afterB, removed] = step1b(w);
  w = afterB;
  if (removed) w = step1bCleanup(w);
  // Step 1c: (*v*) Y -> I
  if (w.endsWith("y") && hasVowel(w.slice(0, -1))) w = `${w.slice(0, -1)}i`;
  return w;
}

function step1a(w: string): string {
  if (!w.endsWith("s")) return w;
  if (w.endsWith("es")) {
    const two = (w.length > 4 && w.endsWith("sses")) || (w.length > 3 && w.endsWith("ies"));
    return w.slice(0, two ? -2 : -1);
  }
  return w.endsWith("ss") ? w : w.slice(0, -1);
}

/** (m>0) EED -> EE; (*v*) ED -> ; (*v*) ING -> . Says whether ED/ING was removed. */
function step1b(w: string): [string, boolean] {
  if (endsWithSuffix(w, "eed")) return [measure(w.slice(0, -3)) > 0 ? w.slice(0, -1) : w, false];
  if (endsWithSuffix(w, "ed")) return hasVowel(w.slice(0, -2)) ? [w.slice(0, -2), true] : [w, false];
  if (endsWithSuffix(w, "ing")) return hasVowel(w.slice(0, -3)) ? [w.slice(0, -3), true] : [w, false];
  return [w, false];
}

/** After ED/ING: AT -> ATE, BL -> BLE, IZ -> IZE; else undouble (not l, s, z); else (m=1 and *o) add E. */
function step1bCleanup(w: string): string {
  for (const [suffix, replacement] of [["at", "ate"], ["bl", "ble"], ["iz", "ize"]] as const) {
    if (endsWithSuffix(w, suffix)) return w.slice(0, -suffix.length) + replacement;
  }
  const last = w[w.length - 1];
  if (w.length >= 2 && !isVowel(last, false) && last !== "l" && last !== "s" && last !== "z" && last === w[w.length - 2]) {
    return w.slice(0, -1);
  }
  if (measure(w) === 1 && endsCvc(w)) return `${w}e`;
  return w;
}

/** Suffix -> replacement, in the order FTS5 tries them (the first match decides). */
const STEP2: [string, string][] = [
  ["ational", "ate"],
  ["tional", "tion"],
  ["enci", "ence"],
  ["anci", "ance"],
  ["izer", "ize"],
  ["logi", "log"],
  ["bli", "ble"],
  ["alli", "al"],
  ["entli", "ent"],
  ["eli", "e"],
  ["ousli", "ous"],
  ["ization", "ize"],
  ["ation", "ate"],
  ["ator", "ate"],
  ["alism", "al"],
  ["iveness", "ive"],
  ["fulness", "ful"],
  ["ousness", "ous"],
  ["aliti", "al"],
  ["iviti", "ive"],
  ["biliti", "ble"],
];

const STEP3: [string, string][] = [
  ["ical", "ic"],
  ["ness", ""],
  ["icate", "ic"],
  ["iciti", "ic"],
  ["ful", ""],
  ["ative", ""],
  ["alize", "al"],
];

const STEP4 = ["al", "ance", "ence", "er", "ic", "able", "ible", "ant", "ement", "ment", "ent", "ion", "ou", "ism", "ate", "iti", "ous", "ive", "ize"];

/**
 * FTS5 groups each step's suffixes by their second-to-last letter and tries,
 * within the group of the word's second-to-last letter, the first suffix that
 * matches. Suffixes of one group never end alike except where the list order
 * puts the longer first, so "first match in list order" is the same rule.
 */
function applyRules(w: string, rules: [string, string][], condition: (stem: string) => boolean): string {
  for (const [suffix, replacement] of rules) {
    if (!endsWithSuffix(w, suffix)) continue;
    const stem = w.slice(0, -suffix.length);
    return condition(stem) ? stem + replacement : w;
  }
  return w;
}

/** (m>1) deletes the suffix; ION only after S or T. */
function step4(w: string): string {
  for (const suffix of STEP4) {
    if (!endsWithSuffix(w, suffix)) continue;
    const stem = w.slice(0, -suffix.length);
    const ok = measure(stem) > 1 && (suffix !== "ion" || stem.endsWith("s") || stem.endsWith("t"));
    return ok ? stem : w;
  }
  return w;
}
