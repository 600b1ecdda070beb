import type http from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { type LocalSite, startLocalSite } from "#infrastructure/egress/testing/local-site";
import { concatenated, speak, speechToolsInstalled } from "#infrastructure/speech/test-support/spoken";
import { localProvider, type LocalProviderFixture } from "./testing/provider-wire";

/**
 * Provider transcription through the `ai` SDK against local servers replaying
 * each provider's wire format (OpenAI and Azure OpenAI's
 * /audio/transcriptions): the request is multipart with the model and a
 * 16 kHz WAV piece, the answer's segment times land where the piece sits in
 * the recording, and a refused key ends with a readable reason.
 */
const HOST = "speech.example.test";
const KEY = "sk-test-secret-key-1234567890";

interface Fixture extends LocalProviderFixture {
  model: string;
  path: RegExp;
  auth: (req: http.IncomingMessage) => boolean;
}

const FIXTURES: Fixture[] = [
  {
    provider: "OpenAI",
    subProvider: "OpenAI",
    model: "whisper-1",
    path: /^\/v1\/audio\/transcriptions$/,
    auth: (req) => req.headers.authorization === `Bearer ${KEY}`,
    keyset: () => ({}),
    baseUrls: (o) => ({ OpenAI: `${o}/v1` }),
  },
  {
    provider: "OpenAI",
    subProvider: "OpenAI",
    model: "gpt-4o-mini-transcribe",
    path: /^\/v1\/audio\/transcriptions$/,
    auth: (req) => req.headers.authorization === `Bearer ${KEY}`,
    keyset: () => ({}),
    baseUrls: (o) => ({ OpenAI: `${o}/v1` }),
  },
  {
    provider: "Azure",
    subProvider: "OpenAI",
    model: "my-whisper-deployment",
    path: /^\/openai\/(v1\/)?(deployments\/my-whisper-deployment\/)?audio\/transcriptions(\?api-version=[\w-]+)?$/,
    auth: (req) => req.headers["api-key"] === KEY,
    keyset: (o) => ({ endpoint: `${o}/openai`, model: "my-gpt4o-deployment" }),
    baseUrls: () => ({}),
  },
];

let site: LocalSite | null = null;
afterEach(async () => {
  await site?.close();
  site = null;
});

interface Seen {
  path: string;
  fields: Record<string, string>;
  fileType: string | null;
  fileHead: string;
}

async function serve(fx: Fixture, reply: (seen: Seen, res: http.ServerResponse) => void) {
  const seen: Seen[] = [];
  site = await startLocalSite((req, res) => {
    const parts: Buffer[] = [];
    req.on("data", (c: Buffer) => parts.push(c));
    req.on("end", () => {
      if (req.method !== "POST" || !fx.path.test(req.url ?? "")) {
        res.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: `no route ${req.url}` } }));
        return;
      }
      if (!fx.auth(req)) {
        res.writeHead(401, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: "Incorrect API key provided", type: "invalid_request_error", code: "invalid_api_key" } }));
        return;
      }
      const body = Buffer.concat(parts);
      const boundary = /^multipart\/form-data; boundary=(.+)$/.exec(String(req.headers["content-type"]))?.[1];
      if (!boundary) {
        res.writeHead(400, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: "expected multipart/form-data" } }));
        return;
      }
      const fields: Record<string, string> = {};
      let fileType: string | null = null;
      let fileHead = "";
      for (const part of body.toString("latin1").split(`--${boundary}`)) {
        const name = /name="([^"]+)"/.exec(part)?.[1];
        if (!name) continue;
        const value = part.slice(part.indexOf("\r\n\r\n") + 4).replace(/\r\n$/, "");
        if (name === "file") {
          fileType = /Content-Type: (\S+)/i.exec(part)?.[1] ?? null;
          fileHead = value.slice(0, 12);
        } else fields[name] = fields[name] ? `${fields[name]},${value}` : value;
      }
      const s = { path: req.url ?? "", fields, fileType, fileHead };
      seen.push(s);
      reply(s, res);
    });
  }, HOST);
  return seen;
}

const verbose = (text: string) => ({
  task: "transcribe",
  language: "english",
  duration: 9.5,
  text,
  segments: [
    { id: 0, seek: 0, start: 0.4, end: 3.2, text: " The budget meeting is on Friday.", tokens: [1], temperature: 0, avg_logprob: -0.2, compression_ratio: 1.1, no_speech_prob: 0.01 },
    { id: 1, seek: 0, start: 4.0, end: 7.9, text: " We will hire two engineers.", tokens: [2], temperature: 0, avg_logprob: -0.2, compression_ratio: 1.1, no_speech_prob: 0.01 },
  ],
});

const tools = speechToolsInstalled();

describe.skipIf(!tools).each(FIXTURES)("$provider $subProvider transcription ($model)", (fx) => {
  const clip = () => concatenated([speak("The budget meeting is on Friday."), speak("We will hire two engineers.")]);

  it("sends the recording as a 16 kHz WAV piece and keeps the answer's segments and their times", async () => {
    const textOnly = /transcribe$/.test(fx.model);
    const seen = await serve(fx, (_s, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify(textOnly ? { text: "The budget meeting is on Friday. We will hire two engineers." } : verbose("The budget meeting is on Friday. We will hire two engineers.")));
    });
    const { registry, keyset } = localProvider(fx, site!, HOST, KEY, []);
    const progress: number[] = [];
    const result = await registry.transcriber(keyset, fx.model).transcribe(clip(), "audio/wav", { onProgress: (done) => void progress.push(done) });

    expect(seen).toHaveLength(1);
    expect(seen[0]!.fields.model).toBe(fx.provider === "Azure" && /deployments/.test(seen[0]!.path) ? expect.any(String) : fx.model);
    expect(seen[0]!.fileType).toBe("audio/wav");
    expect(seen[0]!.fileHead.startsWith("RIFF")).toBe(true);
    expect(seen[0]!.fields.response_format).toBe(textOnly ? "json" : "verbose_json");
    if (!textOnly) expect(seen[0]!.fields["timestamp_granularities[]"]).toBe("segment");
    expect(result.quality).toBe("provider");
    expect(result.text).toMatch(/budget meeting is on Friday\. We will hire two engineers\./);
    if (textOnly) {
      expect(result.segments).toEqual([{ startSeconds: 0, endSeconds: expect.any(Number), text: expect.stringMatching(/^The budget/) }]);
    } else {
      expect(result.segments).toEqual([
        { startSeconds: 0.4, endSeconds: 3.2, text: "The budget meeting is on Friday." },
        { startSeconds: 4, endSeconds: 7.9, text: "We will hire two engineers." },
      ]);
    }
    expect(progress.at(-1)).toBeCloseTo(result.durationSeconds!, 1);
  });

  it("ends with a reason the user can read when the provider refuses the key", async () => {
    await serve(fx, () => undefined);
    const { registry, keyset } = localProvider(fx, site!, HOST, "sk-wrong", []);
    await expect(registry.transcriber(keyset, fx.model).transcribe(clip(), "audio/wav")).rejects.toMatchObject({
      userFacing: true,
      message: "The provider refused the key. Check or replace it in Chat Settings.",
    });
  });
});

describe("which keysets transcribe", () => {
  it("OpenAI lists its transcription models, Azure OpenAI its deployments named so, others none", async () => {
    const { registry } = localProvider(FIXTURES[0]!, { origin: "http://x" } as LocalSite, HOST, KEY, []);
    expect(registry.transcriptionModels({ provider: "OpenAI", subProvider: "OpenAI" }, ["gpt-4o", "whisper-1"])).toEqual(["gpt-4o-mini-transcribe", "gpt-4o-transcribe", "whisper-1"]);
    expect(registry.transcriptionModels({ provider: "Azure", subProvider: "OpenAI" }, ["my-whisper", "gpt4o"])).toEqual(["my-whisper"]);
    expect(registry.transcriptionModels({ provider: "Anthropic", subProvider: "Anthropic" }, ["claude-3-5-haiku-latest"])).toEqual([]);
  });
});
