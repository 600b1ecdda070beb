/**
 * Text as a person reads it: typographic ligatures and odd spaces normalised, and words that the
 * typesetter hyphenated at a line end joined again, while real compounds keep their hyphen.
 */
import { englishWords, FNV_OFFSET, fnv1a, fnvStep, isEnglishWord } from "#infrastructure/extraction/english-words";
import { isAsciiLetter, isLetterCode } from "#infrastructure/extraction/text-quality";

const LIGATURES: Record<string, string> = { "ﬀ": "ff", "ﬁ": "fi", "ﬂ": "fl", "ﬃ": "ffi", "ﬄ": "ffl", "ﬅ": "st", "ﬆ": "st" };

/**
 * Adobe's Symbol font sets the pieces of big delimiters (a tall parenthesis's top, extension and
 * bottom), and a few sans-serif signs, in the private use area, U+F8E6 to U+F8FE: their Unicode
 * characters, in that order.
 */
const SYMBOL_PIECES = "⏐⎯®©™⎛⎜⎝⎡⎢⎣⎧⎨⎩⎪⎮⎞⎟⎠⎤⎥⎦⎫⎬⎭";

/** Any character normalizeText changes; most text has none, and one test is cheaper than six replacements. */
const NEEDS_NORMALIZING = /[\uFB00-\uFB06\uFF01-\uFF5E\u00A0\u2000-\u200D\u202F\u205F\u3000\u2010\u2011\u00AD\u2060\uFEFF\uF8E6-\uF8FE]/;

/**
 * Ligatures and presentation forms become their letters; every kind of space becomes a space;
 * invisible characters go; the Symbol font's pieces of big delimiters become Unicode's. Full NFKC
 * is not applied to everything: it would also turn "m²" into "m2" and "½" into "1⁄2", which
 * changes what a passage says.
 */
export function normalizeText(text: string): string {
  if (!NEEDS_NORMALIZING.test(text)) return text;
  return (
    text
      .replace(/[\uFB00-\uFB06]/g, (ch) => LIGATURES[ch] ?? ch)
      // Full-width ASCII (common in CJK documents) as plain ASCII.
      .replace(/[\uFF01-\uFF5E]/g, (ch) => ch.normalize("NFKC"))
      .replace(/[\u00A0\u2000-\u200A\u202F\u205F\u3000]/g, " ")
      .replace(/[\u2010\u2011]/g, "-")
      // A soft hyphen at the end of a line is where the word was broken; elsewhere it is invisible.
      .replace(/\u00AD$/, "-")
      .replace(/[\u00AD\u200B-\u200D\u2060\uFEFF]/g, "")
      .replace(/[\uF8E6-\uF8FE]/g, (ch) => SYMBOL_PIECES[ch.charCodeAt(0) - 0xf8e6])
  );
}

/** Four or more single letters each followed by one space: "T H E P E N G U I N P R E S S". */
const LETTER_SPACED = /(?<![\p{L}\p{N}])\p{L}(?: \p{L}){3,}(?![\p{L}\p{N}])/gu;

/** The fewest English words (of two letters or more, or "a") that spell `letters` exactly, if any. */
function segmentWords(letters: string): string[] | undefined {
  const words = englishWords();
  const lower = letters.toLowerCase();
  const best: (number[] | undefined)[] = [[]];
  for (let end = 1; end <= lower.length; end++) {
    for (let start = Math.max(0, end - 24); start < end; start++) {
      const previous = best[start];
      const word = lower.slice(start, end);
      if (!previous || (word.length === 1 && word !== "a") || !words.has(word)) continue;
      if (!best[end] || previous.length + 1 < best[end]!.length) best[end] = [...previous, end];
    }
  }
  const cuts = best[lower.length];
  if (!cuts) return undefined;
  return cuts.map((cut, i) => letters.slice(i === 0 ? 0 : cuts[i - 1], cut));
}

/**
 * Letter-spaced text set with real spaces between the letters (a title page's "T H E  P R E S S",
 * whose word gaps the PDF does not keep) reads as words when English words spell it exactly;
 * otherwise it is left as it is.
 */
/** A cheap first look (four characters with one space between each), before the Unicode-aware pattern. */
const MAYBE_LETTER_SPACED = /\S \S \S \S/;

export function collapseLetterSpacing(text: string): string {
  if (!MAYBE_LETTER_SPACED.test(text)) return text;
  return text.replace(LETTER_SPACED, (run) => segmentWords(run.replace(/ /g, ""))?.join(" ") ?? run);
}

/** Letters of a word fragment: Latin letters with accents, and apostrophes inside words. */
const TRAILING_HYPHENATED = /([\p{L}]+(?:['’][\p{L}]+)*)-$/u;
const LEADING_CONTINUATION = /^([\p{Ll}][\p{L}]*)/u;

/**
 * Whether a document uses a (lower-case) word. A function, not an object with a method: V8 keeps
 * the shape of an object made for one document only while it lives, and the dehyphenation compiled
 * against it was compiled again for every document; a function's is the engine's own (decision 225).
 */
export type Vocabulary = (word: string) => boolean;

/** The vocabulary of no document: hyphenation is judged by the English word list alone. */
export const noWords: Vocabulary = () => false;

/** Words of a text, lower-cased, for telling which joined forms a document uses elsewhere. */
export function vocabularyOf(texts: Iterable<string>): Set<string> {
  const words = new Set<string>();
  for (const text of texts) for (const word of text.toLowerCase().match(/[\p{L}]+(?:-[\p{L}]+)*/gu) ?? []) words.add(word);
  return words;
}

/** The code point at `i` (charCodeAt, which V8 inlines, unless a surrogate pair starts there). */
const codeAt = (text: string, i: number) => {
  const code = text.charCodeAt(i);
  return code >= 0xd800 && code <= 0xdbff ? text.codePointAt(i)! : code;
};

/**
 * Which of `wanted` (lower-case) are words of `texts`, the words vocabularyOf would give. A book's
 * text holds a hundred thousand words and a line-end hyphen asks about four: its words are read in
 * place and only those whose hash a wanted word shares are cut out and compared.
 */
export function wordsIn(texts: readonly string[], wanted: ReadonlySet<string>): Set<string> {
  const found = new Set<string>();
  // Wanted words not found yet, by hash: a word found once ("in", "be") is not cut out again at every use.
  const missing = new Map<number, number>();
  for (const word of wanted) missing.set(fnv1a(word), (missing.get(fnv1a(word)) ?? 0) + 1);
  // A first look at a hash's low 16 bits, which a typed array answers faster than the Map: how
  // many missing words' hashes end so. Half a book's words are ones a hyphen asks about ("in",
  // "the"), and once found they must not reach the Map again.
  const maybe = new Uint16Array(0x10000);
  for (const hash of missing.keys()) maybe[hash & 0xffff]++;
  // One string, joined by a character no word holds: the loop then reads one flat string. Over a
  // book's ten thousand lines (cut, trimmed and concatenated strings of both widths) it read each
  // character through V8's generic path, at three times the cost.
  const text = texts.join("\n");
  const length = text.length;
  let i = 0;
  while (i < length) {
    let code = text.charCodeAt(i);
    // Most characters are ASCII, and read here without the letter table or a surrogate check:
    // on this path the loop over a book's text took half the time.
    if (code < 0x80 && !isAsciiLetter(code)) {
      i++;
      continue;
    }
    const start = i;
    let ascii = true;
    let hash = FNV_OFFSET;
    // Letter runs joined by single hyphens, as vocabularyOf's pattern matches them.
    while (i < length) {
      code = text.charCodeAt(i);
      if (code < 0x80) {
        if (isAsciiLetter(code)) {
          // Lower case: an ASCII letter with bit 5 set.
          hash = fnvStep(hash, code | 32);
          i++;
        } else if (code === 45 && i > start && i + 1 < length && isLetterCode(codeAt(text, i + 1))) {
          hash = fnvStep(hash, 45);
          i++;
        } else {
          break;
        }
      } else {
        code = codeAt(text, i);
        if (!isLetterCode(code)) break;
        ascii = false;
        i += code > 0xffff ? 2 : 1;
      }
    }
    if (i === start) {
      i++;
      continue;
    }
    if (ascii) {
      if (maybe[hash & 0xffff] !== 0 && missing.has(hash)) foundOne(text.slice(start, i).toLowerCase(), wanted, found, missing, maybe);
    } else {
      // Lower-casing outside ASCII can change a word's letters ("İ"): the pattern decides, as in vocabularyOf.
      for (const word of vocabularyOf([text.slice(start, i)])) foundOne(word, wanted, found, missing, maybe);
    }
  }
  return found;
}

/** Notes `word` found, if wanted and new, and forgets its hash once no missing word has it (see wordsIn). */
function foundOne(word: string, wanted: ReadonlySet<string>, found: Set<string>, missing: Map<number, number>, maybe: Uint16Array): void {
  if (!wanted.has(word) || found.has(word)) return;
  found.add(word);
  const hash = fnv1a(word);
  const left = missing.get(hash)! - 1;
  if (left > 0) missing.set(hash, left);
  else {
    missing.delete(hash);
    maybe[hash & 0xffff]--;
  }
}

/**
 * The lower-case words joinHyphenated asks a vocabulary about for the line-end hyphens of `lines`
 * (in reading order): a document's vocabulary need only be read for these.
 */
export function wordsAskedWhenJoining(lines: readonly string[]): Set<string> {
  const asked = new Set<string>();
  for (let i = 0; i + 1 < lines.length; i++) {
    if (!lines[i].endsWith("-")) continue;
    const parts = hyphenation(lines[i], lines[i + 1].trimStart());
    if (!parts) continue;
    const [head, tail] = parts;
    for (const word of [head + tail, `${head}-${tail}`, head, tail]) asked.add(word.toLowerCase());
  }
  return asked;
}

const hyphenation = (lineEnd: string, nextStart: string): [string, string] | undefined => {
  // No match crosses a space: the pattern reads the last word alone (over the line, it tried every start).
  const head = TRAILING_HYPHENATED.exec(lineEnd.slice(lineEnd.lastIndexOf(" ") + 1))?.[1];
  const tail = LEADING_CONTINUATION.exec(nextStart)?.[1];
  return head && tail ? [head, tail] : undefined;
};

const known = (word: string, vocabulary: Vocabulary) => vocabulary(word.toLowerCase()) || isEnglishWord(word);

/**
 * Whether "head-" at a line end and "tail" at the next line's start are one word broken by the
 * typesetter (join without the hyphen) or a compound that happens to break there ("short-lived").
 * Returns undefined when the pair is not a line-end hyphenation at all.
 */
export function joinHyphenated(lineEnd: string, nextStart: string, vocabulary: Vocabulary): "join" | "keep" | undefined {
  const parts = hyphenation(lineEnd, nextStart);
  if (!parts) return undefined;
  const [head, tail] = parts;
  // "mid-1990s", "pre-" + "COVID": a hyphen before something other than a lower-case letter is real.
  if (known(head + tail, vocabulary)) return "join";
  if (vocabulary(`${head}-${tail}`.toLowerCase())) return "keep";
  if (head.length > 1 && known(head, vocabulary) && known(tail, vocabulary)) return "keep";
  return "join";
}

/**
 * Rejoins words hyphenated at line ends across a sequence of lines in reading order. The second
 * part of the word moves up to the first line, so lines (and the blocks that hold them) keep their
 * place: "an intermedi-" / "ate tier" becomes "an intermediate" / "tier".
 */
export function dehyphenateLines(lines: string[], vocabulary: Vocabulary): string[] {
  const out = [...lines];
  for (let i = 0; i + 1 < out.length; i++) {
    const line = out[i];
    if (!line.endsWith("-")) continue;
    const next = out[i + 1].trimStart();
    const decision = joinHyphenated(line, next, vocabulary);
    if (!decision) continue;
    const tail = /^\S+/.exec(next)![0];
    out[i] = decision === "join" ? line.slice(0, -1) + tail : line + tail;
    out[i + 1] = next.slice(tail.length).trimStart();
  }
  return out;
}
