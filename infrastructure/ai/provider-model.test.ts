import { describe, expect, it } from "vitest";
import { CitationSplitter, retryAfterMs, validatedCitations } from "./provider-model";

describe("CitationSplitter", () => {
  it("never lets the citation block reach the user, even when the marker is split across chunks", () => {
    const splitter = new CitationSplitter();
    const chunks = ["Jupiter is big.", "\n<cit", "ations>[{\"documentId\":\"d1\",", "\"pageNumber\":2}]</citations>"];
    const visible = chunks.map((c) => splitter.push(c)).join("") + splitter.end();
    expect(visible).toBe("Jupiter is big.");
    expect(splitter.citations()).toEqual([{ documentId: "d1", pageNumber: 2 }]);
  });

  it("releases held-back text that turned out not to be the marker", () => {
    const splitter = new CitationSplitter();
    const visible = ["a <c", "at> b"].map((c) => splitter.push(c)).join("") + splitter.end();
    expect(visible).toBe("a <cat> b");
  });

  it("falls back to inline [docId#page] tags when the model forgets the block", () => {
    const splitter = new CitationSplitter();
    splitter.push("Mars is red [d1#3].");
    splitter.end();
    expect(splitter.citations()).toEqual([{ documentId: "d1", pageNumber: 3 }]);
  });
});

describe("validatedCitations", () => {
  it("keeps only pairs of passages the model was given, once each", () => {
    const passages = [{ chunkId: "c", documentId: "d1", documentName: "n", pageNumber: 2, text: "t", score: 1 }];
    expect(
      validatedCitations(
        [
          { documentId: "d1", pageNumber: 2 },
          { documentId: "d1", pageNumber: 2 },
          { documentId: "d1", pageNumber: 9 },
          { documentId: "other-users-doc", pageNumber: 1 },
        ],
        passages,
      ),
    ).toEqual([{ documentId: "d1", pageNumber: 2 }]);
  });
});

describe("retryAfterMs", () => {
  it("reads retry-after-ms, retry-after seconds and dates; only for 429", () => {
    expect(retryAfterMs({ statusCode: 429, responseHeaders: { "retry-after-ms": "250" } })).toBe(250);
    expect(retryAfterMs({ statusCode: 429, responseHeaders: { "Retry-After": "3" } })).toBe(3000);
    expect(retryAfterMs({ statusCode: 429, responseHeaders: { "retry-after": new Date(Date.now() + 5000).toUTCString() } })).toBeGreaterThan(3000);
    expect(retryAfterMs({ statusCode: 500, responseHeaders: { "retry-after": "3" } })).toBeNull();
  });
});
