import { describe, expect, it } from "vitest";
import { indexingProgress } from "./embedding-index-status";

describe("the embedding index's progress, as Workspace Settings says it", () => {
  it("says in words what is being indexed until the first document is done, never 0 of anything", () => {
    expect(indexingProgress({ done: 0, total: 1 }, "the built-in model")).toEqual({
      text: "Indexing your 1 document with the built-in model. Answers use keyword search until it finishes.",
      percent: null,
    });
    expect(indexingProgress({ done: 0, total: 0 }, "text-embedding-3-small").text).toBe("Indexing your documents with text-embedding-3-small. Answers use keyword search until it finishes.");
  });

  it("counts documents done of all once one is done", () => {
    expect(indexingProgress({ done: 2, total: 3 }, "the built-in model")).toEqual({ text: "Indexing with the built-in model: 2 of 3 documents done.", percent: 67 });
  });
});
