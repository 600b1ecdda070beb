import { afterEach, describe, expect, it } from "vitest";
import { TOKENS } from "#application/tokens";
import type { EventStore } from "#application/ports/event-store";
import type { SearchIndex } from "#application/ports/search-index";
import { OFFLINE_TRANSCRIPT_NOTE, type Transcriber } from "#application/ports/speech";
import type { WorkflowEngine } from "#application/ports/workflow";
import type { RequestContext } from "#application/shared/request-context";
import { LibraryQueries } from "#application/library/library-queries";
import { LibraryService } from "#application/library/library-service";
import { LinkLookup } from "#application/library/link-lookup";
import { PocketsphinxTranscriber } from "#infrastructure/speech/pocketsphinx-transcriber";
import { concatenated, generated, reencode, speak, speechToolsInstalled, wordErrorRate } from "#infrastructure/speech/test-support/spoken";
import { KeysetService } from "#application/identity/keyset-service";
import { egressFor, type LocalSite, startLocalSite } from "#infrastructure/egress/testing/local-site";
import { EgressVideoSource } from "#infrastructure/video/video-source";
import { createTestRuntime } from "../support/test-runtime";

/**
 * Recordings through the real ingestion path with the built-in offline
 * transcriber (pocketsphinx): spoken clips become timed transcript pages,
 * and every kind of bad recording ends Failed with a reason, never stuck.
 */
const owner = "owner-1";
const ctx: RequestContext = { requestId: "req", clientAddress: "127.0.0.1", actorId: owner };
const tools = speechToolsInstalled();

let env: Awaited<ReturnType<typeof createTestRuntime>>;
let site: LocalSite | null = null;
afterEach(async () => {
  await env?.cleanup();
  await site?.close();
  site = null;
});

const HOST = "api.openai.example.test";
const KEY = "sk-test-transcribe-0123456789";

async function start(transcriber?: Transcriber, provider?: LocalSite) {
  env = await createTestRuntime({
    ...(transcriber ? { transcriber } : {}),
    ...(provider ? { egress: egressFor(HOST), providers: { baseUrls: { OpenAI: `${provider.origin}/v1` } } } : {}),
  });
  return {
    library: env.runtime.container.get(LibraryService),
    queries: env.runtime.container.get(LibraryQueries),
    search: env.runtime.get<SearchIndex>(TOKENS.SearchIndex),
    engine: env.runtime.get<WorkflowEngine>(TOKENS.WorkflowEngine),
    events: env.runtime.get<EventStore>(TOKENS.EventStore),
  };
}
type Services = Awaited<ReturnType<typeof start>>;

async function record(s: Services, name: string, body: Buffer, type: string, transcription?: { keyset_id: string; model: string }) {
  const registered = await s.library.registerUpload(
    owner,
    { document_name: name, document_type: type, document_size: body.length, page_count: 0, document_source: "audio", transcription_data: transcription },
    ctx,
  );
  const token = new URL(registered.url, "http://x").searchParams.get("token")!;
  await s.library.receiveUpload(registered.document_id, token, body, type, ctx);
  await s.engine.waitForCompletion(`ingestion-${registered.document_id}`, 120_000);
  await env.runtime.get<{ waitForPosition(p: number): Promise<boolean> }>(TOKENS.ProjectionWaiter).waitForPosition(await s.events.headPosition());
  return { id: registered.document_id, document: await s.queries.getDocument(owner, registered.document_id) };
}

const MEETING = [
  "The quarterly budget meeting is scheduled for Friday morning.",
  "We will discuss the new marketing plan and hire two engineers.",
  "Please send your travel expenses to the finance office before noon.",
];

describe.skipIf(!tools)("a spoken recording transcribed offline", () => {
  it("becomes an Active document of timed transcript pages, marked basic quality and searchable", async () => {
    const s = await start();
    const { id, document } = await record(s, "meeting.wav", concatenated(MEETING.map((line) => speak(line))), "audio/wav");
    expect(document).toMatchObject({ status: "ACTIVE", source: "audio", warnings: [OFFLINE_TRANSCRIPT_NOTE] });
    const pages = await s.queries.pages(owner, id);
    expect(pages).toHaveLength(1);
    expect(pages[0]!.text).toMatch(/^\[0:0\d – 0:\d\d\]\n/);
    expect(pages[0]!.timeRange!.endSeconds).toBeGreaterThan(10);
    // Each sentence was its own utterance, so a segment starts near each one.
    expect(pages[0]!.segments!.length).toBeGreaterThanOrEqual(3);
    const spoken = pages[0]!.segments!.map((seg) => seg.text).join(" ");
    expect(wordErrorRate(MEETING.join(" "), spoken)).toBeLessThan(0.35);
    const finance = pages[0]!.segments!.find((seg) => /finance/.test(seg.text));
    expect(finance!.startSeconds).toBeGreaterThan(pages[0]!.segments![0]!.startSeconds + 5);
    const hits = await s.search.searchText("budget meeting friday", { documentIds: [id] }, 3);
    expect(hits[0]?.chunk).toMatchObject({ documentId: id, pageNumber: 1 });
  });

  it("transcribes a long recording in pieces, reporting progress after each, with times across the whole", async () => {
    const s = await start(new PocketsphinxTranscriber({ pieceSeconds: 8 }));
    const { id, document } = await record(s, "long.wav", concatenated(MEETING.map((line) => speak(line)), 2), "audio/wav");
    expect(document.status).toBe("ACTIVE");
    const progress = (await s.events.readStream(`document-${id}`)).filter((e) => e.type === "DocumentTranscriptionProgressed");
    expect(progress.length).toBeGreaterThanOrEqual(2);
    const done = progress.map((e) => (e.data as { secondsDone: number }).secondsDone);
    expect(done).toEqual([...done].sort((a, b) => a - b));
    const last = progress.at(-1)!.data as { secondsDone: number; secondsTotal: number };
    expect(last.secondsDone).toBeCloseTo(last.secondsTotal, 0);
    const segments = (await s.queries.pages(owner, id))[0]!.segments!;
    expect(segments.at(-1)!.startSeconds).toBeGreaterThan(9);
  });

  it("takes a recording at an odd sample rate (11025 Hz mp3) by resampling it", async () => {
    const s = await start();
    const clip = reencode(speak(MEETING[0]!), "mp3", ["-ar", "11025"]);
    const { document } = await record(s, "memo.mp3", clip, "audio/mpeg");
    expect(document.status).toBe("ACTIVE");
  });
});

describe.skipIf(!tools)("a recording transcribed by the model of the user's keyset", () => {
  it("goes to the chosen OpenAI model and keeps its segments, without the offline mark", async () => {
    const calls: string[] = [];
    site = await startLocalSite((req, res) => {
      req.resume();
      req.on("end", () => {
        calls.push(`${req.method} ${req.url}`);
        res.writeHead(200, { "content-type": "application/json" });
        if (req.url === "/v1/models") return res.end(JSON.stringify({ object: "list", data: [{ id: "gpt-4o-mini", object: "model" }, { id: "whisper-1", object: "model" }] }));
        res.end(
          JSON.stringify({
            task: "transcribe",
            language: "english",
            duration: 7,
            text: "The quarterly budget meeting is scheduled for Friday morning.",
            segments: [{ id: 0, seek: 0, start: 0.3, end: 3.5, text: " The quarterly budget meeting is scheduled for Friday morning.", tokens: [1], temperature: 0, avg_logprob: -0.1, compression_ratio: 1, no_speech_prob: 0 }],
          }),
        );
      });
    }, HOST);
    const s = await start(undefined, site);
    const keyset = await env.runtime.container.get(KeysetService).add(owner, { name: "OpenAI", apiKey: KEY, provider: "OpenAI", subProvider: "OpenAI" }, ctx);
    // Chosen like the embedding model: a default in Chat Settings (a keyset's transcription model, or offline), checked.
    const keysets = env.runtime.container.get(KeysetService);
    expect((await keysets.defaults(owner)).transcription).toEqual({ keysetId: "docuchat", model: "offline" });
    await keysets.chooseDefault(owner, { scope: "transcription", keysetId: keyset.keysetId, model: "whisper-1" }, ctx);
    expect((await keysets.defaults(owner)).transcription).toEqual({ keysetId: keyset.keysetId, model: "whisper-1" });
    await expect(keysets.chooseDefault(owner, { scope: "transcription", keysetId: keyset.keysetId, model: "gpt-4o-mini" }, ctx)).rejects.toMatchObject({ code: "VALIDATION" });
    const { id, document } = await record(s, "memo.wav", speak(MEETING[0]!), "audio/wav", { keyset_id: keyset.keysetId, model: "whisper-1" });
    expect(document).toMatchObject({ status: "ACTIVE", warnings: [] });
    expect(calls).toContain("POST /v1/audio/transcriptions");
    const [page] = await s.queries.pages(owner, id);
    expect(page!.segments).toEqual([{ startSeconds: 0.3, endSeconds: 3.5, text: "The quarterly budget meeting is scheduled for Friday morning." }]);
  });

  it("falls back to offline, and says so, when the chosen keyset is not the user's", async () => {
    const s = await start();
    const { document } = await record(s, "memo.wav", speak(MEETING[0]!), "audio/wav", { keyset_id: "someone-elses-keyset", model: "whisper-1" });
    expect(document.status).toBe("ACTIVE");
    expect(document.warnings).toEqual(["The chosen transcription model is no longer available, so this recording was transcribed offline.", OFFLINE_TRANSCRIPT_NOTE]);
  });
});

describe.skipIf(!tools)("a video link", () => {
  const VIDEO_HOST = "video.example.test";
  async function startWithVideoSite(player: unknown, sound?: Buffer) {
    site = await startLocalSite((req, res) => {
      const url = new URL(req.url ?? "/", "http://x");
      if (url.pathname === "/watch") {
        res.writeHead(200, { "content-type": "text/html" });
        return res.end(`<html><head><meta property="og:title" content="Budget talk"></head><body><script>var ytInitialPlayerResponse = ${JSON.stringify(player)};</script></body></html>`);
      }
      if (url.pathname === "/videoplayback" && sound) {
        res.writeHead(200, { "content-type": "audio/webm" });
        return res.end(sound);
      }
      if (url.pathname === "/api/timedtext") {
        res.writeHead(200, { "content-type": "text/xml" });
        return res.end('<transcript><text start="0" dur="2">The Danube flows</text><text start="2" dur="2">east to the sea.</text><text start="200" dur="3">Vienna is on its banks.</text></transcript>');
      }
      res.writeHead(404).end();
    }, VIDEO_HOST);
    const egress = egressFor(VIDEO_HOST);
    env = await createTestRuntime({ egress, videoSource: new EgressVideoSource(egress, { baseUrl: site.origin }) });
    return {
      library: env.runtime.container.get(LibraryService),
      lookup: env.runtime.container.get(LinkLookup),
      queries: env.runtime.container.get(LibraryQueries),
      engine: env.runtime.get<WorkflowEngine>(TOKENS.WorkflowEngine),
      events: env.runtime.get<EventStore>(TOKENS.EventStore),
    };
  }
  async function link(s: Awaited<ReturnType<typeof startWithVideoSite>>) {
    const { documentId } = await s.library.registerLink(owner, { source: "youtube_link", url: "https://youtu.be/dQw4w9WgXcQ" }, ctx);
    await s.engine.waitForCompletion(`ingestion-${documentId}`, 120_000);
    await env.runtime.get<{ waitForPosition(p: number): Promise<boolean> }>(TOKENS.ProjectionWaiter).waitForPosition(await s.events.headPosition());
    return { id: documentId, document: await s.queries.getDocument(owner, documentId) };
  }

  it("without captions is transcribed from its sound, fetched through the egress, into timed pages", async () => {
    const sound = reencode(speak(MEETING[0]!), "webm", ["-c:a", "libopus", "-b:a", "32k"]);
    const s = await startWithVideoSite(
      { playabilityStatus: { status: "OK" }, streamingData: { adaptiveFormats: [{ mimeType: 'audio/webm; codecs="opus"', bitrate: 32000, url: "/videoplayback" }] } },
      sound,
    );
    const { id, document } = await link(s);
    expect(document).toMatchObject({ status: "ACTIVE", source: "youtube_link", kind: "audio", name: "Budget talk", warnings: [OFFLINE_TRANSCRIPT_NOTE] });
    const [page] = await s.queries.pages(owner, id);
    expect(page!.text).toMatch(/budget meeting/i);
    expect(page!.segments!.length).toBeGreaterThan(0);
  });

  it("without captions or a sound that can be fetched is refused at submit, with the spec's text", async () => {
    const s = await startWithVideoSite({ playabilityStatus: { status: "OK" }, streamingData: { adaptiveFormats: [{ mimeType: "audio/webm", signatureCipher: "s=x&url=y" }] } });
    await expect(s.lookup.check({ source: "youtube_link", url: "https://youtu.be/dQw4w9WgXcQ" })).rejects.toMatchObject({
      code: "LINK_NOT_FOUND",
      message: expect.stringMatching(/^Failed to fetch video details/),
    });
    expect((await s.queries.listDocuments(owner)).documents).toEqual([]);
  });

  it("that is gone is refused at submit with 'Video Not Found'", async () => {
    const s = await startWithVideoSite({ playabilityStatus: { status: "ERROR", reason: "This video isn't available anymore" } });
    await expect(s.lookup.check({ source: "youtube_link", url: "https://youtu.be/dQw4w9WgXcQ" })).rejects.toMatchObject({ message: "Video Not Found" });
  });

  it("with captions becomes timed pages too, its caption lines run together", async () => {
    const s = await startWithVideoSite({
      playabilityStatus: { status: "OK" },
      captions: { playerCaptionsTracklistRenderer: { captionTracks: [{ baseUrl: "/api/timedtext?v=x", languageCode: "en" }] } },
    });
    const { id, document } = await link(s);
    expect(document).toMatchObject({ status: "ACTIVE", kind: "video" });
    const pages = await s.queries.pages(owner, id);
    expect(pages.map((p) => p.text)).toEqual(["[0:00 – 0:07]\nThe Danube flows east to the sea.", "[3:20 – 3:25]\nVienna is on its banks."]);
  });
});

describe.skipIf(!tools)("a bad recording ends Failed with a reason the user can act on", () => {
  it("is silent", async () => {
    const s = await start();
    const { document } = await record(s, "silence.wav", generated("anullsrc=r=16000:cl=mono", 5, "wav"), "audio/wav");
    expect(document).toMatchObject({ status: "FAILED", failureReason: expect.stringMatching(/silent/) });
  });

  it("is three hours long", async () => {
    const s = await start();
    const threeHours = generated("anullsrc=r=8000:cl=mono", 3 * 3600, "mp3", ["-b:a", "8k"]);
    const { document } = await record(s, "lecture.mp3", threeHours, "audio/mpeg");
    expect(document).toMatchObject({ status: "FAILED", failureReason: expect.stringMatching(/3 h 0 min long; recordings up to 1 h 0 min/) });
  }, 90_000);

  it("claims to be audio and is not", async () => {
    const s = await start();
    const { document } = await record(s, "notes.mp3", Buffer.from("ID3 these are meeting notes typed as text, not a recording"), "audio/mpeg");
    expect(document).toMatchObject({ status: "FAILED", failureReason: expect.stringMatching(/not a recording that could be read/) });
  });

  it("is a corrupt WAV", async () => {
    const s = await start();
    const corrupt = Buffer.concat([Buffer.from("RIFF\x24\x00\x00\x00WAVEfmt ", "latin1"), Buffer.alloc(400, 0x5a)]);
    const { document } = await record(s, "broken.wav", corrupt, "audio/wav");
    expect(document).toMatchObject({ status: "FAILED", failureReason: expect.stringMatching(/WAV recording is damaged/) });
  });

  it("uses a codec that cannot be decoded", async () => {
    const s = await start();
    const fmt = Buffer.alloc(16);
    fmt.writeUInt16LE(0x3333, 0); // a format tag no decoder knows
    fmt.writeUInt16LE(1, 2);
    fmt.writeUInt32LE(16000, 4);
    fmt.writeUInt32LE(32000, 8);
    fmt.writeUInt16LE(2, 12);
    fmt.writeUInt16LE(16, 14);
    const data = Buffer.alloc(32000, 1);
    const len = (n: number) => {
      const b = Buffer.alloc(4);
      b.writeUInt32LE(n);
      return b;
    };
    const size = len(4 + 24 + 8 + data.length);
    const wav = Buffer.concat([Buffer.from("RIFF"), size, Buffer.from("WAVEfmt "), len(16), fmt, Buffer.from("data"), len(data.length), data]);
    const { document } = await record(s, "odd-codec.wav", wav, "audio/wav");
    expect(document).toMatchObject({ status: "FAILED", failureReason: expect.stringMatching(/sound format that cannot be decoded/) });
  });

  it("has a sample rate too low for speech (4 kHz)", async () => {
    const s = await start();
    const low = reencode(speak(MEETING[0]!), "wav", ["-ar", "4000"]);
    const { document } = await record(s, "low.wav", low, "audio/wav");
    expect(document).toMatchObject({ status: "FAILED", failureReason: expect.stringMatching(/sample rate \(4000 Hz\) is too low/) });
  });
});
