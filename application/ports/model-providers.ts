import type { LanguageModel } from "./language-model";

/**
 * The port between keysets (identity context) and the AI providers
 * (infrastructure/ai): check a key, list a provider's models, and build a
 * LanguageModel for a keyset. The API key is handed over in clear only here,
 * in memory, for the duration of a call.
 */
export interface ProviderKeyset {
  keysetId: string;
  provider: string;
  subProvider: string;
  endpoint: string | null;
  model: string | null;
  apiKey: string;
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
}
