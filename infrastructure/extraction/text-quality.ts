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
  /** Share of Latin words (two letters or more) that are English words. */
  englishShare: number;
  /**
   * Share of the letter trigrams of Latin words (ASCII letters) that English words use too; null
   * when the English words alone already show the page is language (not measured: it is the
   * costlier measure, and every page of a book is judged).
   */
  trigramShare: number | null;
}

const LATIN_WORD = /[A-Za-z\u00C0-\u024F]{2,}/g;
const LETTER = /\p{L}/u;
const DIGIT = /\p{N}/u;

/** What a character is, for the counts below: 0 other, 1 letter, 2 digit (\p{N}), 3 bad, 4 space (\s). */
type Kind = 0 | 1 | 2 | 3 | 4;
const kinds = new Map<number, Kind>();

const ASCII_KINDS = Uint8Array.from({ length: 0x80 }, (_, code): Kind => {
  if ((code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a)) return 1;
  if (code >= 0x30 && code <= 0x39) return 2;
  if (code === 0x20 || (code >= 0x09 && code <= 0x0d)) return 4;
  return code < 0x20 || code === 0x7f ? 3 : 0;
});

function kindOf(code: number): Kind {
  let kind = kinds.get(code);
  if (kind === undefined) {
    const ch = String.fromCodePoint(code);
    // Control characters, U+FFFD and private use (a font without a text mapping) are bad.
    if (code <= 0x9f || code === 0xfffd || (code >= 0xe000 && code <= 0xf8ff) || code >= 0xf0000) kind = 3;
    else if (/\s/.test(ch)) kind = 4;
    else kind = LETTER.test(ch) ? 1 : DIGIT.test(ch) ? 2 : 0;
    kinds.set(code, kind);
  }
  return kind;
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
  for (let i = 0; i < text.length; i++) {
    let code = text.charCodeAt(i);
    let units = 1;
    if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      code = text.codePointAt(i)!;
      units = 2;
      i++;
    }
    const kind = code < 0x80 ? ASCII_KINDS[code] : kindOf(code);
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
  const badShare = chars === 0 ? 0 : bad / chars;
  const words = text.match(LATIN_WORD) ?? [];
  const latinLetters = words.reduce((n, w) => n + w.length, 0);
  let englishShare = 1;
  let trigramShare: number | null = null;
  // Only Latin-script pages are judged by their words; other scripts by their characters alone.
  if (words.length >= MIN_WORDS && latinLetters >= 0.5 * letters) {
    // Every page of a book is judged: a few hundred words spread over the page tell as well as all of them.
    const step = Math.max(1, words.length / SAMPLED_WORDS);
    let sampled = 0;
    let english = 0;
    for (let i = 0; i < words.length; i += step, sampled++) if (isEnglishWord(words[Math.floor(i)])) english++;
    englishShare = english / sampled;
  }
  if (englishShare < 0.5) {
    trigramShare = 1;
    const common = commonTrigrams();
    let seen = 0;
    let known = 0;
    for (const word of words) {
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
