import { describe, expect, it } from "vitest";
import { judgeText } from "#infrastructure/extraction/text-quality";

const english =
  "Volunteers counted wintering waders and wildfowl on the saltmarsh on fourteen high-tide visits. " +
  "The peak count of dunlin was the highest since monitoring began, and curlew numbers fell for the third winter in a row.";

describe("whether a text layer is real language", () => {
  it("accepts English prose, and numbers and tables that say little in words", () => {
    expect(judgeText(english).readable).toBe(true);
    expect(judgeText("Dunlin | 2,380 | 9 January | 1,950\nKnot | 1,120 | 23 January | 1,410").readable).toBe(true);
    expect(judgeText("247").readable).toBe(true);
  });

  it("refuses a page of symbols (poppler's reading of a font without a text mapping), but not dot leaders", () => {
    expect(judgeText('! # $ %\n"\n! | \' | !%\n+ & ! " # $').readable).toBe(false);
    expect(judgeText('+ !\n"\n\' ! +&').readable).toBe(false);
    expect(judgeText("Contents\nIntroduction .................... 1\nMethods ......................... 4").readable).toBe(true);
  });

  it("accepts other languages written in Latin letters, and other scripts", () => {
    const german =
      "Die Freiwilligen zählten überwinternde Watvögel und Wasservögel an vierzehn Terminen bei Hochwasser. " +
      "Der Höchstwert beim Alpenstrandläufer war der höchste seit Beginn der Zählungen im Jahr 2009, der Brachvogel nahm weiter ab.";
    expect(judgeText(german).readable).toBe(true);
    const polish =
      "Wolontariusze liczyli zimujące ptaki brodzące i wodne na słonych bagnach podczas czternastu wizyt w czasie przypływu. " +
      "Szczytowa liczba biegusów zmiennych była najwyższa od początku monitoringu w 2009 roku.";
    expect(judgeText(polish).readable).toBe(true);
    expect(judgeText("志愿者在十四次涨潮时统计了越冬的涉禽和水禽。黑腹滨鹬的最高数量是自二零零九年开始监测以来最高的。").readable).toBe(true);
  });

  it("rejects a text layer of control characters, as fonts without a text mapping give", () => {
    const garbage = "\u0001\u0002\u0003\u0004\u0005\u0006\u0007\b \u0005 \u0006\u0004 \u0006 \u0005\u000e\b \u0004\u000f\u0010\u0002 \u0006\u0010\u0011\u0006";
    const judgement = judgeText(garbage);
    expect(judgement.readable).toBe(false);
    expect(judgement.badShare).toBeGreaterThan(0.5);
  });

  it("rejects replacement characters and private-use glyphs", () => {
    expect(judgeText("Th\uFFFD p\uFFFDak c\uFFFDunt \uFFFD\uFFFD dunlin w\uFFFDs th\uFFFD h\uFFFDghest").readable).toBe(false);
    expect(judgeText("\uE001\uE002\uE003 \uE004\uE005 \uE006\uE007\uE008\uE009 \uE00A\uE00B").readable).toBe(false);
  });

  it("rejects letter salad from a wrong encoding", () => {
    // The English sentence above with every letter shifted, as a font with the wrong encoding gives.
    const shifted = (by: number) =>
      english.replace(/[a-z]/gi, (ch) => {
        const base = ch <= "Z" ? 65 : 97;
        return String.fromCharCode(((ch.charCodeAt(0) - base + by) % 26) + base);
      });
    for (const by of [1, 3, 7, 13]) {
      const judgement = judgeText(shifted(by));
      expect(judgement.readable, `shifted by ${by}`).toBe(false);
      expect(judgement.trigramShare).toBeLessThan(0.75);
    }
  });
});
