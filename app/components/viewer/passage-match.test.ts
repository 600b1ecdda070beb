import { describe, expect, it } from "vitest";
import { findPassage, locatePassage, matchBlocks } from "./passage-match";

/** The characters a highlight covers, piece by piece. */
const highlighted = (pieces: string[], passage: string) => locatePassage(pieces, passage)?.map((r) => pieces[r.piece].slice(r.start, r.end)) ?? null;

describe("locating a cited passage among a page's text pieces", () => {
  it("highlights exactly the quoted characters, across the lines the text layer splits them into", () => {
    // pdf.js items of Free Culture, page 13: the quote starts mid-line and ends mid-line.
    const items = [
      "granting intellectual property rights. But it does so indirectly by limit-",
      "ing the reach of those rights, to guarantee that follow-on creators and",
      "innovators remain as free as possible from the control of the past.",
    ];
    expect(highlighted(items, "“But it does so indirectly by limiting the reach of those rights.”")).toEqual([
      "But it does so indirectly by limit-",
      "ing the reach of those rights",
    ]);
  });

  it("matches a quote whose words the chunk rejoined, whose ligatures are expanded or kept, and whose spacing and case differ", () => {
    const items = ["The ﬁrst ﬂoor of the SunSpi-", "der   benchmark runs  ", "ﬁve times faster."];
    expect(highlighted(items, "the first floor of the sunspider benchmark")).toEqual(["The ﬁrst ﬂoor of the SunSpi-", "der   benchmark"]);
    expect(highlighted(["Cafe\u0301 owners ﬁle taxes"], "CAFÉ OWNERS FILE")).toEqual(["Cafe\u0301 owners ﬁle"]);
    expect(highlighted(["ｆｕｌｌ　ｗｉｄｔｈ text"], "full width")).toEqual(["ｆｕｌｌ　ｗｉｄｔｈ"]);
  });

  it("marks the quote's own punctuation where the page has it, and no more", () => {
    const line = ["opponent's fork. Toppling over three times is also counted as defeat. If"];
    expect(highlighted(line, "Toppling over three times is also counted as defeat.")).toEqual(["Toppling over three times is also counted as defeat."]);
    expect(highlighted(line, "Toppling over three times")).toEqual(["Toppling over three times"]);
    expect(highlighted(["He said “go now.” Then"], "“Go now.”")).toEqual(["“go now.”"]);
  });

  it("tolerates a running header or a footnote mark inside the quoted span, and a cut marked with an ellipsis", () => {
    const items = [
      "Creative property has been protected since the founding, and the",
      "FREE CULTURE 14",
      "scope of that protection has grown¹ with every new technology that",
      "came along.",
    ];
    const quote = "Creative property has been protected since the founding, and the scope of that protection has grown with every new technology that came along.";
    const found = highlighted(items, quote);
    expect(found?.[0]).toBe(items[0]);
    expect(found?.at(-1)).toBe("came along.");
    expect(highlighted(items, "… protection has grown with every new technology")).toEqual(["protection has grown¹ with every new technology"]);
  });

  it("finds nothing for a passage the page does not hold, a paraphrase, or an empty quote", () => {
    const items = ["Rivers carry sediment to the sea.", "Deltas grow where rivers slow down."];
    expect(locatePassage(items, "Glaciers carve valleys into the mountains over thousands of years.")).toBeNull();
    expect(locatePassage(items, "Sediment is carried by rivers into the ocean.")).toBeNull();
    expect(locatePassage(items, "")).toBeNull();
    expect(locatePassage(items, " … ")).toBeNull();
    expect(locatePassage([], "Rivers carry sediment")).toBeNull();
  });

  it("picks the layout blocks that hold a passage, and none when no block does", () => {
    const blocks = [
      { id: "h", text: "Field - chapter 8" },
      { id: "s", text: "Field page 8 describes the umber lantern near the quartz violet" },
      { id: "p", text: "A separate paragraph that every page of Field shares." },
      { id: "n", text: "8" },
    ];
    expect(matchBlocks(blocks, "Field page 8 describes the umber lantern near the quartz violet").map((b) => b.id)).toEqual(["s"]);
    expect(matchBlocks(blocks, "the UMBER lantern, near the quartz!").map((b) => b.id)).toEqual(["s"]);
    expect(matchBlocks(blocks, "quartz violet. A separate paragraph").map((b) => b.id)).toEqual(["s", "p"]);
    expect(matchBlocks(blocks, "nothing in common here")).toEqual([]);
    expect(matchBlocks(blocks, "")).toEqual([]);
  });

  it("finds a passage in a page of plain text whatever its case and spacing", () => {
    const text = "Rivers carry\n  SEDIMENT to the sea. Deltas grow.";
    const found = findPassage(text, "rivers carry sediment");
    expect(found && text.slice(found.start, found.end)).toBe("Rivers carry\n  SEDIMENT");
    expect(findPassage(text, "glaciers")).toBeNull();
  });
});
