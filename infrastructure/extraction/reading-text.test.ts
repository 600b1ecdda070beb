import { describe, expect, it } from "vitest";
import { createRequire } from "node:module";
import { englishWords, isEnglishWord } from "#infrastructure/extraction/english-words";
import { collapseLetterSpacing, dehyphenateLines, joinHyphenated, normalizeText, noWords, vocabularyOf, wordsAskedWhenJoining, wordsIn } from "#infrastructure/extraction/reading-text";

const none = noWords;
/** The vocabulary of a document holding `texts`. */
const documentOf = (...texts: string[]) => {
  const words = vocabularyOf(texts);
  return (word: string) => words.has(word);
};

describe("text as a person reads it", () => {
  it("turns typographic ligatures and odd spaces into plain letters and spaces", () => {
    expect(normalizeText("the ﬁrst ﬂoor, an oﬃce and a baﬄe")).toBe("the first floor, an office and a baffle");
    expect(normalizeText("10\u00A0km\u2009away")).toBe("10 km away");
    expect(normalizeText("in\u00ADvisible soft hyphen and zero\u200Bwidth")).toBe("invisible soft hyphen and zerowidth");
    // Superscripts and fractions keep their meaning: no blanket NFKC.
    expect(normalizeText("12 m² and ½ cup")).toBe("12 m² and ½ cup");
  });

  it("joins a word the typesetter broke at a line end, keeping real compounds whole", () => {
    expect(joinHyphenated("an intermedi-", "ate tier", none)).toBe("join");
    expect(joinHyphenated("a careful evaluation of through-", "put and", none)).toBe("join");
    expect(joinHyphenated("frequently guesses wrong: short-", "lived functions", none)).toBe("keep");
    expect(joinHyphenated("defined on double-", "precision floating", none)).toBe("keep");
    // Not a line-end hyphenation: a capital or a number follows, or no hyphen at all.
    expect(joinHyphenated("the pre-", "COVID years", none)).toBeUndefined();
    expect(joinHyphenated("in the mid-", "1990s", none)).toBeUndefined();
    expect(joinHyphenated("no hyphen", "here", none)).toBeUndefined();
  });

  it("uses the document's own words for names the word list does not know", () => {
    expect(joinHyphenated("a selection of SunSpi-", "der benchmarks", documentOf("Across all of SunSpider the mean"))).toBe("join");
    expect(joinHyphenated("the Kestrel-", "style tiers", documentOf("a Kestrel-style design"))).toBe("keep");
  });

  it("looks in the document only for the words its line-end hyphens ask about, finding what the whole vocabulary would", () => {
    const lines = ["a selection of SunSpi-", "der benchmarks and the Kestrel-", "style tiers, then mid-", "1990s"];
    expect(wordsAskedWhenJoining(lines)).toEqual(new Set(["sunspider", "sunspi-der", "sunspi", "der", "kestrelstyle", "kestrel-style", "kestrel", "style"]));
    const text = "Across all of SUNSPIDER the mean; a Kestrel-style design, kestrel-style-ish, Ärger café İstanbul der𝐀x style";
    const wanted = new Set(["sunspider", "kestrel-style", "style", "der", "ärger", "café", "kestrel", "istanbul"]);
    const everyWord = vocabularyOf([text]);
    expect(wordsIn([text], wanted)).toEqual(new Set([...wanted].filter((word) => everyWord.has(word))));
  });

  it("moves the rest of a broken word up to its first line, so lines keep their place", () => {
    expect(dehyphenateLines(["Kestrel addresses this waste with an intermedi-", "ate tier that we call the", "speculative baseline."], none)).toEqual([
      "Kestrel addresses this waste with an intermediate",
      "tier that we call the",
      "speculative baseline.",
    ]);
    expect(dehyphenateLines(["it frequently guesses wrong: short-", "lived functions"], none)).toEqual(["it frequently guesses wrong: short-lived", "functions"]);
  });

  it("reads letter-spaced capitals as the words they spell, and leaves other single letters alone", () => {
    expect(collapseLetterSpacing("T H E P E N G U I N P R E S S")).toBe("THE PENGUIN PRESS");
    expect(collapseLetterSpacing("published by T H E P R E S S in 2004")).toBe("published by THE PRESS in 2004");
    // Not spelling words: variables, initials, grades.
    expect(collapseLetterSpacing("the points x y z w")).toBe("the points x y z w");
    expect(collapseLetterSpacing("grades A B C D")).toBe("grades A B C D");
    expect(collapseLetterSpacing("J. R. R. Tolkien")).toBe("J. R. R. Tolkien");
  });
});

describe("the English word list", () => {
  it("knows every word of its package, whatever the case asked, and nothing else", () => {
    const all = createRequire(import.meta.url)("an-array-of-english-words") as string[];
    expect(all.filter((word) => !englishWords().has(word))).toEqual([]);
    expect([...englishWords()]).toHaveLength(all.length);
    expect(["Harbour", "ESTUARY", "intermediate"].map(isEnglishWord)).toEqual([true, true, true]);
    expect(["intermedi", "xqzvw", "café", ""].map(isEnglishWord)).toEqual([false, false, false, false]);
  });
});
