import { describe, expect, it } from "vitest";
import { openDatabase } from "#infrastructure/embedded/sqlite/open-database";
import { porterStem } from "#application/shared/porter-stemmer";
import { analyzeTerm } from "#application/shared/text-analysis";
import { analyzedQueryTerms, indexTerms, queryTerms } from "./terms";

/** The terms SQLite's FTS5 (the embedded index's tokenizer) stores for each text, in order. */
function fts5Terms(texts: string[]): string[][] {
  const db = openDatabase(":memory:");
  try {
    db.exec(`CREATE VIRTUAL TABLE t USING fts5 (x, tokenize = 'porter unicode61 remove_diacritics 2');
             CREATE VIRTUAL TABLE v USING fts5vocab (t, 'instance');`);
    const insert = db.prepare("INSERT INTO t (rowid, x) VALUES (?, ?)");
    db.transaction(() => texts.forEach((text, i) => insert.run(i + 1, text)))();
    const rows = db.prepare("SELECT doc, term FROM v ORDER BY doc, offset").all() as { doc: number; term: string }[];
    return texts.map((_, i) => rows.filter((row) => row.doc === i + 1).map((row) => row.term));
  } finally {
    db.close();
  }
}

// Stems and every suffix the Porter steps know (plus plurals and -ing/-ed forms), crossed.
const STEMS = ["gener", "relat", "condit", "hope", "form", "electr", "sens", "adjust", "depend", "activ", "roll", "fizz", "hop", "tan", "fil", "agree", "motor", "happ", "sky", "troubl", "siz", "conflat", "oscill", "nation", "organ", "digit", "analog", "predic", "feud", "decis", "triplic", "reviv", "allow", "infer", "defens", "irrit", "replac", "adopt", "angular", "effect", "prob", "ceas", "y", "by", "syzyg", "ab", "a"];
const SUFFIXES = ["", "s", "es", "ies", "sses", "ss", "ed", "eed", "ing", "ly", "y", "ational", "tional", "enci", "anci", "izer", "logi", "bli", "alli", "entli", "eli", "ousli", "ization", "ation", "ator", "alism", "iveness", "fulness", "ousness", "aliti", "iviti", "biliti", "icate", "ative", "alize", "iciti", "ical", "ful", "ness", "al", "ance", "ence", "er", "ic", "able", "ible", "ant", "ement", "ment", "ent", "ion", "sion", "tion", "ou", "ism", "ate", "iti", "ous", "ive", "ize", "e", "le", "ll", "ings", "ations", "at", "bl", "iz", "ated", "bled", "izing", "ying", "yed"];

describe("porterStem", () => {
  it("stems exactly like FTS5's porter tokenizer, suffix rule by suffix rule", () => {
    const words = STEMS.flatMap((stem) => SUFFIXES.map((suffix) => stem + suffix));
    const expected = fts5Terms(words).map((terms) => terms[0]);
    const mismatches = words.filter((word, i) => porterStem(word) !== expected[i]).map((word) => `${word}: ${porterStem(word)}`);
    expect(mismatches).toEqual([]);
    expect(words.length).toBeGreaterThan(3000);
  });

  it("gives Porter's textbook results", () => {
    const cases: Record<string, string> = {
      caresses: "caress",
      ponies: "poni",
      agreed: "agre",
      hopping: "hop",
      filing: "file",
      happy: "happi",
      relational: "relat",
      generalizations: "gener",
      payments: "payment",
      terminated: "termin",
      termination: "termin",
    };
    for (const [word, stem] of Object.entries(cases)) expect(porterStem(word), word).toBe(stem);
  });

  it("leaves short, long and non-Latin tokens alone", () => {
    expect(porterStem("is")).toBe("is");
    expect(porterStem("x".repeat(65) + "ing")).toBe("x".repeat(65) + "ing");
    expect(porterStem("ελληνικά")).toBe("ελληνικά");
    expect(porterStem("日本語")).toBe("日本語");
  });
});

describe("indexTerms", () => {
  it("produces the terms FTS5 indexes for Latin-script text: case, diacritics, stemming, separators", () => {
    const texts = [
      "Attach your Résumé to the APPLICATION; payments were terminated.",
      "Ångström, Łódź, Ça va, señor, Tiếng Việt, ÀÉÎÕÜ, İstanbul.",
      "cafe\u0301s and naïves",
      "don't e-mail foo_bar x2024s 3rd a1b2 ½ Ⅻ",
      'NEAR(a b) "x" col:y -z * ^w',
    ];
    const expected = fts5Terms(texts);
    texts.forEach((text, i) => expect(indexTerms(text), text).toEqual(expected[i]));
  });

  it("keeps repeats and order (term frequencies come from them)", () => {
    expect(indexTerms("Payment due; payments DUE.")).toEqual(["payment", "due", "payment", "due"]);
  });

  it("keeps non-Latin words whole and their marks (where FTS5 splits some scripts, both sides of this index agree)", () => {
    expect(indexTerms("Ελληνικά 日本語のテキスト हिन्दी")).toEqual(["ελληνικά", "日本語のテキスト", "हिन्दी"]);
  });
});

describe("query terms", () => {
  it("are the distinct terms, capped, and analyze to what indexing stores", () => {
    expect(queryTerms("Payment due, payment DUE!")).toEqual(["payment", "due"]);
    expect(queryTerms(Array.from({ length: 100 }, (_, i) => `w${i}`).join(" "))).toHaveLength(32);
    expect(analyzedQueryTerms("Payments paid, PAYMENT terminating résumé")).toEqual(["payment", "paid", "termin", "resum"]);
    for (const word of ["Payments", "TERMINATING", "Résumé", "Ελληνικά", "naïve"]) {
      expect(analyzedQueryTerms(word)).toEqual(indexTerms(word));
    }
    expect(analyzeTerm("payments")).toBe("payment");
  });

  it("drop everything that is not a letter or digit", () => {
    expect(analyzedQueryTerms(' "*:-()^ ')).toEqual([]);
    expect(analyzedQueryTerms("\u0000payment 💸")).toEqual(["payment"]);
  });
});
