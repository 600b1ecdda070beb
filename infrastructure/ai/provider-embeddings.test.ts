import type http from "node:http";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ProviderKeyset } from "#application/ports/model-providers";
import { DomainError } from "#domain/shared/domain-error";
import { egressFor, type LocalSite } from "#infrastructure/egress/testing/local-site";
import { isEmbeddingModel, STATIC_EMBEDDING_MODELS } from "./embedding-models";
import { ProviderRegistry } from "./provider-registry";
import { type EmbeddingWireFormat, embeddingRequest, embeddingResponse, errorBody, startProviderSite, type WireFormat, localProvider, type LocalProviderFixture } from "./testing/provider-wire";

/**
 * Every provider's embedding adapter against a local server (127.0.0.1,
 * reached through the egress allow-list) that checks the request path, the
 * key's header and the body shape of that provider's embeddings API and
 * answers in its format: vectors in order, a refused key, a 429 with
 * retry-after (retried once), an unknown model, and more than 96 texts
 * split over several requests.
 */

const HOST = "provider.example.test";
const KEY = "sk-test-secret-key-1234567890";

interface Fixture extends LocalProviderFixture {
  name: string;
  /** The embedding model (for Azure, the embedding deployment). */
  model: string;
  format: EmbeddingWireFormat;
  /** The error body format (errorBody). */
  errors: WireFormat;
  /** Matches the embeddings call (method POST) for `model`. */
  path: RegExp;
  /** The body sent for TEXTS (or, one text per call, for one of them). */
  body: Record<string, unknown>;
  /** The API takes one text per call (Bedrock Titan). */
  oneTextPerCall?: boolean;
  auth: (req: http.IncomingMessage) => boolean;
}

const TEXTS = ["t0: Jupiter is the largest planet.", "t1: Mars is red.", "t2: Venus is hot."];

const bearer = (req: http.IncomingMessage) => req.headers.authorization === `Bearer ${KEY}`;
/** OpenAI's embeddings body (also Mistral's, Azure's and OpenAI-compatible servers'). */
const openAIBody = (model: string) => ({ model, input: TEXTS, encoding_format: "float" });
const apiKeyHeader = (req: http.IncomingMessage) => req.headers["api-key"] === KEY;

const FIXTURES: Fixture[] = [
  {
    name: "OpenAI",
    provider: "OpenAI",
    subProvider: "OpenAI",
    model: "text-embedding-3-small",
    format: "openai",
    errors: "openai",
    path: /^\/v1\/embeddings$/,
    body: openAIBody("text-embedding-3-small"),
    auth: bearer,
    keyset: () => ({}),
    baseUrls: (o) => ({ OpenAI: `${o}/v1` }),
  },
  {
    name: "Google",
    provider: "Google",
    subProvider: "Gemini",
    model: "text-embedding-004",
    format: "google",
    errors: "google",
    path: /^\/v1beta\/models\/text-embedding-004:batchEmbedContents$/,
    body: { requests: TEXTS.map((text) => ({ model: "models/text-embedding-004", content: { role: "user", parts: [{ text }] } })) },
    auth: (req) => req.headers["x-goog-api-key"] === KEY,
    keyset: () => ({}),
    baseUrls: (o) => ({ Google: `${o}/v1beta` }),
  },
  {
    name: "Mistral",
    provider: "Mistral",
    subProvider: "Mistral",
    model: "mistral-embed",
    format: "openai",
    errors: "mistral",
    path: /^\/v1\/embeddings$/,
    body: openAIBody("mistral-embed"),
    auth: bearer,
    keyset: () => ({}),
    baseUrls: (o) => ({ Mistral: `${o}/v1` }),
  },
  {
    name: "Cohere",
    provider: "Cohere",
    subProvider: "Cohere",
    model: "embed-english-v3.0",
    format: "cohere",
    errors: "cohere",
    path: /^\/v2\/embed$/,
    body: { model: "embed-english-v3.0", texts: TEXTS, embedding_types: ["float"], input_type: "search_query" },
    auth: bearer,
    keyset: () => ({}),
    baseUrls: (o) => ({ Cohere: `${o}/v2` }),
  },
  {
    name: "AWS (Cohere Embed on Bedrock)",
    provider: "AWS",
    subProvider: "Cohere",
    model: "cohere.embed-multilingual-v3",
    format: "bedrock-cohere",
    errors: "bedrock",
    path: /^\/model\/cohere\.embed-multilingual-v3\/invoke$/,
    body: { texts: TEXTS, input_type: "search_query", truncate: "END" },
    auth: bearer,
    keyset: () => ({}),
    baseUrls: (o) => ({ AWS: o }),
  },
  {
    name: "AWS (Titan Embed on Bedrock)",
    provider: "AWS",
    subProvider: "Cohere",
    model: "amazon.titan-embed-text-v2:0",
    format: "bedrock-titan",
    errors: "bedrock",
    path: /^\/model\/amazon\.titan-embed-text-v2%3A0\/invoke$/,
    body: { inputText: TEXTS[1] },
    oneTextPerCall: true,
    auth: bearer,
    keyset: () => ({}),
    baseUrls: (o) => ({ AWS: o }),
  },
  {
    name: "Azure (OpenAI)",
    provider: "Azure",
    subProvider: "OpenAI",
    model: "my-embedding-deployment",
    format: "openai",
    errors: "openai",
    path: /^\/openai\/(v1\/)?embeddings(\?api-version=[\w-]+)?$/,
    // The embedding deployment, not the keyset's chat one.
    body: openAIBody("my-embedding-deployment"),
    auth: apiKeyHeader,
    keyset: (o) => ({ endpoint: `${o}/openai`, model: "my-gpt4o-deployment" }),
    baseUrls: () => ({}),
  },
  {
    name: "Azure (Cohere, AI model inference)",
    provider: "Azure",
    subProvider: "Cohere",
    model: "Cohere-embed-v3-multilingual",
    format: "openai",
    errors: "openai",
    path: /^\/models\/embeddings$/,
    body: openAIBody("Cohere-embed-v3-multilingual"),
    auth: apiKeyHeader,
    keyset: (o) => ({ endpoint: `${o}/models`, model: "Cohere-command-r-plus" }),
    baseUrls: () => ({}),
  },
  {
    name: "OpenAI-compatible (Ollama)",
    provider: "OpenAI-compatible",
    subProvider: "Ollama",
    model: "nomic-embed-text",
    format: "openai",
    errors: "openai",
    path: /^\/v1\/embeddings$/,
    body: openAIBody("nomic-embed-text"),
    auth: bearer,
    keyset: (o) => ({ endpoint: `${o}/v1` }),
    baseUrls: () => ({}),
  },
];

/** A vector that says which text it belongs to: "t17…" -> [17, 0.5, -18]. */
const vectorFor = (text: string) => {
  const n = Number(/^t(\d+)/.exec(text)?.[1] ?? -1);
  return [n, 0.5, -n - 1];
};

type Step = { status: number; headers?: Record<string, string> };

function parsed(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return null; // not JSON: embeddingRequest refuses it
  }
}

interface Call {
  path: string;
  body: unknown;
  texts: number;
  authorised: boolean;
  status: number;
}

function errorOf(promise: Promise<unknown>): Promise<DomainError> {
  return promise.then(
    () => {
      throw new Error("expected a failure");
    },
    (error: unknown) => {
      expect(error).toBeInstanceOf(DomainError);
      return error as DomainError;
    },
  );
}

for (const fx of FIXTURES) {
  describe(`${fx.name} embeddings wire format`, () => {
    let site: LocalSite;
    let steps: Step[];
    let calls: Call[];
    let sleeps: number[];
    let registry: ProviderRegistry;
    let keyset: ProviderKeyset;

    beforeEach(async () => {
      steps = [];
      calls = [];
      sleeps = [];
      site = await startProviderSite(HOST, (req, raw, res) => {
        const path = req.url ?? "";
        const authorised = fx.auth(req);
        const body = parsed(raw);
        const request = embeddingRequest(fx.format, body);
        const call: Call = { path, body, texts: request?.texts.length ?? 0, authorised, status: 200 };
        calls.push(call);
        const answer = (status: number, payload: unknown, headers: Record<string, string> = {}) => {
          call.status = status;
          res.writeHead(status, { "content-type": "application/json", ...headers });
          res.end(typeof payload === "string" ? payload : JSON.stringify(payload));
        };
        const fail = (wanted: number, headers: Record<string, string> = {}) =>
          answer(fx.errors === "google" && wanted === 401 ? 400 : wanted, errorBody(fx.errors, wanted).body, headers);
        // An unknown model: its path (Google, Bedrock) or its name in the body (the others) is not this one's.
        if (req.method !== "POST" || !fx.path.test(path) || (request?.model !== undefined && request.model !== fx.model)) {
          return answer(404, { error: { message: `no route ${req.method} ${path}`, code: "model_not_found" } });
        }
        if (!authorised) return fail(401);
        if (!request) return answer(400, { error: { message: "malformed request body" } });
        const step = steps.shift();
        if (step && step.status !== 200) return fail(step.status, step.headers);
        answer(200, embeddingResponse(fx.format, request.texts.map(vectorFor), request.texts, fx.model));
      });
      ({ registry, keyset } = localProvider(fx, site, HOST, KEY, sleeps));
    });
    afterEach(() => site.close());

    it("embeds texts through the provider's embeddings API, one vector per text in order", async () => {
      const embedder = registry.embedder(keyset, fx.model);
      expect(embedder.id).toBe(`${fx.provider.toLowerCase()}:${fx.model}`);
      const vectors = await embedder.embed(TEXTS);
      expect(vectors).toEqual(TEXTS.map(vectorFor));
      expect(calls).toHaveLength(fx.oneTextPerCall ? TEXTS.length : 1);
      for (const call of calls) {
        expect(call.path).toMatch(fx.path);
        expect(call.authorised).toBe(true);
      }
      expect(calls.map((c) => c.body)).toContainEqual(expect.objectContaining(fx.body));
    });

    it("answers no vectors for no texts, without a call", async () => {
      expect(await registry.embedder(keyset, fx.model).embed([])).toEqual([]);
      expect(calls).toHaveLength(0);
    });

    it("splits more than 96 texts over several requests of at most 96", async () => {
      const texts = Array.from({ length: 200 }, (_, i) => `t${i}: chunk ${i}`);
      const vectors = await registry.embedder(keyset, fx.model).embed(texts);
      expect(vectors).toEqual(texts.map(vectorFor));
      expect(calls.length).toBeGreaterThanOrEqual(3);
      expect(Math.max(...calls.map((c) => c.texts))).toBeLessThanOrEqual(96);
      expect(calls.reduce((n, c) => n + c.texts, 0)).toBe(200);
    });

    it("says the provider refused the key", async () => {
      keyset.apiKey = "sk-wrong";
      const error = await errorOf(registry.embedder(keyset, fx.model).embed(TEXTS));
      expect(error.code).toBe("PROVIDER_KEY_REFUSED");
      expect(error.message).toBe("The provider refused the key. Check or replace it in Chat Settings.");
      expect(error.message).not.toContain("sk-wrong");
    });

    // One text where the API takes one per call, so exactly one request meets each 429.
    const sample = fx.oneTextPerCall ? TEXTS.slice(0, 1) : TEXTS;

    it("retries once after a 429, honouring retry-after", async () => {
      steps = [{ status: 429, headers: { "retry-after": "2" } }];
      const vectors = await registry.embedder(keyset, fx.model).embed(sample);
      expect(vectors).toEqual(sample.map(vectorFor));
      expect(sleeps).toEqual([2000]);
      expect(calls.map((c) => c.status)).toEqual([429, 200]);
    });

    it("gives a readable message when still rate-limited", async () => {
      steps = [
        { status: 429, headers: { "retry-after": "1" } },
        { status: 429, headers: { "retry-after": "7" } },
      ];
      const error = await errorOf(registry.embedder(keyset, fx.model).embed(sample));
      expect(error.code).toBe("PROVIDER_RATE_LIMITED");
      expect(error.message).toBe("The provider is rate-limiting requests; try again in 7 s.");
      expect(calls).toHaveLength(2);
    });

    it("says which setting to check for an unknown model", async () => {
      const error = await errorOf(registry.embedder(keyset, "no-such-embedder").embed(sample));
      expect(error.code).toBe("PROVIDER_MODEL_NOT_FOUND");
      expect(error.message).toMatch(/embedding model .*Workspace Settings/);
    });
  });
}

describe("Cohere Embed on Bedrock with IAM keys", () => {
  let site: LocalSite;
  let seen: { authorization?: string; amzDate?: string; body: unknown }[];

  beforeEach(async () => {
    seen = [];
    site = await startProviderSite(HOST, (req, raw, res) => {
      const body = parsed(raw);
      seen.push({ authorization: req.headers.authorization, amzDate: req.headers["x-amz-date"] as string | undefined, body });
      const texts = embeddingRequest("bedrock-cohere", body)?.texts ?? [];
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify(embeddingResponse("bedrock-cohere", texts.map(vectorFor), texts, "cohere.embed-english-v3")));
    });
  });
  afterEach(() => site.close());

  it("signs the request with SigV4 for the keyset's region", async () => {
    const registry = new ProviderRegistry(egressFor(HOST), { baseUrls: { AWS: site.origin } });
    const keyset: ProviderKeyset = {
      keysetId: "k1",
      provider: "AWS",
      subProvider: "Cohere",
      endpoint: "eu-west-1",
      model: null,
      apiKey: "AKIAIOSFODNN7EXAMPLE:wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
    };
    expect(await registry.embedder(keyset, "cohere.embed-english-v3").embed(TEXTS)).toEqual(TEXTS.map(vectorFor));
    expect(seen).toHaveLength(1);
    expect(seen[0].authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE\/\d{8}\/eu-west-1\/bedrock\/aws4_request, SignedHeaders=[\w;-]+, Signature=[0-9a-f]{64}$/);
    expect(seen[0].amzDate).toMatch(/^\d{8}T\d{6}Z$/);
    expect(seen[0].body).toEqual({ texts: TEXTS, input_type: "search_query", truncate: "END" });
  });
});

describe("providers without embedding models", () => {
  const registry = new ProviderRegistry(egressFor(HOST));
  const keyset = (provider: string, subProvider: string): ProviderKeyset => ({ keysetId: "k1", provider, subProvider, endpoint: "https://x.example.test", model: "m", apiKey: KEY });

  it.each([
    ["Anthropic", "Anthropic", "Anthropic"],
    ["Deepseek", "Deepseek", "Deepseek"],
    ["AWS", "Anthropic", "AWS Anthropic"],
    ["AWS", "Llama", "AWS Llama"],
    ["Azure", "Anthropic", "Azure Anthropic"],
    ["Azure", "Claude", "Azure Claude"],
    ["Azure", "Llama", "Azure Llama"],
    ["Azure", "Mistral", "Azure Mistral"],
  ])("%s (%s) says it offers none", (provider, subProvider, name) => {
    const call = () => registry.embedder(keyset(provider, subProvider), "text-embedding-3-small");
    expect(call).toThrow(DomainError);
    expect(call).toThrow(`${name} offers no embedding models. Choose another keyset for embeddings.`);
    try {
      call();
    } catch (error) {
      expect((error as DomainError).code).toBe("PROVIDER_MODEL_NOT_FOUND");
    }
    expect(registry.embeddingModels(keyset(provider, subProvider), ["text-embedding-3-small", "claude-3-5-haiku-latest"])).toEqual([]);
  });
});

describe("an embeddings endpoint the egress rules refuse", () => {
  it("says the address is not allowed", async () => {
    const registry = new ProviderRegistry(egressFor(HOST));
    const keyset: ProviderKeyset = { keysetId: "k1", provider: "OpenAI-compatible", subProvider: "Ollama", endpoint: "http://10.1.2.3:11434/v1", model: null, apiKey: "" };
    const error = await errorOf(registry.embedder(keyset, "nomic-embed-text").embed(TEXTS));
    expect(error.code).toBe("PROVIDER_UNREACHABLE");
    expect(error.message).toMatch(/^The provider's address is not allowed/);
  });
});

describe("isEmbeddingModel", () => {
  it.each([
    ["OpenAI", "text-embedding-3-small"],
    ["OpenAI", "text-embedding-ada-002"],
    ["Google", "text-embedding-004"],
    ["Google", "embedding-001"],
    ["Google", "gemini-embedding-001"],
    ["Mistral", "mistral-embed"],
    ["Cohere", "embed-english-v3.0"],
    ["Cohere", "embed-multilingual-light-v3.0"],
    ["AWS", "cohere.embed-english-v3"],
    ["AWS", "amazon.titan-embed-text-v2:0"],
    ["Azure", "text-embedding-3-large"],
    ["OpenAI-compatible", "nomic-embed-text"],
    ["OpenAI-compatible", "nomic-embed-text:latest"],
    ["OpenAI-compatible", "mxbai-embed-large"],
    ["OpenAI-compatible", "all-minilm:l6-v2"],
    ["OpenAI-compatible", "bge-m3"],
    ["OpenAI-compatible", "BAAI/bge-small-en-v1.5"],
    ["OpenAI-compatible", "snowflake-arctic-embed:335m"],
    ["OpenAI-compatible", "intfloat/multilingual-e5-large"],
  ])("%s %s is an embedding model", (provider, model) => {
    expect(isEmbeddingModel(provider, model)).toBe(true);
  });

  it.each([
    ["OpenAI", "gpt-4o-mini"],
    ["Google", "gemini-2.0-flash"],
    ["Mistral", "mistral-small-latest"],
    ["Cohere", "command-r-plus"],
    ["AWS", "anthropic.claude-3-5-haiku-20241022-v1:0"],
    ["OpenAI-compatible", "llama3.2"],
    ["OpenAI-compatible", "qwen2.5:7b"],
    ["OpenAI-compatible", "bge-reranker-v2-m3"],
    ["Cohere", "rerank-english-v3.0"],
    // Providers without embedding models: nothing they list embeds.
    ["Anthropic", "claude-embed-test"],
    ["Deepseek", "deepseek-embed"],
  ])("%s %s is not", (provider, model) => {
    expect(isEmbeddingModel(provider, model)).toBe(false);
  });
});

describe("embeddingModels (the Workspace Settings picker)", () => {
  const registry = new ProviderRegistry(egressFor(HOST));

  it("adds the well-known models a provider's list leaves out", () => {
    // Google's list keeps generateContent models only; Cohere's asks for chat models.
    expect(registry.embeddingModels({ provider: "Google", subProvider: "Gemini" }, ["gemini-2.0-flash", "gemini-1.5-pro"])).toEqual(["gemini-embedding-001", "text-embedding-004"]);
    expect(registry.embeddingModels({ provider: "Cohere", subProvider: "Cohere" }, ["command-r", "command-r-plus"])).toEqual(STATIC_EMBEDDING_MODELS.Cohere);
    expect(registry.embeddingModels({ provider: "AWS", subProvider: "Cohere" }, ["cohere.command-r-v1:0"])).toEqual(["cohere.embed-english-v3", "cohere.embed-multilingual-v3"]);
  });

  it("keeps the listed embedding models, deduplicated and sorted", () => {
    expect(registry.embeddingModels({ provider: "OpenAI", subProvider: "OpenAI" }, ["gpt-4o", "text-embedding-ada-002", "text-embedding-3-small", "gpt-4o-mini"])).toEqual([
      "text-embedding-3-large",
      "text-embedding-3-small",
      "text-embedding-ada-002",
    ]);
    expect(registry.embeddingModels({ provider: "Mistral", subProvider: "Mistral" }, ["mistral-embed", "mistral-small-latest"])).toEqual(["mistral-embed"]);
    expect(registry.embeddingModels({ provider: "OpenAI-compatible", subProvider: "Ollama" }, ["llama3.2", "nomic-embed-text:latest", "bge-m3", "qwen2.5"])).toEqual(["bge-m3", "nomic-embed-text:latest"]);
    expect(registry.embeddingModels({ provider: "Azure", subProvider: "OpenAI" }, ["text-embedding-3-small"])).toEqual(["text-embedding-3-small"]);
    expect(registry.embeddingModels({ provider: "Azure", subProvider: "OpenAI" }, ["my-gpt4o-deployment"])).toEqual([]);
  });
});
