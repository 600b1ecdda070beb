import type { AnswerEvent, AnswerInput, ChatTurn, LanguageModel, Passage } from "#application/ports/language-model";
import type { Embedder, ModelProviders, ProviderKeyset } from "#application/ports/model-providers";
import type { ProductEmbedder, ProductKeyset } from "#application/ports/product-keyset";
import { BUILT_IN_KEYSET } from "#domain/workspace/workspace";
import { DomainError, RetryLater } from "#domain/shared/domain-error";
import type { ProductKeysetConfig, ProductModelConfig } from "#infrastructure/config/config";
import { providerError } from "./provider-model";

/**
 * Builds the product's keyset from the operator's configuration
 * (docs/decisions/190): each configured scope is a provider model built like
 * a user's keyset's (same registry, so every call goes through the egress
 * rules), wrapped so that its failures speak of the product rather than of a
 * key the user could fix, with a bounded wait for the first token and, where
 * the operator allowed it, the offline model answering instead.
 */
export function createProductKeyset(options: {
  name: string;
  config: ProductKeysetConfig;
  providers: ModelProviders;
  offline: LanguageModel;
  offlineEmbedder: (Embedder & { label?: string }) | null;
  offlineEmbeddingModel: string;
}): ProductKeyset {
  const { config, providers, offline, name } = options;
  const operated = (scope: ProductModelConfig | null) =>
    scope
      ? new OperatedModel({ name, label: scope.model, inner: providers.languageModel(keysetOf(scope), scope.model), offline: config.offlineFallback ? offline : null, timeoutMs: config.timeoutMs })
      : offline;
  const text = operated(config.text);
  const embedders: ProductEmbedder[] = [];
  if (config.embedding) {
    embedders.push({ model: config.embedding.model, label: config.embedding.model, embedder: providers.embedder(keysetOf(config.embedding), config.embedding.model) });
  }
  if (options.offlineEmbedder) {
    embedders.push({ model: options.offlineEmbeddingModel, label: options.offlineEmbedder.label ?? options.offlineEmbeddingModel, embedder: options.offlineEmbedder });
  }
  return {
    name,
    operated: config.text !== null,
    text,
    image: config.image ? operated(config.image) : text,
    offline,
    embedders,
  };
}

const keysetOf = (scope: ProductModelConfig): ProviderKeyset => ({
  keysetId: BUILT_IN_KEYSET,
  provider: scope.provider,
  subProvider: scope.subProvider,
  endpoint: scope.endpoint,
  model: scope.model,
  apiKey: scope.apiKey,
});

class FirstTokenTimeout extends Error {
  constructor() {
    super("first token timeout");
  }
}

/** An operator's model behind the product's name: readable failures, a bounded wait, the offline stand-in when allowed. */
export class OperatedModel implements LanguageModel {
  readonly id: string;
  readonly label: string;
  readonly capabilities: LanguageModel["capabilities"];
  private readonly inner: LanguageModel;
  private readonly name: string;
  private readonly offline: LanguageModel | null;
  private readonly timeoutMs: number;

  /** `label`: what the pickers show after the product's name (the configured model's name). */
  constructor(options: { name: string; label: string; inner: LanguageModel; offline: LanguageModel | null; timeoutMs: number }) {
    this.inner = options.inner;
    this.name = options.name;
    this.offline = options.offline;
    this.timeoutMs = options.timeoutMs;
    this.id = options.inner.id;
    this.label = options.label;
    this.capabilities = options.inner.capabilities;
  }

  async *streamAnswer(input: AnswerInput, signal?: AbortSignal): AsyncIterable<AnswerEvent> {
    const waiting = new AbortController();
    const timer = setTimeout(() => waiting.abort(new FirstTokenTimeout()), this.timeoutMs);
    let started = false;
    try {
      for await (const event of this.inner.streamAnswer(input, signal ? AbortSignal.any([signal, waiting.signal]) : waiting.signal)) {
        if (!started) clearTimeout(timer);
        started = true;
        yield event;
      }
      return;
    } catch (error) {
      if (signal?.aborted) throw error;
      const reason = waiting.signal.aborted && !started ? "did not start answering in time" : failure(error, started);
      // Half an answer cannot be finished by another model: only a provider that never started is stood in for.
      if (!started && this.offline) {
        yield { type: "text", text: `*${this.name}'s model ${reason}, so this answer quotes your documents with the offline model.*\n\n` };
        for await (const event of this.offline.streamAnswer(input, signal)) yield event.type === "done" ? { ...event, answeredBy: this.offline.id } : event;
        return;
      }
      throw productFailure(error, `${this.name}'s model ${reason}. ${started ? "Please regenerate the answer" : "Please try again in a moment"}, or answer with your own provider key (Chat Settings).`, {
        started,
        timedOut: waiting.signal.aborted && !started,
      });
    } finally {
      clearTimeout(timer);
    }
  }

  summarize(input: { passages: Passage[]; language: string }): Promise<string> {
    return this.inner.summarize(input);
  }

  suggestQuestions(input: { passages: Passage[]; count: number; language?: string }): Promise<string[]> {
    return this.inner.suggestQuestions(input);
  }

  alternateQueries(input: { question: string; history: ChatTurn[] }, signal?: AbortSignal): Promise<string[]> {
    return this.inner.alternateQueries?.(input, signal) ?? Promise.resolve([]);
  }
}

/**
 * The operator's failure as a server error (issue 44 item 4): whatever the
 * provider said (a refused key, an unknown model, an unreachable server) is
 * the operator's to fix, never the user's, so it is not a client error.
 */
function productFailure(error: unknown, message: string, at: { started: boolean; timedOut: boolean }): DomainError {
  if (at.timedOut) return new DomainError("PROVIDER_TIMEOUT", message);
  const cause = providerError(error, at.started);
  if (cause instanceof RetryLater) return new RetryLater("PROVIDER_OVERLOADED", message, cause.retryAfterSeconds);
  return new DomainError(at.started ? "PROVIDER_STREAM_CUT" : "PROVIDER_ERROR", message);
}

/** What went wrong, in words that blame neither the user nor a key they could change. */
function failure(error: unknown, started: boolean): string {
  const code = error instanceof DomainError ? error.code : providerError(error, started).code;
  switch (code) {
    case "PROVIDER_KEY_REFUSED":
      return "is not available (its provider refused the server's key)";
    case "PROVIDER_RATE_LIMITED":
      return "is busy (its provider is limiting requests)";
    case "PROVIDER_UNREACHABLE":
      return "could not be reached";
    case "PROVIDER_MODEL_NOT_FOUND":
      return "is not available (its provider does not know the configured model)";
    case "PROVIDER_STREAM_CUT":
      return "stopped in the middle of the answer";
    default:
      return started ? "stopped in the middle of the answer" : "could not answer";
  }
}
