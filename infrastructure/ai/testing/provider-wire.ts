import type http from "node:http";
import { crc32 } from "node:zlib";
import type { ProviderKeyset } from "#application/ports/model-providers";
import { egressFor, type LocalSite, startLocalSite } from "#infrastructure/egress/testing/local-site";
import { ProviderRegistry, type ProviderRegistryOptions } from "../provider-registry";

/**
 * Test helper: how each provider really streams (per its API reference), so
 * the ai SDK adapters are exercised against the bytes they meet in
 * production. `chunks` are the answer's text deltas.
 */

export interface WireUsage {
  input: number;
  output: number;
}

export type WireFormat = "openai" | "anthropic" | "google" | "cohere" | "mistral" | "bedrock";

/**
 * Writes the provider's streaming answer, one frame every `frameGapMs` (a
 * browser test slows it down to watch the answer grow); with `cutAfter`, the
 * socket is destroyed after that many text chunks.
 */
export function writeStream(format: WireFormat, res: http.ServerResponse, chunks: string[], usage: WireUsage, model: string, cutAfter?: number, frameGapMs = 2) {
  const frames = framesFor(format, chunks, usage, model);
  res.writeHead(200, {
    "content-type": format === "bedrock" ? "application/vnd.amazon.eventstream" : "text/event-stream",
    "cache-control": "no-cache",
  });
  // frames[0] opens the message; text frames follow; then the closing frames.
  let i = 0;
  const tick = () => {
    if (i >= frames.length) return res.end();
    if (cutAfter !== undefined && i > cutAfter) {
      res.socket?.destroy();
      return;
    }
    res.write(frames[i++]);
    setTimeout(tick, frameGapMs);
  };
  tick();
}

const sse = (data: unknown, event?: string) => `${event ? `event: ${event}\n` : ""}data: ${typeof data === "string" ? data : JSON.stringify(data)}\n\n`;

function framesFor(format: WireFormat, chunks: string[], usage: WireUsage, model: string): (string | Buffer)[] {
  switch (format) {
    case "openai": {
      // Chat Completions streaming (OpenAI, Azure OpenAI, DeepSeek, any OpenAI-compatible server).
      const base = { id: "chatcmpl-9x", object: "chat.completion.chunk", created: 1_731_000_000, model, system_fingerprint: "fp_1" };
      return [
        sse({ ...base, choices: [{ index: 0, delta: { role: "assistant", content: "" }, logprobs: null, finish_reason: null }] }),
        ...chunks.map((text) => sse({ ...base, choices: [{ index: 0, delta: { content: text }, logprobs: null, finish_reason: null }] })),
        sse({ ...base, choices: [{ index: 0, delta: {}, logprobs: null, finish_reason: "stop" }] }),
        sse({ ...base, choices: [], usage: { prompt_tokens: usage.input, completion_tokens: usage.output, total_tokens: usage.input + usage.output } }),
        sse("[DONE]"),
      ];
    }
    case "mistral": {
      const base = { id: "cmpl-e5cc", object: "chat.completion.chunk", created: 1_731_000_000, model };
      return [
        sse({ ...base, choices: [{ index: 0, delta: { role: "assistant", content: "" }, finish_reason: null }] }),
        ...chunks.map((text) => sse({ ...base, choices: [{ index: 0, delta: { content: text }, finish_reason: null }] })),
        sse({
          ...base,
          choices: [{ index: 0, delta: { content: "" }, finish_reason: "stop" }],
          usage: { prompt_tokens: usage.input, completion_tokens: usage.output, total_tokens: usage.input + usage.output },
        }),
        sse("[DONE]"),
      ];
    }
    case "anthropic":
      return [
        sse(
          {
            type: "message_start",
            message: { id: "msg_01", type: "message", role: "assistant", content: [], model, stop_reason: null, stop_sequence: null, usage: { input_tokens: usage.input, output_tokens: 1 } },
          },
          "message_start",
        ),
        sse({ type: "content_block_start", index: 0, content_block: { type: "text", text: "" } }, "content_block_start") + sse({ type: "ping" }, "ping"),
        ...chunks.map((text) => sse({ type: "content_block_delta", index: 0, delta: { type: "text_delta", text } }, "content_block_delta")),
        sse({ type: "content_block_stop", index: 0 }, "content_block_stop"),
        sse({ type: "message_delta", delta: { stop_reason: "end_turn", stop_sequence: null }, usage: { output_tokens: usage.output } }, "message_delta"),
        sse({ type: "message_stop" }, "message_stop"),
      ];
    case "google": {
      // streamGenerateContent?alt=sse: each event is a whole GenerateContentResponse.
      const meta = { promptTokenCount: usage.input, candidatesTokenCount: usage.output, totalTokenCount: usage.input + usage.output };
      return [
        sse({ candidates: [{ content: { parts: [{ text: chunks[0] }], role: "model" }, index: 0 }], usageMetadata: meta, modelVersion: model }),
        ...chunks.slice(1, -1).map((text) => sse({ candidates: [{ content: { parts: [{ text }], role: "model" }, index: 0 }], usageMetadata: meta, modelVersion: model })),
        sse({ candidates: [{ content: { parts: [{ text: chunks.at(-1) }], role: "model" }, finishReason: "STOP", index: 0 }], usageMetadata: meta, modelVersion: model }),
      ];
    }
    case "cohere":
      // Chat v2 streaming.
      return [
        sse({ id: "c0f1", type: "message-start", delta: { message: { role: "assistant", content: [], tool_plan: "", tool_calls: [], citations: [] } } }, "message-start") +
          sse({ type: "content-start", index: 0, delta: { message: { content: { type: "text", text: "" } } } }, "content-start"),
        ...chunks.map((text) => sse({ type: "content-delta", index: 0, delta: { message: { content: { text } } } }, "content-delta")),
        sse({ type: "content-end", index: 0 }, "content-end"),
        sse(
          {
            type: "message-end",
            delta: { finish_reason: "COMPLETE", usage: { billed_units: { input_tokens: usage.input, output_tokens: usage.output }, tokens: { input_tokens: usage.input, output_tokens: usage.output } } },
          },
          "message-end",
        ),
      ];
    case "bedrock":
      // ConverseStream: AWS event-stream binary frames, one JSON event each.
      return [
        eventStreamFrame("messageStart", { role: "assistant", p: "abcd" }),
        ...chunks.map((text) => eventStreamFrame("contentBlockDelta", { contentBlockIndex: 0, delta: { text }, p: "abcdefgh" })),
        eventStreamFrame("contentBlockStop", { contentBlockIndex: 0, p: "ab" }),
        eventStreamFrame("messageStop", { stopReason: "end_turn", p: "abcdef" }),
        eventStreamFrame("metadata", { usage: { inputTokens: usage.input, outputTokens: usage.output, totalTokens: usage.input + usage.output }, metrics: { latencyMs: 120 }, p: "ab" }),
      ];
  }
}

/**
 * One AWS event-stream message: total length, headers length, prelude CRC32,
 * headers (name length, name, type 7 = string, value length, value), payload,
 * message CRC32 — big-endian throughout.
 */
export function eventStreamFrame(eventType: string, payload: unknown, messageType = "event"): Buffer {
  const headers = Buffer.concat(
    Object.entries({ ":event-type": eventType, ":content-type": "application/json", ":message-type": messageType }).map(([name, value]) => {
      const n = Buffer.from(name);
      const v = Buffer.from(value);
      const head = Buffer.alloc(1 + n.length + 1 + 2);
      head.writeUInt8(n.length, 0);
      n.copy(head, 1);
      head.writeUInt8(7, 1 + n.length);
      head.writeUInt16BE(v.length, 2 + n.length);
      return Buffer.concat([head, v]);
    }),
  );
  const body = Buffer.from(JSON.stringify(payload));
  const total = 12 + headers.length + body.length + 4;
  const prelude = Buffer.alloc(8);
  prelude.writeUInt32BE(total, 0);
  prelude.writeUInt32BE(headers.length, 4);
  const preludeCrc = Buffer.alloc(4);
  preludeCrc.writeUInt32BE(crc32(prelude) >>> 0, 0);
  const withoutCrc = Buffer.concat([prelude, preludeCrc, headers, body]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(withoutCrc) >>> 0, 0);
  return Buffer.concat([withoutCrc, crc]);
}

/** The provider's error body for a status, as its API documents it. */
export function errorBody(format: WireFormat, status: number): { contentType: string; body: string } {
  const message = status === 401 ? "Incorrect API key provided." : status === 429 ? "Rate limit reached." : "The server had an error.";
  switch (format) {
    case "anthropic": {
      const type = status === 401 ? "authentication_error" : status === 429 ? "rate_limit_error" : "api_error";
      return { contentType: "application/json", body: JSON.stringify({ type: "error", error: { type, message } }) };
    }
    case "google": {
      // Google answers a bad key with 400 API_KEY_INVALID.
      const code = status === 401 ? 400 : status;
      const statusName = status === 401 ? "INVALID_ARGUMENT" : status === 429 ? "RESOURCE_EXHAUSTED" : "INTERNAL";
      const text = status === 401 ? "API key not valid. Please pass a valid API key." : message;
      return {
        contentType: "application/json",
        body: JSON.stringify({ error: { code, message: text, status: statusName, details: status === 401 ? [{ "@type": "type.googleapis.com/google.rpc.ErrorInfo", reason: "API_KEY_INVALID" }] : [] } }),
      };
    }
    case "cohere":
      return { contentType: "application/json", body: JSON.stringify({ message: status === 401 ? "invalid api token" : message }) };
    case "mistral":
      return { contentType: "application/json", body: JSON.stringify({ object: "error", message, type: status === 401 ? "invalid_request_error" : "api_error", param: null, code: null }) };
    case "bedrock":
      return { contentType: "application/json", body: JSON.stringify({ message: status === 401 ? "The security token included in the request is invalid." : message }) };
    default:
      return {
        contentType: "application/json",
        body: JSON.stringify({ error: { message, type: status === 401 ? "invalid_request_error" : status === 429 ? "rate_limit_exceeded" : "server_error", param: null, code: status === 401 ? "invalid_api_key" : null } }),
      };
  }
}

/**
 * Embeddings APIs as each provider documents them (and as its ai SDK adapter
 * sends and reads them): OpenAI's POST /embeddings {model, input[]} (also
 * Mistral, Azure OpenAI and OpenAI-compatible servers), Google's
 * :batchEmbedContents / :embedContent, Cohere v2 /embed, and Bedrock's
 * /model/<id>/invoke with Cohere's or Titan's body.
 */
export type EmbeddingWireFormat = "openai" | "google" | "cohere" | "bedrock-cohere" | "bedrock-titan";

const COHERE_INPUT_TYPES = ["search_document", "search_query", "classification", "clustering"];

/**
 * The model (when the body names it) and texts of an embeddings request, or
 * null when the body is not that API's shape.
 */
export function embeddingRequest(format: EmbeddingWireFormat, body: unknown): { model?: string; texts: string[] } | null {
  const b = (typeof body === "object" && body !== null ? body : {}) as Record<string, unknown>;
  const strings = (value: unknown): value is string[] => Array.isArray(value) && value.length > 0 && value.every((v) => typeof v === "string");
  switch (format) {
    case "openai":
      return typeof b.model === "string" && strings(b.input) ? { model: b.model, texts: b.input } : null;
    case "google": {
      // batchEmbedContents {requests: [{model: "models/<id>", content: {parts: [{text}]}}]}, or one embedContent request.
      const requests = Array.isArray(b.requests) ? (b.requests as Record<string, unknown>[]) : [b];
      const texts = requests.map((r) => ((r?.content as { parts?: { text?: unknown }[] } | undefined)?.parts ?? []).map((p) => p.text).join(""));
      const models = new Set(requests.map((r) => String(r?.model ?? "").replace(/^models\//, "")));
      return models.size === 1 && !models.has("") && texts.every(Boolean) ? { model: [...models][0], texts } : null;
    }
    case "cohere":
      return typeof b.model === "string" && strings(b.texts) && COHERE_INPUT_TYPES.includes(String(b.input_type)) && Array.isArray(b.embedding_types) && b.embedding_types.includes("float")
        ? { model: b.model, texts: b.texts }
        : null;
    case "bedrock-cohere":
      // The model is in the path; input_type is required.
      return strings(b.texts) && b.texts.length <= 96 && COHERE_INPUT_TYPES.includes(String(b.input_type)) ? { texts: b.texts } : null;
    case "bedrock-titan":
      return typeof b.inputText === "string" ? { texts: [b.inputText] } : null;
  }
}

/** The provider's answer carrying `vectors` (one per text, in order); `single`: Google's embedContent answer. */
export function embeddingResponse(format: EmbeddingWireFormat, vectors: number[][], texts: string[], model: string, single = false): unknown {
  const tokens = texts.reduce((n, t) => n + Math.max(1, Math.ceil(t.length / 4)), 0);
  switch (format) {
    case "openai":
      return {
        object: "list",
        data: vectors.map((embedding, index) => ({ object: "embedding", index, embedding })),
        model,
        usage: { prompt_tokens: tokens, total_tokens: tokens },
      };
    case "google":
      return single ? { embedding: { values: vectors[0] } } : { embeddings: vectors.map((values) => ({ values })) };
    case "cohere":
      return {
        id: "da6e531f-54c6-4a73-bf92-f60566d8d753",
        embeddings: { float: vectors },
        texts,
        meta: { api_version: { version: "2" }, billed_units: { input_tokens: tokens } },
        response_type: "embeddings_by_type",
      };
    case "bedrock-cohere":
      return { embeddings: vectors, id: "5c2a0d0e-2f1b-4c3e-9d7a-1b2c3d4e5f60", response_type: "embeddings_floats", texts };
    case "bedrock-titan":
      return { embedding: vectors[0], inputTextTokenCount: tokens };
  }
}

/** A local provider site (see startLocalSite) whose handler gets each request with its whole body. */
export function startProviderSite(host: string, handler: (req: http.IncomingMessage, body: string, res: http.ServerResponse) => void): Promise<LocalSite> {
  return startLocalSite((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => handler(req, body, res));
  }, host);
}

/** How a wire-format suite points one provider at its local site. */
export interface LocalProviderFixture {
  provider: string;
  subProvider: string;
  keyset: (origin: string) => Partial<ProviderKeyset>;
  baseUrls: (origin: string) => ProviderRegistryOptions["baseUrls"];
}

/**
 * A registry whose provider calls reach `site` (its host is allow-listed in
 * the egress), whose retry waits are recorded in `sleeps` instead of slept,
 * and the fixture's keyset with `apiKey`.
 */
export function localProvider(fx: LocalProviderFixture, site: LocalSite, host: string, apiKey: string, sleeps: number[]) {
  const registry = new ProviderRegistry(egressFor(host), {
    baseUrls: fx.baseUrls(site.origin),
    sleep: async (ms) => {
      sleeps.push(ms);
    },
  });
  const keyset: ProviderKeyset = { keysetId: "k1", provider: fx.provider, subProvider: fx.subProvider, endpoint: null, model: null, apiKey, ...fx.keyset(site.origin) };
  return { registry, keyset };
}
