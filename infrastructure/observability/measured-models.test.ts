import { describe, expect, it } from "vitest";
import type { AnswerEvent, LanguageModel } from "#application/ports/language-model";
import { noMetrics, type OperationsMetrics } from "#application/ports/metrics";
import { measuredModel, providerOf } from "./measured-models";

function recorder() {
  const calls: { answers: unknown[][]; errors: unknown[][]; warnings: unknown[] } = { answers: [], errors: [], warnings: [] };
  const metrics: OperationsMetrics = {
    ...noMetrics,
    answerStreamed: (...args) => void calls.answers.push(args),
    providerError: (...args) => void calls.errors.push(args),
  };
  const logger = { warn: (fields: unknown) => void calls.warnings.push(fields) } as never;
  return { metrics, logger, calls };
}

function model(id: string, events: AnswerEvent[], failAfter?: number): LanguageModel {
  return {
    id,
    label: id,
    capabilities: { images: false, generative: true },
    async *streamAnswer() {
      for (const [index, event] of events.entries()) {
        if (index === failAfter) throw new Error("provider went away");
        yield event;
      }
    },
    summarize: async () => Promise.reject(new Error("429")),
    suggestQuestions: async () => [],
  };
}

const done: AnswerEvent = { type: "done", citations: [], usage: { inputTokens: 1, outputTokens: 1 } } as AnswerEvent;

describe("answers measured by provider", () => {
  it("names the provider from the model id, and the built-in model as built-in", () => {
    expect(providerOf("openai:gpt-4o-mini")).toBe("openai");
    expect(providerOf("docuchat-extractive")).toBe("built-in");
  });

  it("times the first token and the whole answer, and passes every event on", async () => {
    const { metrics, logger, calls } = recorder();
    const seen: AnswerEvent[] = [];
    for await (const event of measuredModel(model("anthropic:claude", [{ type: "text", text: "Hi" }, done]), metrics, logger).streamAnswer({} as never)) seen.push(event);
    expect(seen).toHaveLength(2);
    expect(calls.answers).toEqual([["anthropic", "completed", expect.any(Number), expect.any(Number)]]);
    expect(calls.errors).toEqual([]);
  });

  it("counts a completed answer when its reader stops at the final event, as the conversation does", async () => {
    const { metrics, logger, calls } = recorder();
    for await (const event of measuredModel(model("openai:gpt", [{ type: "text", text: "Hi" }, done]), metrics, logger).streamAnswer({} as never)) {
      if (event.type === "done") break;
    }
    expect(calls.answers).toEqual([["openai", "completed", expect.any(Number), expect.any(Number)]]);
  });

  it("counts and logs a provider that fails mid-answer, or on a summary, as a provider error", async () => {
    const { metrics, logger, calls } = recorder();
    const measured = measuredModel(model("openai:gpt", [{ type: "text", text: "Hi" }, done], 1), metrics, logger);
    await expect(async () => {
      for await (const _ of measured.streamAnswer({} as never)) void _;
    }).rejects.toThrow("provider went away");
    await expect(measured.summarize({ passages: [], language: "English" })).rejects.toThrow("429");
    expect(calls.answers).toEqual([["openai", "failed", expect.any(Number), expect.any(Number)]]);
    expect(calls.errors).toEqual([["openai", "answer"], ["openai", "summary"]]);
    // Logged at warn for the operator, without the error's message (a provider's may quote the request and its key).
    expect(calls.warnings).toEqual([
      { provider: "openai", operation: "answer", status: undefined, error: "Error" },
      { provider: "openai", operation: "summary", status: undefined, error: "Error" },
    ]);
  });
});

describe("a measured model keeps what the model offers", () => {
  it("passes a question's rewrite on when the model rewrites, and offers none when it does not", async () => {
    const { metrics, logger } = recorder();
    const rewriting: LanguageModel = { ...model("openai:gpt-4o-mini", [done]), alternateQueries: async ({ question }) => [`${question} (reworded)`] };
    const measured = measuredModel(rewriting, metrics, logger);
    expect(await measured.alternateQueries?.({ question: "peak counts", history: [] })).toEqual(["peak counts (reworded)"]);
    expect(measuredModel(model("docuchat-extractive", [done]), metrics, logger).alternateQueries).toBeUndefined();
  });
});
