import type { LanguageModel } from "./language-model";
import type { Transcriber } from "./speech";

/**
 * The port between keysets (identity context) and the AI providers
 * (infrastructure/ai): check a key, list a provider's models, and build a
 * LanguageModel or an Embedder for a keyset. The API key is handed over in
 * clear only here, in memory, for the duration of a call.
 */
export interface ProviderKeyset {
  keysetId: string;
  provider: string;
  subProvider: string;
  endpoint: string | null;
  model: string | null;
  apiKey: string;
}

/** Turns texts into dense vectors with one provider model (workspace embedding preference). */
export interface Embedder {
  /** "<provider lower-case>:<model>", like LanguageModel ids. */
  readonly id: string;
  /** One vector per text, in order. Throws a DomainError with a readable reason (refused key, rate limit, unknown model, unreachable). */
  embed(texts: string[], signal?: AbortSignal): Promise<number[][]>;
}

export interface ModelProviders {
  /**
   * Checks the key against the provider with a cheap call (a model list, or a
   * one-token completion where the provider has no list) and answers the
   * models it offers. Throws a DomainError with a readable reason.
   */
  validate(keyset: ProviderKeyset): Promise<{ models: string[] }>;
  /** The chat model `model` of the keyset (calls go through the egress rules). */
  languageModel(keyset: ProviderKeyset, model: string): LanguageModel;
  /**
   * The embedding model `model` of the keyset (calls go through the egress
   * rules). Throws PROVIDER_MODEL_NOT_FOUND for a provider that offers no
   * embedding models (Anthropic, Deepseek, …).
   */
  embedder(keyset: ProviderKeyset, model: string): Embedder;
  /**
   * Which models of the keyset embed (for the Workspace Settings picker): the
   * listed ones that look like embedding models, plus the provider's
   * well-known ones its model list leaves out; sorted, [] for a provider
   * without embedding models.
   */
  embeddingModels(keyset: Pick<ProviderKeyset, "provider" | "subProvider">, listed: string[]): string[];
  /**
   * The transcription model `model` of the keyset (calls go through the egress
   * rules). Throws PROVIDER_MODEL_NOT_FOUND for a provider without one.
   */
  transcriber(keyset: ProviderKeyset, model: string): Transcriber;
  /** Which models of the keyset transcribe (the upload's and Chat Settings' transcription picker); [] for a provider without them. */
  transcriptionModels(keyset: Pick<ProviderKeyset, "provider" | "subProvider">, listed: string[]): string[];
}
