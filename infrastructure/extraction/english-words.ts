/**
 * A large English word list (an-array-of-english-words, ~275 000 words, MIT), loaded once on
 * first use. Extraction asks it whether a line-end fragment is a word ("short-" + "lived" keeps
 * its hyphen, "intermedi-" + "ate" does not) and how much of a page reads as English.
 */
import { createRequire } from "node:module";

let words: ReadonlySet<string> | undefined;

export function englishWords(): ReadonlySet<string> {
  words ??= new Set(createRequire(import.meta.url)("an-array-of-english-words") as string[]);
  return words;
}

/** True when the word, in lower case, is an English word. */
export const isEnglishWord = (word: string): boolean => englishWords().has(word.toLowerCase());

let trigrams: ReadonlySet<string> | undefined;

/**
 * Letter trigrams that occur in at least a few English words. Most European languages written in
 * Latin letters share nearly all of theirs with this set; text in a scrambled encoding does not.
 */
export function commonTrigrams(): ReadonlySet<string> {
  if (trigrams) return trigrams;
  const counts = new Map<string, number>();
  for (const word of englishWords()) {
    const padded = ` ${word} `;
    for (let i = 0; i + 3 <= padded.length; i++) {
      const trigram = padded.slice(i, i + 3);
      counts.set(trigram, (counts.get(trigram) ?? 0) + 1);
    }
  }
  trigrams = new Set([...counts].filter(([, n]) => n >= 5).map(([t]) => t));
  return trigrams;
}
