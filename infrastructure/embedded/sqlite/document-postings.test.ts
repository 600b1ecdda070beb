import { describe, expect, it } from "vitest";
import { decodeVarints, documentPostings, encodeVarints, rankBm25 } from "./document-postings";

describe("documentPostings", () => {
  it("lists, per analyzed term, the chunks holding it by position with their frequency, and each chunk's length", () => {
    const { lengths, terms } = documentPostings(["Payments and payment dates.", "Résumé, résumé!", ""]);
    expect(lengths).toEqual([4, 2, 0]);
    expect(terms.get("payment")).toEqual([0, 2]);
    expect(terms.get("resum")).toEqual([1, 2]);
    expect(terms.get("and")).toEqual([0, 1]);
  });
});

describe("varints", () => {
  it("round-trip small and large unsigned integers", () => {
    const values = [0, 1, 127, 128, 300, 16_383, 16_384, 2 ** 31, 2 ** 40 + 5];
    expect(decodeVarints(encodeVarints(values))).toEqual(values);
    expect(encodeVarints([5, 127]).length).toBe(2);
  });
});

describe("rankBm25", () => {
  const lengths = new Map([
    ["a", [10, 10, 10]],
    ["b", [10, 40]],
  ]);

  it("ranks by BM25 over the given chunks: rarer terms and shorter chunks weigh more, ties by document then position", () => {
    const postings = new Map([
      ["rare", new Map([["a", [1, 1]]])],
      ["common", new Map([["a", [0, 1, 1, 1, 2, 1]], ["b", [0, 1, 1, 1]]])],
    ]);
    const ranked = rankBm25({ lengths, postings }, 10);
    expect(ranked.map((r) => `${r.documentId}:${r.position}`)).toEqual(["a:1", "a:0", "a:2", "b:0", "b:1"]);
    expect(ranked[1].score).toBe(ranked[2].score);
    expect(ranked[3].score).toBeGreaterThan(ranked[4].score);
  });

  it("keeps the best `limit` and scores nothing when the scope holds no chunk", () => {
    const postings = new Map([["rare", new Map([["a", [1, 1]]])]]);
    expect(rankBm25({ lengths, postings }, 0)).toEqual([]);
    expect(rankBm25({ lengths: new Map(), postings }, 5)).toEqual([]);
  });
});
