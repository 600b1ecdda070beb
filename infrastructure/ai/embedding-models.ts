import { APICallError, type EmbeddingModel, embedMany } from "ai";
import type { Embedder, ProviderKeyset } from "#application/ports/model-providers";
import { DomainError } from "#domain/shared/domain-error";
import type { FetchFunction } from "./egress-fetch";
import { providerError, retryAfterMs } from "./provider-model";

export type SdkEmbeddingModel = Exclude<EmbeddingModel<string>, string>;

/**
 * Embedding models: which providers have them, which model names are
 * embedding models (for the Workspace Settings picker), and the Embedder
 * behind the port.
 */

/** Provider, or provider/sub-provider, with an embeddings API this registry speaks. */
const EMBEDDING_PROVIDERS = new Set(["OpenAI", "Google", "Mistral", "Cohere", "OpenAI-compatible", "AWS/Cohere", "Azure/OpenAI", "Azure/Cohere"]);

/** Embedding models the provider's model list leaves out (Google lists generateContent models, Cohere asks for chat ones), or that most keys can use. */
export const STATIC_EMBEDDING_MODELS: Record<string, string[]> = {
  OpenAI: ["text-embedding-3-large", "text-embedding-3-small"],
  Google: ["gemini-embedding-001", "text-embedding-004"],
  Mistral: ["mistral-embed"],
  Cohere: ["embed-english-v3.0", "embed-multilingual-v3.0"],
  "AWS/Cohere": ["cohere.embed-english-v3", "cohere.embed-multilingual-v3"],
};

/** Cohere's limit per request, and so ours for every provider. */
const MAX_TEXTS_PER_CALL = 96;

/**
 * Names of embedding models: /embed/ covers OpenAI and Google
 * text-embedding-*, embedding-001, gemini-embedding-*, mistral-embed,
 * Cohere embed-*, Bedrock cohere.embed-* and amazon.titan-embed-*, Ollama's
 * nomic-embed-text, mxbai-embed-large and snowflake-arctic-embed; the rest
 * are the common open ones (all-minilm, bge-*, gte-*, e5-*). Rerankers are not.
 */
const EMBEDDING_NAME = /embed|all-minilm|(^|[/:._-])(bge|gte|e5)-/i;
const NOT_EMBEDDING = /rerank/i;

export function offersEmbeddings(provider: string, subProvider: string): boolean {
  return EMBEDDING_PROVIDERS.has(provider) || EMBEDDING_PROVIDERS.has(`${provider}/${subProvider}`);
}

/** Whether `model` of `provider` is an embedding model (by its name). */
export function isEmbeddingModel(provider: string, model: string): boolean {
  const providerEmbeds = [...EMBEDDING_PROVIDERS].some((p) => p === provider || p.startsWith(`${provider}/`));
  return providerEmbeds && EMBEDDING_NAME.test(model) && !NOT_EMBEDDING.test(model);
}

/** The listed embedding models of a keyset plus its provider's well-known ones, sorted; [] for a provider without embeddings. */
export function embeddingModelsFor(keyset: Pick<ProviderKeyset, "provider" | "subProvider">, listed: string[]): string[] {
  if (!offersEmbeddings(keyset.provider, keyset.subProvider)) return [];
  const known = STATIC_EMBEDDING_MODELS[`${keyset.provider}/${keyset.subProvider}`] ?? STATIC_EMBEDDING_MODELS[keyset.provider] ?? [];
  return [...new Set([...listed.filter((model) => isEmbeddingModel(keyset.provider, model)), ...known])].sort();
}

export function noEmbeddingModels(keyset: Pick<ProviderKeyset, "provider" | "subProvider">): DomainError {
  const name = keyset.subProvider && keyset.subProvider !== keyset.provider ? `${keyset.provider} ${keyset.subProvider}` : keyset.provider;
  return new DomainError("PROVIDER_MODEL_NOT_FOUND", `${name} offers no embedding models. Choose another keyset for embeddings.`);
}

export interface ProviderEmbedderOptions {
  id: string;
  model: SdkEmbeddingModel;
  /** Waits before the one retry after a 429; tests shorten it. */
  sleep?: (ms: number) => Promise<void>;
  /** Longest retry-after honoured for the one retry (default 20 s). */
  maxRetryAfterMs?: number;
}

/**
 * A provider embedding model (through the ai SDK) behind the Embedder port.
 * Texts go out in batches of at most 96 (the SDK splits further where a
 * model takes fewer per call); a batch answered 429 is retried once after
 * its retry-after, like a chat answer. Failures become readable DomainErrors.
 */
export class ProviderEmbedder implements Embedder {
  readonly id: string;
  private readonly model: SdkEmbeddingModel;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly maxRetryAfterMs: number;

  constructor(options: ProviderEmbedderOptions) {
    this.id = options.id;
    this.model = options.model;
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
    this.maxRetryAfterMs = options.maxRetryAfterMs ?? 20_000;
  }

  async embed(texts: string[], signal?: AbortSignal): Promise<number[][]> {
    const vectors: number[][] = [];
    for (let start = 0; start < texts.length; start += MAX_TEXTS_PER_CALL) {
      vectors.push(...(await this.batch(texts.slice(start, start + MAX_TEXTS_PER_CALL), signal)));
    }
    return vectors;
  }

  private async batch(values: string[], signal?: AbortSignal): Promise<number[][]> {
    for (let attempt = 1; ; attempt++) {
      try {
        // Models that take one text per call (Bedrock Titan) get a few calls at a time, not 96.
        const { embeddings } = await embedMany({ model: this.model, values, maxRetries: 0, maxParallelCalls: 8, abortSignal: signal });
        if (embeddings.length !== values.length) {
          throw new DomainError("PROVIDER_ERROR", `The provider answered ${embeddings.length} vectors for ${values.length} texts.`);
        }
        return embeddings;
      } catch (error) {
        if (signal?.aborted) throw signal.reason ?? error;
        const wait = retryAfterMs(error);
        if (attempt === 1 && wait !== null && wait <= this.maxRetryAfterMs) {
          await this.sleep(wait);
          continue;
        }
        const failure = providerError(error);
        if (failure.code === "PROVIDER_MODEL_NOT_FOUND") {
          throw new DomainError("PROVIDER_MODEL_NOT_FOUND", "The provider does not know this embedding model (or endpoint). Check the embedding model in Workspace Settings.");
        }
        throw failure;
      }
    }
  }
}

/**
 * Cohere Embed on Bedrock (cohere.embed-*). The installed SDK's Bedrock
 * embedding model sends Titan's body ({inputText}) to every model, which
 * Cohere refuses as malformed (vercel/ai#5055); this one sends Cohere's
 * ({texts, input_type}) and reads {embeddings}, through the SDK model's own
 * signed fetch (SigV4 or API key) and base URL, so auth and egress stay the
 * SDK's. Titan models keep the SDK model.
 */
export function bedrockEmbeddingModel(sdkModel: SdkEmbeddingModel): SdkEmbeddingModel {
  if (!/cohere\.embed/i.test(sdkModel.modelId)) return sdkModel;
  const config = (sdkModel as unknown as { config?: BedrockConfig }).config;
  if (typeof config?.baseUrl !== "function" || typeof config.fetch !== "function") {
    throw new DomainError("PROVIDER_ERROR", "This server cannot call Cohere embedding models on AWS Bedrock.");
  }
  return new BedrockCohereEmbeddingModel(sdkModel.modelId, config as Required<BedrockConfig>);
}

interface BedrockConfig {
  baseUrl?: () => string;
  headers?: () => Record<string, string | undefined> | PromiseLike<Record<string, string | undefined>>;
  fetch?: FetchFunction;
}

class BedrockCohereEmbeddingModel implements SdkEmbeddingModel {
  readonly specificationVersion = "v2";
  readonly provider = "amazon-bedrock";
  readonly maxEmbeddingsPerCall = MAX_TEXTS_PER_CALL;
  readonly supportsParallelCalls = true;

  constructor(
    readonly modelId: string,
    private readonly config: Required<BedrockConfig>,
  ) {}

  async doEmbed({ values, abortSignal, headers }: Parameters<SdkEmbeddingModel["doEmbed"]>[0]) {
    const url = `${this.config.baseUrl()}/model/${encodeURIComponent(this.modelId)}/invoke`;
    // search_query: what the SDK sends to Cohere directly, so both give the same vectors.
    const body = { texts: values, input_type: "search_query", truncate: "END" };
    const merged = { ...(await this.config.headers?.()), ...headers, "content-type": "application/json", accept: "application/json" };
    const response = await this.config.fetch(url, {
      method: "POST",
      headers: Object.fromEntries(Object.entries(merged).filter((entry): entry is [string, string] => entry[1] !== undefined)),
      body: JSON.stringify(body),
      signal: abortSignal,
    });
    const text = await response.text();
    if (!response.ok) {
      throw new APICallError({
        message: `Bedrock answered HTTP ${response.status}`,
        url,
        requestBodyValues: { texts: values.length },
        statusCode: response.status,
        responseHeaders: Object.fromEntries(response.headers),
        responseBody: text.slice(0, 2000),
        isRetryable: response.status === 429 || response.status >= 500,
      });
    }
    // Without embedding_types Bedrock answers {embeddings: number[][]}; with them, {embeddings: {float: number[][]}}.
    let parsed: { embeddings?: unknown } | null = null;
    try {
      parsed = JSON.parse(text) as { embeddings?: unknown };
    } catch {
      // reported below
    }
    const raw = parsed?.embeddings;
    const embeddings = Array.isArray(raw) ? raw : (raw as { float?: unknown } | undefined)?.float;
    if (!Array.isArray(embeddings) || !embeddings.every((v) => Array.isArray(v) && v.every((n) => typeof n === "number"))) {
      throw new DomainError("PROVIDER_ERROR", "The provider answered the embedding request with something unexpected.");
    }
    return { embeddings: embeddings as number[][] };
  }
}
