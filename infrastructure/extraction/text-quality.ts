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

const BAD = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\uFFFD\uE000-\uF8FF\u{F0000}-\u{10FFFF}]/gu;
const LATIN_WORD = /[A-Za-z\u00C0-\u024F]{2,}/g;
const NOT_A_LETTER = /\P{L}+/gu;

/** Below these many characters or words a page says too little to be judged on that measure. */
const MIN_CHARS = 12;
const MIN_WORDS = 15;

export function judgeText(text: string): TextJudgement {
  const chars = text.replace(/\s+/g, "");
  const bad = chars.match(BAD)?.length ?? 0;
  const badShare = chars.length === 0 ? 0 : bad / chars.length;
  const words = text.match(LATIN_WORD) ?? [];
  const letters = text.replace(NOT_A_LETTER, "").length;
  const latinLetters = words.reduce((n, w) => n + w.length, 0);
  let englishShare = 1;
  let trigramShare: number | null = null;
  // Only Latin-script pages are judged by their words; other scripts by their characters alone.
  if (words.length >= MIN_WORDS && latinLetters >= 0.5 * letters) {
    englishShare = words.filter((w) => isEnglishWord(w)).length / words.length;
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
  const symbols = chars.replace(/([^\p{L}\p{N}])\1{2,}/gu, "");
  const signs = symbols.replace(/[\p{L}\p{N}]+/gu, "").length;
  const symbolSoup = symbols.length >= MIN_CHARS ? signs > 0.5 * symbols.length : signs >= 3 && signs === symbols.length;
  const garbageCharacters = symbolSoup || (chars.length >= MIN_CHARS ? badShare > 0.05 : bad >= 3);
  // English pages read well over half as English words; other Latin-script languages share most
  // letter trigrams with English, and letter salad shares far fewer.
  const languageLike = englishShare >= 0.5 || (trigramShare ?? 1) >= 0.75;
  return { readable: !garbageCharacters && languageLike, badShare, englishShare, trigramShare };
}
