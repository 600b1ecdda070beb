import { describe, expect, it } from "vitest";
import { APICallError } from "ai";
import { MockLanguageModelV2 } from "ai/test";
import { CitationSplitter, ProviderModel, retryAfterMs, validatedCitations } from "./provider-model";

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

describe("ProviderModel summaries and suggested questions", () => {
  const passages = [{ chunkId: "c", documentId: "d1", documentName: "tea.txt", pageNumber: 1, text: "Black tea is fully oxidised.", score: 1 }];
  const modelAnswering = (text: string) =>
    new ProviderModel({
      id: "openai:gpt-4o-mini",
      label: "gpt-4o-mini",
      model: new MockLanguageModelV2({
        doGenerate: async () => ({
          content: [{ type: "text", text }],
          finishReason: "stop",
          usage: { inputTokens: 10, outputTokens: 5, totalTokens: 15 },
          warnings: [],
        }),
      }),
    });

  it("summarises without citation tags", async () => {
    expect(await modelAnswering("Black tea is oxidised [d1#1].\n<citations>[]</citations>").summarize({ passages, language: "English" })).toBe("Black tea is oxidised.");
  });

  it("suggests distinct questions, one per line, without numbering", async () => {
    const questions = await modelAnswering("1. Is black tea oxidised?\n- Is black tea oxidised?\nWhat is oxidation?\nNot a question").suggestQuestions({ passages, count: 5 });
    expect(questions).toEqual(["Is black tea oxidised?", "What is oxidation?"]);
  });

  it("turns a provider failure into a readable error", async () => {
    const failing = new ProviderModel({
      id: "x",
      label: "x",
      model: new MockLanguageModelV2({
        doGenerate: async () => {
          throw new APICallError({ message: "nope", url: "u", requestBodyValues: {}, statusCode: 401, isRetryable: false });
        },
      }),
    });
    await expect(failing.summarize({ passages, language: "English" })).rejects.toMatchObject({ code: "PROVIDER_KEY_REFUSED" });
  });
});
