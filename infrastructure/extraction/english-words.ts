/**
 * A large English word list (an-array-of-english-words, ~275 000 words, MIT), loaded once on
 * first use. Extraction asks it whether a line-end fragment is a word ("short-" + "lived" keeps
 * its hyphen, "intermedi-" + "ate" does not) and how much of a page reads as English.
 *
 * Held as the file's own bytes with a hash table of offsets: about 8 MB where a Set of the words
 * took 53 MB in every extraction thread (issue #33: four documents at once must stay under 500 MB),
 * and read in a few tens of milliseconds where parsing the JSON and filling the Set took a third
 * of a CPU second each time a thread started.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

export interface WordList extends Iterable<string> {
  has(word: string): boolean;
}

/** FNV-1a, over a word's UTF-16 units (its bytes when it is ASCII): one step, for hashing while reading. */
export const FNV_OFFSET = 0x811c9dc5;
export const fnvStep = (hash: number, unit: number) => Math.imul(hash ^ unit, 0x01000193);

export function fnv1a(word: string): number {
  let hash = FNV_OFFSET;
  for (let k = 0; k < word.length; k++) hash = fnvStep(hash, word.charCodeAt(k));
  return hash;
}

class HashedWords implements WordList {
  /**
   * Open addressing, two numbers a slot: the word's hash, then where it is in the file (its first
   * byte's offset × 256 + its length; 0 is an empty slot). A lookup reads one slot's neighbourhood
   * and, on a matching hash, the word's bytes: two places in memory, where separate tables of
   * offsets and ends took four (a third of judging a page was spent waiting for memory).
   */
  private readonly slots: Int32Array;
  private readonly mask: number;

  /** Word i is the ASCII bytes from `starts[i]` up to `ends[i]` of the package's file. */
  constructor(
    private readonly bytes: Buffer,
    starts: Int32Array,
    ends: Int32Array,
  ) {
    if (bytes.length >= 2 ** 23) throw new Error("The English word list has outgrown its hash table's offsets.");
    let size = 1;
    while (size < starts.length * 1.5) size <<= 1;
    this.slots = new Int32Array(size * 2);
    this.mask = size - 1;
    for (let i = 0; i < starts.length; i++) {
      let hash = FNV_OFFSET;
      for (let k = starts[i]; k < ends[i]; k++) hash = fnvStep(hash, bytes[k]);
      let slot = hash & this.mask;
      while (this.slots[slot * 2 + 1] !== 0) slot = (slot + 1) & this.mask;
      this.slots[slot * 2] = hash;
      this.slots[slot * 2 + 1] = starts[i] * 256 + Math.min(255, ends[i] - starts[i]);
    }
  }

  has(word: string): boolean {
    const hash = fnv1a(word);
    for (let slot = hash & this.mask; this.slots[slot * 2 + 1] !== 0; slot = (slot + 1) & this.mask) {
      if (this.slots[slot * 2] !== hash) continue;
      const place = this.slots[slot * 2 + 1];
      if ((place & 255) !== Math.min(255, word.length)) continue;
      const start = place >>> 8;
      let k = 0;
      while (k < word.length && word.charCodeAt(k) === this.bytes[start + k]) k++;
      if (k === word.length && (word.length < 255 || this.bytes[start + k] === 0x22)) return true;
    }
    return false;
  }

  *[Symbol.iterator](): Iterator<string> {
    for (let slot = 0; slot <= this.mask; slot++) {
      const place = this.slots[slot * 2 + 1];
      if (place === 0) continue;
      const start = place >>> 8;
      yield this.bytes.toString("latin1", start, this.bytes.indexOf(0x22, start));
    }
  }
}

let words: WordList | undefined;

export function englishWords(): WordList {
  if (words) return words;
  // The package's JSON is one array of lower-case ASCII words, `["a","aa",…]`: each word is the
  // bytes between a pair of quotes, read in place.
  const bytes = readFileSync(createRequire(import.meta.url).resolve("an-array-of-english-words/index.json"));
  let quotes = 0;
  for (let i = 0; i < bytes.length; i++) if (bytes[i] === 0x22) quotes++;
  const starts = new Int32Array(quotes >> 1);
  const ends = new Int32Array(quotes >> 1);
  for (let i = 0, quote = 0; i < bytes.length; i++) {
    if (bytes[i] !== 0x22) continue;
    if (quote % 2 === 0) starts[quote >> 1] = i + 1;
    else ends[quote >> 1] = i;
    quote++;
  }
  words = new HashedWords(bytes, starts, ends);
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
