import { createAmazonBedrock } from "@ai-sdk/amazon-bedrock";
import { createAnthropic } from "@ai-sdk/anthropic";
import { createAzure } from "@ai-sdk/azure";
import { createCohere } from "@ai-sdk/cohere";
import { createDeepSeek } from "@ai-sdk/deepseek";
import { createGoogleGenerativeAI } from "@ai-sdk/google";
import { createMistral } from "@ai-sdk/mistral";
import { createOpenAI } from "@ai-sdk/openai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import type { LanguageModel as SdkLanguageModel } from "ai";
import { generateText } from "ai";

type SdkModel = Exclude<SdkLanguageModel, string>;
import type { Egress } from "#application/ports/egress";
import type { LanguageModel } from "#application/ports/language-model";
import type { Embedder, ModelProviders, ProviderKeyset } from "#application/ports/model-providers";
import { DomainError } from "#domain/shared/domain-error";
import { egressFetch, type FetchFunction } from "./egress-fetch";
import { bedrockEmbeddingModel, embeddingModelsFor, noEmbeddingModels, offersEmbeddings, ProviderEmbedder, type SdkEmbeddingModel } from "./embedding-models";
import { ProviderModel, providerError } from "./provider-model";
import { noTranscriptionModels, offersTranscription, ProviderTranscriber, type SdkTranscriptionModel, transcriptionModelsFor } from "./transcription-models";
import type { Transcriber } from "#application/ports/speech";

/**
 * Keysets -> ai SDK providers. Every provider factory gets the egress-backed
 * `fetch`, so each HTTP call (chat, embeddings, model list, validation)
 * follows the egress rules. `baseUrls` replaces a provider's public address
 * (tests point them at local servers that replay each provider's wire
 * format).
 */

type ProviderName = "OpenAI" | "Anthropic" | "Google" | "Mistral" | "Cohere" | "Deepseek" | "AWS";

export const DEFAULT_BASE_URLS: Record<ProviderName, string> = {
  OpenAI: "https://api.openai.com/v1",
  Anthropic: "https://api.anthropic.com/v1",
  Google: "https://generativelanguage.googleapis.com/v1beta",
  Mistral: "https://api.mistral.ai/v1",
  Cohere: "https://api.cohere.com/v2",
  Deepseek: "https://api.deepseek.com",
  // AWS: the region's Bedrock runtime; see bedrockBaseUrl.
  AWS: "",
};

/** Models offered where the provider has no list call (or a key may not list): the spec's and today's common ones. */
export const STATIC_MODELS: Record<string, string[]> = {
  "AWS/Anthropic": ["anthropic.claude-3-5-haiku-20241022-v1:0", "anthropic.claude-3-5-sonnet-20241022-v2:0"],
  "AWS/Cohere": ["cohere.command-r-plus-v1:0", "cohere.command-r-v1:0"],
  "AWS/Llama": ["meta.llama3-1-70b-instruct-v1:0", "meta.llama3-1-8b-instruct-v1:0"],
};

/** Vision-capable model names (images are passed to these). */
const VISION = /gpt-4o|gpt-4\.1|gpt-5|claude-3|claude-(sonnet|opus|haiku)-4|gemini|pixtral|llava|vision|mistral-(medium|small)-2|llama3\.2-vision|command-a-vision/i;

export interface ProviderRegistryOptions {
  baseUrls?: Partial<Record<ProviderName, string>>;
  /** AWS region when the keyset names none (its endpoint field may hold a region such as "eu-west-1"). */
  awsRegion?: string;
  /** Waits before the one retry after a 429; tests shorten it. */
  sleep?: (ms: number) => Promise<void>;
  /** Longest retry-after honoured before giving up with a readable message. */
  maxRetryAfterMs?: number;
}

export class ProviderRegistry implements ModelProviders {
  private readonly fetch: FetchFunction;

  constructor(
    egress: Egress,
    private readonly options: ProviderRegistryOptions = {},
  ) {
    this.fetch = egressFetch(egress);
  }

  async validate(keyset: ProviderKeyset): Promise<{ models: string[] }> {
    const listed = await this.listModels(keyset);
    if (listed) return { models: listed };
    // No list call for this provider: a one-token completion proves the key (and the endpoint and model).
    const model = keyset.model || STATIC_MODELS[`${keyset.provider}/${keyset.subProvider}`]?.[0];
    if (!model) throw new DomainError("VALIDATION", "Enter the model (deployment) name.", "model");
    try {
      await generateText({ model: this.sdkModel(keyset, model), prompt: "Say OK.", maxOutputTokens: 1, maxRetries: 0 });
    } catch (error) {
      throw providerError(error);
    }
    return { models: keyset.model ? [keyset.model] : STATIC_MODELS[`${keyset.provider}/${keyset.subProvider}`] ?? [] };
  }

  languageModel(keyset: ProviderKeyset, model: string): LanguageModel {
    return new ProviderModel({
      id: `${keyset.provider.toLowerCase()}:${model}`,
      label: `${model} (${keyset.provider}${keyset.subProvider !== keyset.provider ? ` ${keyset.subProvider}` : ""})`,
      model: this.sdkModel(keyset, model),
      images: VISION.test(model),
      sleep: this.options.sleep,
      maxRetryAfterMs: this.options.maxRetryAfterMs,
    });
  }

  embedder(keyset: ProviderKeyset, model: string): Embedder {
    return new ProviderEmbedder({
      id: `${keyset.provider.toLowerCase()}:${model}`,
      model: this.sdkEmbeddingModel(keyset, model),
      sleep: this.options.sleep,
      maxRetryAfterMs: this.options.maxRetryAfterMs,
    });
  }

  embeddingModels(keyset: Pick<ProviderKeyset, "provider" | "subProvider">, listed: string[]): string[] {
    return embeddingModelsFor(keyset, listed);
  }

  transcriber(keyset: ProviderKeyset, model: string): Transcriber {
    return new ProviderTranscriber({ id: `${keyset.provider.toLowerCase()}:${model}`, modelId: model, model: this.sdkTranscriptionModel(keyset, model) });
  }

  transcriptionModels(keyset: Pick<ProviderKeyset, "provider" | "subProvider">, listed: string[]): string[] {
    return transcriptionModelsFor(keyset, listed);
  }

  /** For Azure, `model` is the transcription deployment (whisper or gpt-4o-transcribe), not the keyset's chat one. */
  private sdkTranscriptionModel(keyset: ProviderKeyset, model: string): SdkTranscriptionModel {
    if (!offersTranscription(keyset.provider, keyset.subProvider)) throw noTranscriptionModels(keyset);
    const fetch = this.fetch;
    if (keyset.provider === "Azure") return createAzure({ apiKey: keyset.apiKey, baseURL: trimSlash(keyset.endpoint ?? ""), fetch }).transcription(model);
    return createOpenAI({ apiKey: keyset.apiKey, baseURL: this.baseURL("OpenAI"), fetch }).transcription(model);
  }

  /** The provider's model list (also the cheapest key check), or null where it has none. */
  private async listModels(keyset: ProviderKeyset): Promise<string[] | null> {
    const key = keyset.apiKey;
    const base = (name: ProviderName) => trimSlash(this.options.baseUrls?.[name] ?? DEFAULT_BASE_URLS[name]);
    let url: string;
    let headers: Record<string, string> = {};
    let pick: (body: unknown) => string[] = dataIds;
    switch (keyset.provider) {
      case "OpenAI":
      case "Mistral":
      case "Deepseek":
        url = `${base(keyset.provider)}/models`;
        headers = { authorization: `Bearer ${key}` };
        break;
      case "Anthropic":
        url = `${base("Anthropic")}/models?limit=100`;
        headers = { "x-api-key": key, "anthropic-version": "2023-06-01" };
        break;
      case "Google":
        url = `${base("Google")}/models?pageSize=200`;
        headers = { "x-goog-api-key": key };
        pick = (body) =>
          arrayOf(body, "models")
            .filter((m) => !Array.isArray(m.supportedGenerationMethods) || m.supportedGenerationMethods.includes("generateContent"))
            .map((m) => String(m.name ?? "").replace(/^models\//, ""))
            .filter(Boolean);
        break;
      case "Cohere":
        // The chat API is v2; the model list lives under v1.
        url = `${base("Cohere").replace(/\/v2$/, "/v1")}/models?endpoint=chat`;
        headers = { authorization: `Bearer ${key}` };
        pick = (body) => arrayOf(body, "models").map((m) => String(m.name ?? "")).filter(Boolean);
        break;
      case "OpenAI-compatible":
        url = `${trimSlash(keyset.endpoint ?? "")}/models`;
        if (key) headers = { authorization: `Bearer ${key}` };
        break;
      default:
        return null;
    }
    let response: Response;
    try {
      response = await this.fetch(url, { method: "GET", headers: { accept: "application/json", ...headers } });
    } catch (error) {
      throw providerError(error);
    }
    if (!response.ok) {
      const responseBody = (await response.text().catch(() => "")).slice(0, 2000);
      throw providerError({ statusCode: response.status, responseHeaders: Object.fromEntries(response.headers), responseBody });
    }
    let body: unknown;
    try {
      body = await response.json();
    } catch {
      throw new DomainError("PROVIDER_ERROR", "The provider answered the model list with something that is not JSON. Check the endpoint.");
    }
    const models = [...new Set(pick(body))].sort();
    return models;
  }

  private baseURL(name: ProviderName): string {
    return this.options.baseUrls?.[name] ?? DEFAULT_BASE_URLS[name];
  }

  private bedrock(keyset: ProviderKeyset) {
    const { region, credentials } = bedrockAuth(keyset, this.options.awsRegion);
    return createAmazonBedrock({ region, ...credentials, baseURL: this.options.baseUrls?.AWS || undefined, fetch: this.fetch });
  }

  private sdkModel(keyset: ProviderKeyset, model: string): SdkModel {
    const fetch = this.fetch;
    const apiKey = keyset.apiKey;
    switch (keyset.provider) {
      case "OpenAI":
        // Chat Completions: what every OpenAI model and proxy speaks.
        return createOpenAI({ apiKey, baseURL: this.baseURL("OpenAI"), fetch }).chat(model);
      case "Anthropic":
        return createAnthropic({ apiKey, baseURL: this.baseURL("Anthropic"), fetch })(model);
      case "Google":
        return createGoogleGenerativeAI({ apiKey, baseURL: this.baseURL("Google"), fetch })(model);
      case "Mistral":
        return createMistral({ apiKey, baseURL: this.baseURL("Mistral"), fetch })(model);
      case "Cohere":
        return createCohere({ apiKey, baseURL: this.baseURL("Cohere"), fetch })(model);
      case "Deepseek":
        return createDeepSeek({ apiKey, baseURL: this.baseURL("Deepseek"), fetch })(model);
      case "AWS":
        return this.bedrock(keyset)(model);
      case "Azure":
        return azureModel(keyset, model, fetch);
      case "OpenAI-compatible":
        return openAICompatible(keyset, fetch).chatModel(model);
      default:
        throw new DomainError("VALIDATION", `The provider ${keyset.provider} is not supported.`);
    }
  }

  /** The embedding model `model` of the keyset; for Azure, `model` is the embedding deployment (not the keyset's chat one). */
  private sdkEmbeddingModel(keyset: ProviderKeyset, model: string): SdkEmbeddingModel {
    if (!offersEmbeddings(keyset.provider, keyset.subProvider)) throw noEmbeddingModels(keyset);
    const fetch = this.fetch;
    const apiKey = keyset.apiKey;
    switch (keyset.provider) {
      case "OpenAI":
        return createOpenAI({ apiKey, baseURL: this.baseURL("OpenAI"), fetch }).textEmbeddingModel(model);
      case "Google":
        return createGoogleGenerativeAI({ apiKey, baseURL: this.baseURL("Google"), fetch }).textEmbeddingModel(model);
      case "Mistral":
        return createMistral({ apiKey, baseURL: this.baseURL("Mistral"), fetch }).textEmbeddingModel(model);
      case "Cohere":
        return createCohere({ apiKey, baseURL: this.baseURL("Cohere"), fetch }).textEmbeddingModel(model);
      case "AWS":
        return bedrockEmbeddingModel(this.bedrock(keyset).embedding(model));
      case "Azure":
        return keyset.subProvider === "OpenAI"
          ? createAzure({ apiKey, baseURL: trimSlash(keyset.endpoint ?? ""), fetch }).textEmbeddingModel(model)
          : azureInference(keyset, fetch).textEmbeddingModel(model);
      case "OpenAI-compatible":
        return openAICompatible(keyset, fetch).textEmbeddingModel(model);
      default:
        throw new DomainError("VALIDATION", `The provider ${keyset.provider} is not supported.`);
    }
  }
}

/** Ollama, vLLM, LM Studio, llama.cpp or any server speaking the OpenAI API at the keyset's endpoint (the key is optional). */
function openAICompatible(keyset: ProviderKeyset, fetch: FetchFunction) {
  return createOpenAICompatible({
    name: "openai-compatible",
    baseURL: trimSlash(keyset.endpoint ?? ""),
    apiKey: keyset.apiKey || undefined,
    fetch,
    includeUsage: true,
  });
}

/**
 * Azure hosts several model families behind one resource (spec: Anthropic,
 * Claude, Cohere, Llama, Mistral, OpenAI; endpoint and model required):
 * OpenAI deployments speak Azure OpenAI; Anthropic/Claude speak the Anthropic
 * Messages API under the resource's /anthropic path; Cohere, Llama and
 * Mistral are served by the Azure AI model inference API, which is
 * OpenAI-compatible (chat/completions and embeddings, key in the `api-key`
 * header). Embeddings: OpenAI and Cohere deployments only.
 */
function azureModel(keyset: ProviderKeyset, model: string, fetch: FetchFunction): SdkModel {
  const endpoint = trimSlash(keyset.endpoint ?? "");
  const deployment = keyset.model || model;
  switch (keyset.subProvider) {
    case "OpenAI":
      return createAzure({ apiKey: keyset.apiKey, baseURL: endpoint, fetch }).chat(deployment);
    case "Anthropic":
    case "Claude":
      return createAnthropic({ apiKey: keyset.apiKey, baseURL: endpoint, fetch })(deployment);
    default:
      return azureInference(keyset, fetch).chatModel(deployment);
  }
}

/** The Azure AI model inference API of the keyset's resource. */
function azureInference(keyset: ProviderKeyset, fetch: FetchFunction) {
  return createOpenAICompatible({
    name: "azure-ai",
    baseURL: trimSlash(keyset.endpoint ?? ""),
    headers: { "api-key": keyset.apiKey },
    apiKey: keyset.apiKey,
    fetch,
    includeUsage: true,
  });
}

/**
 * AWS keys: a Bedrock API key (bearer), or "ACCESS_KEY_ID:SECRET_ACCESS_KEY"
 * for IAM credentials. The endpoint field, when set, names the region.
 */
function bedrockAuth(keyset: ProviderKeyset, fallbackRegion = "us-east-1") {
  const region = /^[a-z]{2}(-[a-z]+)+-\d$/.test(keyset.endpoint ?? "") ? keyset.endpoint! : fallbackRegion;
  const pair = /^(A[KS]IA[A-Z0-9]{12,}):(.+)$/.exec(keyset.apiKey);
  const credentials = pair ? { accessKeyId: pair[1], secretAccessKey: pair[2] } : { apiKey: keyset.apiKey };
  return { region, credentials };
}

const trimSlash = (url: string) => url.replace(/\/+$/, "");

function arrayOf(body: unknown, field: string): Record<string, unknown>[] {
  const value = typeof body === "object" && body !== null ? (body as Record<string, unknown>)[field] : undefined;
  return Array.isArray(value) ? value.filter((v): v is Record<string, unknown> => typeof v === "object" && v !== null) : [];
}

function dataIds(body: unknown): string[] {
  return arrayOf(body, "data").map((m) => String(m.id ?? "")).filter(Boolean);
}
