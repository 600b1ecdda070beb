import type http from "node:http";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { AnswerEvent, LanguageModel, Passage } from "#application/ports/language-model";
import type { ProviderKeyset } from "#application/ports/model-providers";
import { DomainError } from "#domain/shared/domain-error";
import { type LocalSite, startLocalSite } from "#infrastructure/egress/testing/local-site";
import type { ProviderRegistry } from "./provider-registry";
import { errorBody, type WireFormat, writeStream, localProvider, type LocalProviderFixture } from "./testing/provider-wire";

/**
 * Every provider adapter against a local server (127.0.0.1, reached through
 * the egress allow-list) replaying that provider's streaming wire format:
 * a grounded answer with a citation block, a refused key, a 429 with
 * retry-after (retried once), a 5xx and a stream cut mid-answer.
 */

const HOST = "provider.example.test";
const KEY = "sk-test-secret-key-1234567890";

interface Fixture extends LocalProviderFixture {
  model: string;
  format: WireFormat;
  /** Matches the provider's chat call (method POST). */
  chatPath: RegExp;
  /** Matches its model-list call, when it has one. */
  listPath?: RegExp;
  listBody?: unknown;
  /** The header that must carry the key, and how. */
  auth: (req: http.IncomingMessage) => boolean;
}

const bearer = (req: http.IncomingMessage) => req.headers.authorization === `Bearer ${KEY}`;

const FIXTURES: Fixture[] = [
  {
    provider: "OpenAI",
    subProvider: "OpenAI",
    model: "gpt-4o-mini",
    format: "openai",
    chatPath: /^\/v1\/chat\/completions$/,
    listPath: /^\/v1\/models$/,
    listBody: { object: "list", data: [{ id: "gpt-4o-mini", object: "model", owned_by: "openai" }, { id: "gpt-4o", object: "model", owned_by: "openai" }] },
    auth: bearer,
    keyset: () => ({}),
    baseUrls: (o) => ({ OpenAI: `${o}/v1` }),
  },
  {
    provider: "Anthropic",
    subProvider: "Anthropic",
    model: "claude-3-5-haiku-latest",
    format: "anthropic",
    chatPath: /^\/v1\/messages$/,
    listPath: /^\/v1\/models\?limit=100$/,
    listBody: { data: [{ type: "model", id: "claude-3-5-haiku-latest", display_name: "Claude Haiku" }], has_more: false },
    auth: (req) => req.headers["x-api-key"] === KEY && typeof req.headers["anthropic-version"] === "string",
    keyset: () => ({}),
    baseUrls: (o) => ({ Anthropic: `${o}/v1` }),
  },
  {
    provider: "Google",
    subProvider: "Gemini",
    model: "gemini-2.0-flash",
    format: "google",
    chatPath: /^\/v1beta\/models\/gemini-2\.0-flash:streamGenerateContent\?alt=sse$/,
    listPath: /^\/v1beta\/models\?pageSize=200$/,
    listBody: {
      models: [
        { name: "models/gemini-2.0-flash", supportedGenerationMethods: ["generateContent", "countTokens"] },
        { name: "models/text-embedding-004", supportedGenerationMethods: ["embedContent"] },
      ],
    },
    auth: (req) => req.headers["x-goog-api-key"] === KEY,
    keyset: () => ({}),
    baseUrls: (o) => ({ Google: `${o}/v1beta` }),
  },
  {
    provider: "Mistral",
    subProvider: "Mistral",
    model: "mistral-small-latest",
    format: "mistral",
    chatPath: /^\/v1\/chat\/completions$/,
    listPath: /^\/v1\/models$/,
    listBody: { object: "list", data: [{ id: "mistral-small-latest", object: "model" }] },
    auth: bearer,
    keyset: () => ({}),
    baseUrls: (o) => ({ Mistral: `${o}/v1` }),
  },
  {
    provider: "Cohere",
    subProvider: "Cohere",
    model: "command-r-plus",
    format: "cohere",
    chatPath: /^\/v2\/chat$/,
    listPath: /^\/v1\/models\?endpoint=chat$/,
    listBody: { models: [{ name: "command-r-plus", endpoints: ["chat"] }, { name: "command-r", endpoints: ["chat"] }] },
    auth: bearer,
    keyset: () => ({}),
    baseUrls: (o) => ({ Cohere: `${o}/v2` }),
  },
  {
    provider: "Deepseek",
    subProvider: "Deepseek",
    model: "deepseek-chat",
    format: "openai",
    chatPath: /^\/chat\/completions$/,
    listPath: /^\/models$/,
    listBody: { object: "list", data: [{ id: "deepseek-chat", object: "model", owned_by: "deepseek" }, { id: "deepseek-reasoner", object: "model", owned_by: "deepseek" }] },
    auth: bearer,
    keyset: () => ({}),
    baseUrls: (o) => ({ Deepseek: o }),
  },
  {
    provider: "Azure",
    subProvider: "OpenAI",
    model: "my-gpt4o-deployment",
    format: "openai",
    chatPath: /^\/openai\/(v1\/)?chat\/completions(\?api-version=[\w-]+)?$/,
    auth: (req) => req.headers["api-key"] === KEY,
    keyset: (o) => ({ endpoint: `${o}/openai`, model: "my-gpt4o-deployment" }),
    baseUrls: () => ({}),
  },
  {
    provider: "AWS",
    subProvider: "Anthropic",
    model: "anthropic.claude-3-5-haiku-20241022-v1:0",
    format: "bedrock",
    chatPath: /^\/model\/anthropic\.claude-3-5-haiku-20241022-v1%3A0\/converse(-stream)?$/,
    auth: bearer,
    keyset: () => ({}),
    baseUrls: (o) => ({ AWS: o }),
  },
  {
    provider: "OpenAI-compatible",
    subProvider: "Ollama",
    model: "llama3.2",
    format: "openai",
    chatPath: /^\/v1\/chat\/completions$/,
    listPath: /^\/v1\/models$/,
    listBody: { object: "list", data: [{ id: "llama3.2", object: "model", owned_by: "library" }, { id: "qwen2.5", object: "model", owned_by: "library" }] },
    auth: bearer,
    keyset: (o) => ({ endpoint: `${o}/v1` }),
    baseUrls: () => ({}),
  },
];

const PASSAGES: Passage[] = [
  { chunkId: "c1", documentId: "doc-1", documentName: "astronomy.pdf", pageNumber: 2, text: "Jupiter is the largest planet.", score: 1 },
  { chunkId: "c2", documentId: "doc-1", documentName: "astronomy.pdf", pageNumber: 3, text: "Mars is red.", score: 0.5 },
];

/** Cites passage 1, one it was never given ([9]) and passage 1 again, the marker split like a real model's tokens. */
const ANSWER = ["Jupiter is ", "the largest ", "planet [", "1][9][1]."];
const CITED = [{ documentId: "doc-1", pageNumber: 2, quote: "Jupiter is the largest planet." }];

type Step = { status: 200; cutAfter?: number } | { status: number; headers?: Record<string, string> };

async function collect(model: LanguageModel) {
  const texts: string[] = [];
  let done: Extract<AnswerEvent, { type: "done" }> | null = null;
  let error: unknown = null;
  try {
    for await (const event of model.streamAnswer({ question: "Which planet is the largest?", history: [], passages: PASSAGES, language: "English" })) {
      if (event.type === "text") texts.push(event.text);
      else done = event;
    }
  } catch (e) {
    error = e;
  }
  return { text: texts.join(""), done, error };
}

for (const fx of FIXTURES) {
  describe(`${fx.provider}${fx.subProvider !== fx.provider ? ` (${fx.subProvider})` : ""} wire format`, () => {
    let site: LocalSite;
    let steps: Step[];
    let chatCalls: { path: string; body: string; authorised: boolean }[];
    let sleeps: number[];
    let registry: ProviderRegistry;
    let keyset: ProviderKeyset;

    beforeEach(async () => {
      steps = [];
      chatCalls = [];
      sleeps = [];
      site = await startLocalSite((req, res) => {
        let body = "";
        req.on("data", (c: Buffer) => (body += c.toString()));
        req.on("end", () => {
          const path = req.url ?? "";
          const authorised = fx.auth(req);
          if (req.method === "GET" && fx.listPath?.test(path)) {
            if (!authorised) return fail(res, 401);
            res.writeHead(200, { "content-type": "application/json" });
            return res.end(JSON.stringify(fx.listBody));
          }
          if (req.method !== "POST" || !fx.chatPath.test(path)) {
            res.writeHead(404, { "content-type": "application/json" });
            return res.end(JSON.stringify({ error: { message: `no route ${req.method} ${path}` } }));
          }
          chatCalls.push({ path, body, authorised });
          if (!authorised) return fail(res, 401);
          const step = steps.shift() ?? { status: 200 };
          if (step.status !== 200) return fail(res, step.status, "headers" in step ? step.headers : {});
          if (!path.includes("stream") && fx.format === "bedrock") {
            // Converse (non-streaming): used by the one-token key check.
            res.writeHead(200, { "content-type": "application/json" });
            return res.end(JSON.stringify({ output: { message: { role: "assistant", content: [{ text: "OK" }] } }, stopReason: "max_tokens", usage: { inputTokens: 3, outputTokens: 1, totalTokens: 4 } }));
          }
          if (fx.provider === "Azure" && !JSON.parse(body).stream) {
            res.writeHead(200, { "content-type": "application/json" });
            return res.end(JSON.stringify({ id: "c", object: "chat.completion", created: 1, model: fx.model, choices: [{ index: 0, message: { role: "assistant", content: "OK" }, finish_reason: "length" }], usage: { prompt_tokens: 3, completion_tokens: 1, total_tokens: 4 } }));
          }
          writeStream(fx.format, res, ANSWER, { input: 31, output: 9 }, fx.model, "cutAfter" in step ? step.cutAfter : undefined);
        });
      }, HOST);
      const fail = (res: http.ServerResponse, wanted: number, headers: Record<string, string> = {}) => {
        const status = fx.format === "google" && wanted === 401 ? 400 : wanted;
        const { contentType, body } = errorBody(fx.format, wanted);
        res.writeHead(status, { "content-type": contentType, ...headers });
        res.end(body);
      };
      ({ registry, keyset } = localProvider(fx, site, HOST, KEY, sleeps));
    });
    afterEach(() => site.close());

    it("streams the answer, then validated citations and token usage", async () => {
      const { text, done, error } = await collect(registry.languageModel(keyset, fx.model));
      expect(error).toBeNull();
      expect(text).toBe("Jupiter is the largest planet [1].");
      expect(done?.citations).toEqual(CITED);
      expect(done?.usage).toEqual({ inputTokens: 31, outputTokens: 9 });
      expect(chatCalls).toHaveLength(1);
      expect(chatCalls[0].body).toContain("[1] astronomy.pdf, page 2:");
      expect(chatCalls[0].body).toContain("Which planet is the largest?");
    });

    it("says the provider refused the key", async () => {
      keyset.apiKey = "sk-wrong";
      const { text, error } = await collect(registry.languageModel(keyset, fx.model));
      expect(text).toBe("");
      expect(error).toBeInstanceOf(DomainError);
      expect((error as DomainError).code).toBe("PROVIDER_KEY_REFUSED");
      expect((error as DomainError).message).toMatch(/^The provider refused the key/);
      expect((error as DomainError).message).not.toContain("sk-wrong");
    });

    it("retries once after a 429, honouring retry-after", async () => {
      steps = [{ status: 429, headers: { "retry-after": "2" } }];
      const { text, done, error } = await collect(registry.languageModel(keyset, fx.model));
      expect(error).toBeNull();
      expect(sleeps).toEqual([2000]);
      expect(text).toBe("Jupiter is the largest planet [1].");
      expect(done?.citations).toEqual(CITED);
      expect(chatCalls).toHaveLength(2);
    });

    it("gives a readable message when still rate-limited", async () => {
      steps = [{ status: 429, headers: { "retry-after": "1" } }, { status: 429, headers: { "retry-after": "7" } }];
      const { error } = await collect(registry.languageModel(keyset, fx.model));
      expect((error as DomainError).code).toBe("PROVIDER_RATE_LIMITED");
      expect((error as DomainError).message).toBe("The provider is rate-limiting requests; try again in 7 s.");
      expect(chatCalls).toHaveLength(2);
    });

    it("reports a provider failure (5xx) without details", async () => {
      steps = [{ status: 500 }];
      const { error } = await collect(registry.languageModel(keyset, fx.model));
      expect((error as DomainError).code).toBe("PROVIDER_ERROR");
      expect((error as DomainError).message).toMatch(/HTTP 500/);
    });

    it("reports a stream cut mid-answer after the text already sent", async () => {
      steps = [{ status: 200, cutAfter: 2 }];
      const { text, done, error } = await collect(registry.languageModel(keyset, fx.model));
      expect(done).toBeNull();
      expect(text.length).toBeGreaterThan(0);
      expect("Jupiter is the largest planet.".startsWith(text)).toBe(true);
      expect((error as DomainError).code).toBe("PROVIDER_STREAM_CUT");
    });

    it("checks the key when it is saved and lists the provider's models", async () => {
      const { models } = await registry.validate(keyset);
      expect(models).toContain(fx.model);
      await expect(registry.validate({ ...keyset, apiKey: "sk-wrong" })).rejects.toMatchObject({ code: "PROVIDER_KEY_REFUSED" });
    });
  });
}
