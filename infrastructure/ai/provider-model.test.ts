import { describe, expect, it } from "vitest";
import { APICallError } from "ai";
import { MockLanguageModelV2 } from "ai/test";
import { MarkerRewriter, ProviderModel, retryAfterMs } from "./provider-model";

const passage = (n: number, documentId: string, pageNumber: number) => ({ chunkId: `c${n}`, documentId, documentName: `${documentId}.pdf`, pageNumber, text: `Text of passage ${n}.`, score: 1 });
const PASSAGES = [passage(1, "d1", 2), passage(2, "d2", 5), passage(3, "d1", 2)];
const rewrite = (chunks: string[]) => {
  const markers = new MarkerRewriter(PASSAGES);
  const text = chunks.map((c) => markers.push(c)).join("") + markers.end();
  return { text, citations: markers.citations() };
};

describe("MarkerRewriter", () => {
  it("numbers citations by first use, so [n] is the n-th source, whatever passage number the model wrote", () => {
    const { text, citations } = rewrite(["Tea is oxidised [2]. It is ", "black [1]."]);
    expect(text).toBe("Tea is oxidised [1]. It is black [2].");
    expect(citations).toEqual([
      { documentId: "d2", pageNumber: 5, quote: "Text of passage 2." },
      { documentId: "d1", pageNumber: 2, quote: "Text of passage 1." },
    ]);
  });

  it("cites a document page once, however many of its passages a sentence names", () => {
    const { text, citations } = rewrite(["A [1][3]. B [1, 3]."]);
    expect(text).toBe("A [1]. B [1].");
    expect(citations).toHaveLength(1);
  });

  it("holds a marker split across chunks until it closes", () => {
    expect(rewrite(["Tea [", "2", "] is ", "green."]).text).toBe("Tea [1] is green.");
  });

  it("drops a marker naming a passage it was not given, with the space before it", () => {
    const { text, citations } = rewrite(["Tea is oxidised [7]. Black [", "42]", " too [1]."]);
    expect(text).toBe("Tea is oxidised. Black too [1].");
    expect(citations).toEqual([{ documentId: "d1", pageNumber: 2, quote: "Text of passage 1." }]);
  });

  it("drops document tags, lists with nothing valid and an unterminated marker", () => {
    expect(rewrite(["Tea [d1#2]. Green [9, 12]. Red [3"]).text).toBe("Tea. Green. Red");
  });

  it("expands a short range and reads 'Passage 2'", () => {
    expect(rewrite(["All [1-2]. One [Passage 2]."]).text).toBe("All [1][2]. One [2].");
  });

  it("leaves Markdown links, task boxes and other brackets alone", () => {
    expect(rewrite(["See [the guide](https://x.test) and [x] and [note]."]).text).toBe("See [the guide](https://x.test) and [x] and [note].");
  });

  it("leaves brackets inside code alone", () => {
    expect(rewrite(["Use `rows[0]` here [1].\n```\nx = a[", "2]\n```\nDone [2]."]).text).toBe("Use `rows[0]` here [1].\n```\nx = a[2]\n```\nDone [2].");
  });

  it("without passages, every marker is dropped", () => {
    const markers = new MarkerRewriter([]);
    expect(markers.push("Nothing [1].") + markers.end()).toBe("Nothing.");
    expect(markers.citations()).toEqual([]);
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

  it("summarises without citation markers", async () => {
    expect(await modelAnswering("Black tea is oxidised [1].").summarize({ passages, language: "English" })).toBe("Black tea is oxidised.");
  });

  it("rewrites a question into other search queries, one per line, without the question itself", async () => {
    const queries = await modelAnswering("1. fermentation of tea leaves\n- How is black tea made?\n\"oxidation black tea\"").alternateQueries!({ question: "How is black tea made?", history: [] });
    expect(queries).toEqual(["fermentation of tea leaves", "oxidation black tea"]);
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
