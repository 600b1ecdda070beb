import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { egressFor, startLocalSite, type LocalSite } from "#infrastructure/egress/testing/local-site";
import { EgressVideoSource, extractPlayerResponse, fetchVideoDetails, parseCaptions, VideoSourceError } from "./video-source";

const HOST = "video.example.test";

/** A watch page shaped like the real one: inline player response JSON with `\u0026` escapes, og:title, <title>. */
function watchPage(options: { title?: string; ogTitle?: string; player: unknown }): string {
  const json = JSON.stringify(options.player).replace(/&/g, "\\u0026");
  return (
    `<!DOCTYPE html><html lang="en"><head><title>${options.title ?? ""}</title>` +
    (options.ogTitle ? `<meta property="og:title" content="${options.ogTitle}">` : "") +
    `<script nonce="abc">var ytcfg = {"x": "}{"};</script></head><body>` +
    `<script nonce="abc">var ytInitialPlayerResponse = ${json};var meta = document.createElement('meta');</script>` +
    `</body></html>`
  );
}

const CLASSIC_XML =
  '<?xml version="1.0" encoding="utf-8" ?><transcript>' +
  '<text start="0.5" dur="2.1">Hello and welcome</text>' +
  '<text start="2.6" dur="3">it&amp;#39;s a\ntest &amp;amp; more</text>' +
  '<text start="6" dur="1"></text>' +
  '<text start="7.25" dur="1">[Music]</text></transcript>';

const SRV3_XML =
  '<?xml version="1.0" encoding="utf-8" ?><timedtext format="3"><body>' +
  '<p t="1000" d="2000"><s>first</s><s t="500"> words</s></p>' +
  '<p t="3500" d="1000">second<br/>line</p></body></timedtext>';

describe("fetchVideoDetails", () => {
  let site: LocalSite;
  const player = (id: string, captionTracks?: unknown[]) => ({
    playabilityStatus: { status: "OK" },
    videoDetails: { videoId: id, title: `Player title ${id}` },
    ...(captionTracks ? { captions: { playerCaptionsTracklistRenderer: { captionTracks } } } : {}),
  });

  beforeAll(async () => {
    site = await startLocalSite((req, res) => {
      const url = new URL(req.url ?? "/", "http://local");
      const origin = `http://${HOST}:${site.port}`;
      const send = (status: number, type: string, body: string) => {
        res.writeHead(status, { "content-type": type });
        res.end(body);
      };
      if (url.pathname === "/api/timedtext") {
        const v = url.searchParams.get("v");
        if (v === "EmptyCapti1") return send(200, "text/xml", "");
        if (url.searchParams.get("fmt") === "srv3") return send(200, "text/xml", SRV3_XML);
        if (url.searchParams.get("kind") === "asr") return send(200, "text/xml", '<transcript><text start="0">automatic</text></transcript>');
        return send(200, "text/xml", CLASSIC_XML);
      }
      if (url.pathname === "/videoplayback") return send(200, "audio/webm", "OggS-like sound bytes");
      if (url.pathname !== "/watch") return send(404, "text/plain", "not found");
      const id = url.searchParams.get("v") ?? "";
      const track = (query: string, extra: Record<string, string> = {}) => ({
        baseUrl: `${origin}/api/timedtext?v=${id}&lang=en${query}`,
        name: { simpleText: "English" },
        languageCode: "en",
        ...extra,
      });
      switch (id) {
        case "GoodVideo01":
          return send(
            200,
            "text/html; charset=utf-8",
            watchPage({
              title: "A &amp; B talk - YouTube",
              ogTitle: "A &amp; B talk",
              player: player(id, [track("&kind=asr", { kind: "asr" }), { ...track(""), languageCode: "de" }, track("")]),
            }),
          );
        case "Srv3Video01":
          return send(200, "text/html", watchPage({ title: "Srv3 - YouTube", ogTitle: "Srv3", player: player(id, [track("&fmt=srv3")]) }));
        case "TitleOnly01":
          return send(200, "text/html", watchPage({ title: "Only the title tag - YouTube", player: player(id, [{ ...track(""), baseUrl: `/api/timedtext?v=${id}` }]) }));
        case "MissingVid1":
          return send(200, "text/html", watchPage({ title: " - YouTube", player: { playabilityStatus: { status: "ERROR", reason: "This video isn't available anymore" } } }));
        case "NoCaptions1":
          return send(200, "text/html", watchPage({ title: "Silent - YouTube", ogTitle: "Silent", player: player(id) }));
        case "EmptyCapti1":
          return send(200, "text/html", watchPage({ title: "Empty - YouTube", ogTitle: "Empty", player: player(id, [track("")]) }));
        case "SoundOnly01":
          return send(
            200,
            "text/html",
            watchPage({
              ogTitle: "A talk without captions",
              player: {
                ...player(id),
                streamingData: {
                  adaptiveFormats: [
                    { itag: 137, mimeType: 'video/mp4; codecs="avc1.640028"', bitrate: 4000000, url: `${origin}/videoplayback?itag=137` },
                    { itag: 251, mimeType: 'audio/webm; codecs="opus"', bitrate: 160000, url: `${origin}/videoplayback?itag=251` },
                    { itag: 249, mimeType: 'audio/webm; codecs="opus"', bitrate: 50000, url: `${origin}/videoplayback?itag=249` },
                  ],
                },
              },
            }),
          );
        case "CipherOnly1":
          return send(
            200,
            "text/html",
            watchPage({
              ogTitle: "Ciphered",
              player: { ...player(id), streamingData: { adaptiveFormats: [{ itag: 251, mimeType: 'audio/webm; codecs="opus"', signatureCipher: "s=abc&url=https%3A%2F%2Fexample" }] } },
            }),
          );
        case "MetadataCap":
          return send(200, "text/html", watchPage({ ogTitle: "Sneaky", player: player(id, [{ ...track(""), baseUrl: "http://169.254.169.254/latest/meta-data/" }]) }));
        case "ConsentPage":
          return send(200, "text/html", "<html><head><title>Before you continue to YouTube</title></head><body>consent</body></html>");
        case "Broken50001":
          return send(500, "text/html", "oops");
        default:
          return send(404, "text/html", "<title>404 Not Found</title>");
      }
    }, HOST);
  });
  afterAll(() => site.close());

  const fetchIt = (id: string) => fetchVideoDetails(id, egressFor(HOST), { baseUrl: `http://${HOST}:${site.port}/` });
  const failure = async (id: string): Promise<VideoSourceError> => {
    try {
      await fetchIt(id);
    } catch (error) {
      if (error instanceof VideoSourceError) return error;
      throw error;
    }
    throw new Error("expected a failure");
  };

  it("reads the title and the human English captions", async () => {
    const details = await fetchIt("GoodVideo01");
    expect(details.title).toBe("A & B talk");
    expect(details.transcript).toEqual([
      { text: "Hello and welcome", startSeconds: 0.5 },
      { text: "it's a test & more", startSeconds: 2.6 },
      { text: "[Music]", startSeconds: 7.25 },
    ]);
    expect(site.requests.some((r) => r.startsWith("/watch?v=GoodVideo01"))).toBe(true);
    expect(site.requests).toContain("/api/timedtext?v=GoodVideo01&lang=en");
  });

  it("reads format 3 captions, a <title> without og:title and a relative track URL", async () => {
    expect((await fetchIt("Srv3Video01")).transcript).toEqual([
      { text: "first words", startSeconds: 1 },
      { text: "second line", startSeconds: 3.5 },
    ]);
    const titled = await fetchIt("TitleOnly01");
    expect(titled.title).toBe("Only the title tag");
    expect(titled.transcript[0].text).toBe("Hello and welcome");
  });

  it.each([
    ["MissingVid1", "Video Not Found"],
    ["Gone404Vid1", "Video Not Found"],
    ["bad id", "Video Not Found"],
    ["Broken50001", "Failed to fetch video details"],
    ["ConsentPage", "Failed to fetch video details"],
    ["MetadataCap", "Failed to fetch video details"], // the caption URL is checked by the egress too
    ["NoCaptions1", "Failed to fetch video details: the video has no captions, and its sound could not be fetched to transcribe it."],
    ["EmptyCapti1", "Failed to fetch video details: the video has no captions, and its sound could not be fetched to transcribe it."],
    ["CipherOnly1", "Failed to fetch video details: the video has no captions, and its sound could not be fetched to transcribe it."],
  ])("%s fails with '%s'", async (id, message) => {
    const error = await failure(id);
    expect(error.message).toBe(message);
  });

  it("fetches the smallest audio stream of a video without captions, to transcribe it", async () => {
    const details = await fetchIt("SoundOnly01");
    expect(details.title).toBe("A talk without captions");
    expect(details.transcript).toEqual([]);
    expect(details.audio?.contentType).toBe("audio/webm");
    expect(details.audio?.bytes.toString()).toBe("OggS-like sound bytes");
    expect(site.requests).toContain("/videoplayback?itag=249");
  });

  it("looks a video up at submit time from its watch page alone", async () => {
    const source = new EgressVideoSource(egressFor(HOST), { baseUrl: `http://${HOST}:${site.port}` });
    const fetchedSound = () => site.requests.filter((r) => r.startsWith("/videoplayback") || r.startsWith("/api/timedtext")).length;
    const before = fetchedSound();
    expect(await source.lookup("SoundOnly01")).toEqual({ title: "A talk without captions" });
    expect(await source.lookup("GoodVideo01")).toEqual({ title: "A & B talk" });
    expect(fetchedSound()).toBe(before); // neither sound nor captions are fetched to look a video up
    await expect(source.lookup("CipherOnly1")).rejects.toMatchObject({ code: "NO_CAPTIONS", message: expect.stringMatching(/^Failed to fetch video details/) });
    await expect(source.lookup("MissingVid1")).rejects.toMatchObject({ code: "VIDEO_NOT_FOUND", message: "Video Not Found" });
  });

  it("fails readably when the site cannot be reached", async () => {
    // The default egress refuses the loopback address itself; a closed port answers nothing.
    await expect(fetchVideoDetails("GoodVideo01", egressFor(HOST), { baseUrl: `http://127.0.0.1:${site.port}` })).rejects.toThrow("Failed to fetch video details");
    const closed = await startLocalSite(() => {}, HOST);
    await closed.close();
    await expect(fetchVideoDetails("GoodVideo01", egressFor(HOST), { baseUrl: closed.origin })).rejects.toThrow("Failed to fetch video details");
  });

  it("is the VideoSource port", async () => {
    const source = new EgressVideoSource(egressFor(HOST), { baseUrl: `http://${HOST}:${site.port}` });
    expect((await source.details("GoodVideo01")).title).toBe("A & B talk");
  });
});

describe("page and caption parsing", () => {
  it("cuts the player response out even with braces inside strings", () => {
    const html = `<script>var ytInitialPlayerResponse = {"a":"} { \\" }","b":{"c":1}};var x = {};</script>`;
    expect(extractPlayerResponse(html)).toEqual({ a: '} { " }', b: { c: 1 } });
    expect(extractPlayerResponse("<html></html>")).toBeNull();
  });

  it("returns no cues for text that is not captions", () => {
    expect(parseCaptions("")).toEqual([]);
    expect(parseCaptions("<html><body>Sign in</body></html>")).toEqual([]);
  });
});
