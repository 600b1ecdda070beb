/**
 * Whether a page's text layer is real language or garbage that only looks like text to a program:
 * fonts without a usable character mapping give control characters, U+FFFD or private-use glyphs,
 * and wrong encodings give letter salad ("Wkh txlfn eurzq"). Such a page must be OCR'd or marked
 * unreadable, never indexed as if it were fine (ARCHITECTURE §6).
 */
import { commonTrigrams, isEnglishWord } from "#infrastructure/extraction/english-words";

export interface TextJudgement {
  readable: boolean;
  /** Share of non-space characters that are control, replacement or private-use characters. */
  badShare: number;
  /**
   * Share of Latin words (two letters or more) that are English words, from up to 100 spread over
   * the page; once half of those are English, a lower bound (no more are looked up).
   */
  englishShare: number;
  /**
   * Share of the letter trigrams of Latin words (ASCII letters) that English words use too; null
   * when the English words alone already show the page is language (not measured: it is the
   * costlier measure, and every page of a book is judged).
   */
  trigramShare: number | null;
}

const LATIN_WORD = /[A-Za-z\u00C0-\u024F]{2,}/g;
/** A–Z or a–z: with bit 5 set (lower case), a to z. */
export const isAsciiLetter = (code: number) => (code | 32) >= 97 && (code | 32) <= 122;
const isLatinLetter = (code: number) => isAsciiLetter(code) || (code >= 0xc0 && code <= 0x24f);
const LETTER = /\p{L}/u;
const DIGIT = /\p{N}/u;

/** What a character is, for the counts below: 0 other, 1 letter, 2 digit (\p{N}), 3 bad, 4 space (\s). */
type Kind = 0 | 1 | 2 | 3 | 4;
const UNKNOWN = 255;

/** Every character's kind, filled in on first sight: indexing an array by code point is cheaper than a Map lookup per character. */
const kinds = new Uint8Array(0x110000).fill(UNKNOWN);

function kindOf(code: number): Kind {
  const ch = String.fromCodePoint(code);
  let kind: Kind;
  if ((code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a)) kind = 1;
  else if (code >= 0x30 && code <= 0x39) kind = 2;
  else if (code === 0x20 || (code >= 0x09 && code <= 0x0d)) kind = 4;
  else if (code < 0x80) kind = code < 0x20 || code === 0x7f ? 3 : 0;
  // Control characters, U+FFFD and private use (a font without a text mapping) are bad.
  else if (code <= 0x9f || code === 0xfffd || (code >= 0xe000 && code <= 0xf8ff) || code >= 0xf0000) kind = 3;
  else if (/\s/.test(ch)) kind = 4;
  else kind = LETTER.test(ch) ? 1 : DIGIT.test(ch) ? 2 : 0;
  kinds[code] = kind;
  return kind;
}

/** Whether a code point is a letter (\p{L}), from the same table. */
export function isLetterCode(code: number): boolean {
  const known = kinds[code];
  return (known === UNKNOWN ? kindOf(code) : known) === 1;
}

/** Where judgeText's Latin words are, a start and an end each, kept from page to page. */
let latinWordBounds: Int32Array = new Int32Array(2048);

/** Notes Latin word number `index` of a page as running up to `end`, `length` letters long. */
function noteLatinWord(index: number, end: number, length: number): void {
  if (index * 2 + 1 >= latinWordBounds.length) {
    const larger = new Int32Array(latinWordBounds.length * 2);
    larger.set(latinWordBounds);
    latinWordBounds = larger;
  }
  latinWordBounds[index * 2] = end - length;
  latinWordBounds[index * 2 + 1] = end;
}

/** Below these many characters or words a page says too little to be judged on that measure. */
const MIN_CHARS = 12;
const MIN_WORDS = 15;
const SAMPLED_WORDS = 100;

export function judgeText(text: string): TextJudgement {
  // One pass over the characters (every page of a book is judged; Unicode-aware expressions over
  // each page cost several times more): non-space characters, bad ones, letters, and signs (neither
  // letter nor digit) outside runs of three or more of the same sign (dot leaders, rules).
  let chars = 0;
  let bad = 0;
  let letters = 0;
  let signs = 0;
  let inRuns = 0;
  let runCode = -1;
  let runLength = 0;
  // Latin words (LATIN_WORD): how many, their letters, and where each is (for the sample below).
  let latinWords = 0;
  let latinLetters = 0;
  let latinRun = 0;

  for (let i = 0; i < text.length; i++) {
    let code = text.charCodeAt(i);
    // Most characters are ASCII letters: a letter, in a Latin word, ending any run of signs.
    if (isAsciiLetter(code)) {
      latinRun++;
      chars++;
      letters++;
      if (runLength !== 0) {
        if (runLength >= 3) inRuns += runLength;
        runLength = 0;
        runCode = -1;
      }
      continue;
    }
    if (isLatinLetter(code)) latinRun++;
    else {
      if (latinRun >= 2) {
        noteLatinWord(latinWords++, i, latinRun);
        latinLetters += latinRun;
      }
      latinRun = 0;
    }
    let units = 1;
    if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      code = text.codePointAt(i)!;
      units = 2;
      i++;
    }
    const known = kinds[code];
    const kind = known === UNKNOWN ? kindOf(code) : known;
    if (kind === 4) continue;
    chars += units;
    if (kind === 3) bad++;
    else if (kind === 1) letters += units;
    if (kind === 1 || kind === 2 || code !== runCode) {
      if (runLength >= 3) inRuns += runLength;
      runLength = 0;
      runCode = -1;
    }
    if (kind === 1 || kind === 2) continue;
    signs += units;
    runCode = code;
    runLength += units;
  }
  if (runLength >= 3) inRuns += runLength;
  if (latinRun >= 2) {
    noteLatinWord(latinWords++, text.length, latinRun);
    latinLetters += latinRun;
  }
  const badShare = chars === 0 ? 0 : bad / chars;
  let englishShare = 1;
  let trigramShare: number | null = null;
  // Only Latin-script pages are judged by their words; other scripts by their characters alone.
  if (latinWords >= MIN_WORDS && latinLetters >= 0.5 * letters) {
    // Every page of a book is judged: a few hundred words spread over the page tell as well as all of them.
    const step = Math.max(1, latinWords / SAMPLED_WORDS);
    let samples = 0;
    for (let next = 0; next < latinWords; next += step) samples++;
    let sampled = 0;
    let english = 0;
    // Words number 0, `step`, 2 × `step`, …, cut out of the text where the count above found them;
    // once half the sample is English the page reads as language, and the rest need not be looked up.
    for (let next = 0; next < latinWords && english * 2 < samples; next += step) {
      const word = Math.floor(next);
      if (isEnglishWord(text.slice(latinWordBounds[word * 2], latinWordBounds[word * 2 + 1]))) english++;
      sampled++;
    }
    englishShare = english * 2 >= samples ? english / samples : english / sampled;
  }
  if (englishShare < 0.5) {
    trigramShare = 1;
    const common = commonTrigrams();
    let seen = 0;
    let known = 0;
    for (const word of text.match(LATIN_WORD) ?? []) {
      const lower = word.toLowerCase();
      // Accented letters are not in the English list: such words say nothing either way.
      if (!/^[a-z]+$/.test(lower)) continue;
      const padded = ` ${lower} `;
      for (let i = 0; i + 3 <= padded.length; i++) {
        seen++;
        if (common.has(padded.slice(i, i + 3))) known++;
      }
    }
    if (seen > 0) trigramShare = known / seen;
  }
  // Fonts without a text mapping read by poppler give ASCII punctuation ("! # $ %") where pdf.js
  // gives control characters: a page of mostly symbols is not language either. Dot leaders and
  // rules ("......", "-----") are left out of the count.
  const symbols = chars - inRuns;
  const outsideRuns = signs - inRuns;
  const symbolSoup = symbols >= MIN_CHARS ? outsideRuns > 0.5 * symbols : outsideRuns >= 3 && outsideRuns === symbols;
  const garbageCharacters = symbolSoup || (chars >= MIN_CHARS ? badShare > 0.05 : bad >= 3);
  // English pages read well over half as English words; other Latin-script languages share most
  // letter trigrams with English, and letter salad shares far fewer.
  const languageLike = englishShare >= 0.5 || (trigramShare ?? 1) >= 0.75;
  return { readable: !garbageCharacters && languageLike, badShare, englishShare, trigramShare };
}
