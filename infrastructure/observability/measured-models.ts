import type { Logger } from "pino";
import type { AnswerEvent, AnswerInput, LanguageModel } from "#application/ports/language-model";
import type { OperationsMetrics } from "#application/ports/metrics";
import type { Embedder, ModelProviders, ProviderKeyset } from "#application/ports/model-providers";

/** The provider part of a model id ("openai:gpt-4o" -> "openai"); the built-in model's id has none. */
export const providerOf = (modelId: string): string => (modelId.includes(":") ? modelId.slice(0, modelId.indexOf(":")) : "built-in");

type WarnLogger = Pick<Logger, "warn">;

/** A provider's call failed: counted, and logged at warn (users see it), without the error's message, which may quote the request and its key. */
function providerFailed(metrics: OperationsMetrics, logger: WarnLogger, provider: string, operation: string, error: unknown): void {
  metrics.providerError(provider, operation);
  const status = typeof error === "object" && error !== null && "statusCode" in error ? Number(error.statusCode) || undefined : undefined;
  logger.warn({ provider, operation, status, error: error instanceof Error ? error.name : typeof error }, "model provider failed");
}

/** A language model whose answers are timed (first token, whole answer) and whose failures are counted and logged, by provider. */
export function measuredModel(model: LanguageModel, metrics: OperationsMetrics, logger: WarnLogger): LanguageModel {
  const provider = providerOf(model.id);
  const counted = <T>(operation: string, call: () => Promise<T>) =>
    call().catch((error: unknown) => {
      providerFailed(metrics, logger, provider, operation, error);
      throw error;
    });
  return {
    id: model.id,
    label: model.label,
    capabilities: model.capabilities,
    async *streamAnswer(input: AnswerInput, signal?: AbortSignal): AsyncIterable<AnswerEvent> {
      const started = performance.now();
      let firstToken: number | null = null;
      const seconds = (since: number) => (performance.now() - since) / 1000;
      try {
        for await (const event of model.streamAnswer(input, signal)) {
          if (event.type === "text" && firstToken === null) firstToken = seconds(started);
          // Before passing it on: a reader stops at the final event, and nothing after this yield would run.
          if (event.type === "done") metrics.answerStreamed(provider, "completed", firstToken, seconds(started));
          yield event;
        }
      } catch (error) {
        // A reader who closed the page is not the provider's failure.
        if (!signal?.aborted) {
          providerFailed(metrics, logger, provider, "answer", error);
          metrics.answerStreamed(provider, "failed", firstToken, seconds(started));
        }
        throw error;
      }
    },
    summarize: (input) => counted("summary", () => model.summarize(input)),
    suggestQuestions: (input) => counted("suggestions", () => model.suggestQuestions(input)),
    // Only a model that rewrites questions offers it: the caller asks generative models that have it.
    ...(model.alternateQueries
      ? { alternateQueries: (input: Parameters<NonNullable<LanguageModel["alternateQueries"]>>[0], signal?: AbortSignal) => counted("rewrite", () => model.alternateQueries!(input, signal)) }
      : {}),
  };
}

/** The provider registry with every language model and embedder it builds measured. */
export function measuredProviders(providers: ModelProviders, metrics: OperationsMetrics, logger: WarnLogger): ModelProviders {
  return {
    validate: (keyset) => providers.validate(keyset),
    languageModel: (keyset: ProviderKeyset, model: string) => measuredModel(providers.languageModel(keyset, model), metrics, logger),
    embedder: (keyset: ProviderKeyset, model: string): Embedder => {
      const embedder = providers.embedder(keyset, model);
      return {
        id: embedder.id,
        embed: (texts, signal) =>
          embedder.embed(texts, signal).catch((error: unknown) => {
            if (!signal?.aborted) providerFailed(metrics, logger, providerOf(embedder.id), "embedding", error);
            throw error;
          }),
      };
    },
    embeddingModels: (keyset, listed) => providers.embeddingModels(keyset, listed),
    transcriber: (keyset, model) => providers.transcriber(keyset, model),
    transcriptionModels: (keyset, listed) => providers.transcriptionModels(keyset, listed),
  };
}
