import { Parser } from "htmlparser2";
import { EgressError, type Egress } from "#application/ports/egress";
import type { VideoDetails, VideoSource } from "#application/ports/web-sources";
import { EgressHttpError } from "#infrastructure/egress/safe-egress";

/**
 * Title and transcript of a YouTube video, read from the public watch page
 * and the caption track it names, every request through the Egress port.
 *
 * Honest limits: this reads what the page exposes (og:title / <title>, and
 * `ytInitialPlayerResponse.captions…captionTracks[].baseUrl`). YouTube may
 * answer servers with a consent page, or caption URLs that need extra
 * tokens; then this says it failed, with a reason the user can read, rather
 * than guessing. No API key, no third-party service.
 */

export type VideoSourceErrorCode = "VIDEO_NOT_FOUND" | "FETCH_FAILED" | "NO_CAPTIONS";

export const VIDEO_MESSAGES: Record<VideoSourceErrorCode, string> = {
  VIDEO_NOT_FOUND: "Video Not Found",
  FETCH_FAILED: "Failed to fetch video details",
  NO_CAPTIONS: "Failed to fetch video details: the video has no captions, and its sound could not be fetched to transcribe it.",
};

export class VideoSourceError extends Error {
  /** The message is meant for the user (ingestion shows it as the failure reason). */
  readonly userFacing = true;
  constructor(
    readonly code: VideoSourceErrorCode,
    /** What went wrong underneath, for logs; never shown to the user. */
    readonly detail?: string,
  ) {
    super(VIDEO_MESSAGES[code]);
    this.name = "VideoSourceError";
  }
}

export interface VideoSourceOptions {
  /** Where watch pages live; tests point this at a local server. */
  baseUrl?: string;
  /** Preferred caption language (en). */
  language?: string;
  maxPageBytes?: number;
  /** Largest sound of a caption-less video fetched to transcribe (default 100 MB). */
  maxAudioBytes?: number;
  timeoutMs?: number;
}

interface CaptionTrack {
  baseUrl: string;
  languageCode: string;
  kind: string;
}

const VIDEO_ID = /^[A-Za-z0-9_-]{11}$/;

/** What the watch page says: the title and the player response (captions, streams), or a readable failure. */
async function readWatchPage(videoId: string, egress: Egress, options: VideoSourceOptions) {
  const baseUrl = (options.baseUrl ?? "https://www.youtube.com").replace(/\/+$/, "");
  const language = options.language ?? "en";
  if (!VIDEO_ID.test(videoId)) throw new VideoSourceError("VIDEO_NOT_FOUND", "malformed video id");

  const watchUrl = `${baseUrl}/watch?v=${encodeURIComponent(videoId)}&hl=${encodeURIComponent(language)}`;
  let page: string;
  let pageUrl: string;
  try {
    const response = await egress.fetch({
      url: watchUrl,
      maxBytes: options.maxPageBytes ?? 8 * 1024 * 1024,
      timeoutMs: options.timeoutMs,
      headers: { accept: "text/html", "accept-language": `${language},en;q=0.8` },
    });
    page = response.body.toString("utf8");
    pageUrl = response.url;
  } catch (error) {
    if (error instanceof EgressHttpError && (error.status === 404 || error.status === 410)) {
      throw new VideoSourceError("VIDEO_NOT_FOUND", `watch page HTTP ${error.status}`);
    }
    throw new VideoSourceError("FETCH_FAILED", error instanceof Error ? error.message : "watch page failed");
  }

  const player = extractPlayerResponse(page);
  const status = stringAt(player, ["playabilityStatus", "status"]);
  if (status === "ERROR") throw new VideoSourceError("VIDEO_NOT_FOUND", stringAt(player, ["playabilityStatus", "reason"]) || "playability ERROR");

  const meta = readPageMeta(page);
  const title = meta.ogTitle || meta.title.replace(/\s*-\s*YouTube\s*$/, "") || stringAt(player, ["videoDetails", "title"]);
  if (!title || !player) throw new VideoSourceError("FETCH_FAILED", player ? "no title" : "no player response on the watch page");
  return { title, player, pageUrl, language };
}

/**
 * The submit-time check (decision 145): the watch page only. A video that is
 * gone, or has neither captions nor a sound stream with a plain URL, is
 * refused at once; anything the page cannot tell is left to ingestion.
 */
export async function lookupVideo(videoId: string, egress: Egress, options: VideoSourceOptions = {}): Promise<{ title: string }> {
  const { title, player } = await readWatchPage(videoId, egress, options);
  if (captionTracks(player).length === 0 && !plainAudioFormat(player)) throw new VideoSourceError("NO_CAPTIONS", "no caption tracks and no plain audio stream");
  return { title };
}

export async function fetchVideoDetails(videoId: string, egress: Egress, options: VideoSourceOptions = {}): Promise<VideoDetails> {
  const { title, player, pageUrl, language } = await readWatchPage(videoId, egress, options);
  const track = chooseTrack(captionTracks(player), language);
  if (!track) return { title, transcript: [], audio: await fetchAudio(player, pageUrl, egress, options, "no caption tracks") };

  let captionUrl: URL;
  try {
    captionUrl = new URL(track.baseUrl, pageUrl);
  } catch {
    throw new VideoSourceError("NO_CAPTIONS", "caption track URL is not valid");
  }
  let xml: string;
  try {
    const response = await egress.fetch({ url: captionUrl.href, maxBytes: 5 * 1024 * 1024, timeoutMs: options.timeoutMs });
    xml = response.body.toString("utf8");
  } catch (error) {
    throw new VideoSourceError("FETCH_FAILED", `captions: ${error instanceof EgressError ? error.message : String(error)}`);
  }
  const transcript = parseCaptions(xml);
  if (transcript.length === 0) return { title, transcript: [], audio: await fetchAudio(player, pageUrl, egress, options, "caption track is empty") };
  return { title, transcript };
}

/** The most the sound of a caption-less video may weigh (the recorded-audio upload limit). */
const MAX_VIDEO_AUDIO_BYTES = 100 * 1024 * 1024;

/**
 * The sound of a video without captions, for the transcriber (decision 145):
 * the smallest audio-only stream the player response gives a plain URL for,
 * fetched through the egress. Streams behind a signature cipher (most of
 * YouTube's today) cannot be fetched without running the site's player
 * code, which this does not do: then the video fails with the spec's text.
 */
async function fetchAudio(player: Record<string, unknown> | null, pageUrl: string, egress: Egress, options: VideoSourceOptions, why: string): Promise<{ bytes: Buffer; contentType: string }> {
  const audio = plainAudioFormat(player);
  if (!audio) throw new VideoSourceError("NO_CAPTIONS", `${why}; no audio stream with a plain URL`);
  try {
    const url = new URL(String(audio.url), pageUrl).href;
    const response = await egress.fetch({ url, maxBytes: options.maxAudioBytes ?? MAX_VIDEO_AUDIO_BYTES, timeoutMs: options.timeoutMs ?? 5 * 60_000 });
    return { bytes: response.body, contentType: String(audio.mimeType).split(";")[0]! };
  } catch (error) {
    throw new VideoSourceError("NO_CAPTIONS", `${why}; audio: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** The smallest audio-only stream with a plain URL (none behind a signature cipher). */
function plainAudioFormat(player: Record<string, unknown> | null): Record<string, unknown> | undefined {
  const formats = valueAt(player, ["streamingData", "adaptiveFormats"]);
  return (Array.isArray(formats) ? formats.filter(isRecord) : [])
    .filter((f) => typeof f.url === "string" && typeof f.mimeType === "string" && f.mimeType.startsWith("audio/"))
    .sort((a, b) => Number(a.bitrate ?? Infinity) - Number(b.bitrate ?? Infinity))[0];
}

/** The VideoSource port over fetchVideoDetails. */
export class EgressVideoSource implements VideoSource {
  constructor(
    private readonly egress: Egress,
    private readonly options: VideoSourceOptions = {},
  ) {}

  details(videoId: string): Promise<VideoDetails> {
    return fetchVideoDetails(videoId, this.egress, this.options);
  }

  lookup(videoId: string): Promise<{ title: string }> {
    return lookupVideo(videoId, this.egress, this.options);
  }
}

// ---- watch page ----

/** The JSON object assigned to ytInitialPlayerResponse, cut out by brace matching (strings respected). */
export function extractPlayerResponse(html: string): Record<string, unknown> | null {
  const marker = /ytInitialPlayerResponse\s*=\s*\{/g;
  for (let match = marker.exec(html); match; match = marker.exec(html)) {
    const start = match.index + match[0].length - 1;
    let depth = 0;
    let inString = false;
    for (let i = start; i < html.length; i++) {
      const c = html[i];
      if (inString) {
        if (c === "\\") i++;
        else if (c === '"') inString = false;
      } else if (c === '"') inString = true;
      else if (c === "{") depth++;
      else if (c === "}" && --depth === 0) {
        try {
          const value: unknown = JSON.parse(html.slice(start, i + 1));
          if (isRecord(value)) return value;
        } catch {
          /* try the next occurrence */
        }
        break;
      }
    }
  }
  return null;
}

function readPageMeta(html: string): { title: string; ogTitle: string } {
  let title = "";
  let ogTitle = "";
  let inTitle = false;
  let titleDone = false;
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (name === "title" && !titleDone) inTitle = true;
        if (name === "meta" && !ogTitle && (attributes.property === "og:title" || attributes.name === "og:title")) ogTitle = (attributes.content ?? "").trim();
      },
      ontext(text) {
        if (inTitle) title += text;
      },
      onclosetag(name) {
        if (name === "title" && inTitle) {
          inTitle = false;
          titleDone = true;
        }
      },
    },
    { decodeEntities: true },
  );
  parser.write(html);
  parser.end();
  return { title: title.replace(/\s+/g, " ").trim(), ogTitle };
}

function captionTracks(player: Record<string, unknown> | null): CaptionTrack[] {
  const tracks = valueAt(player, ["captions", "playerCaptionsTracklistRenderer", "captionTracks"]);
  if (!Array.isArray(tracks)) return [];
  return tracks.filter(isRecord).flatMap((t) =>
    typeof t.baseUrl === "string" && t.baseUrl !== ""
      ? [{ baseUrl: t.baseUrl, languageCode: typeof t.languageCode === "string" ? t.languageCode : "", kind: typeof t.kind === "string" ? t.kind : "" }]
      : [],
  );
}

/** Human captions in the language first, then automatic ones in it, then human in any, then anything. */
function chooseTrack(tracks: CaptionTrack[], language: string): CaptionTrack | undefined {
  const inLanguage = (t: CaptionTrack) => t.languageCode.toLowerCase().split("-")[0] === language.toLowerCase();
  return (
    tracks.find((t) => inLanguage(t) && t.kind !== "asr") ??
    tracks.find((t) => inLanguage(t)) ??
    tracks.find((t) => t.kind !== "asr") ??
    tracks[0]
  );
}

// ---- captions ----

/** Timed text in the classic form (<text start dur>) or format 3 (<p t d> in milliseconds). */
export function parseCaptions(xml: string): { text: string; startSeconds: number }[] {
  const cues: { text: string; startSeconds: number }[] = [];
  let current: { text: string; startSeconds: number } | null = null;
  let depth = 0;
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (current) {
          depth++;
          if (name === "br") current.text += " ";
          return;
        }
        if (name === "text" && attributes.start !== undefined) current = { text: "", startSeconds: Number(attributes.start) };
        else if (name === "p" && attributes.t !== undefined) current = { text: "", startSeconds: Number(attributes.t) / 1000 };
        depth = 0;
      },
      ontext(text) {
        if (current) current.text += text;
      },
      onclosetag() {
        if (!current) return;
        if (depth > 0) {
          depth--;
          return;
        }
        const text = decodeHtmlEntities(current.text).replace(/<[^>]*>/g, "").replace(/\s+/g, " ").trim();
        if (text !== "" && Number.isFinite(current.startSeconds)) cues.push({ text, startSeconds: Math.round(current.startSeconds * 1000) / 1000 });
        current = null;
      },
    },
    { xmlMode: true, decodeEntities: true },
  );
  parser.write(xml);
  parser.end();
  return cues;
}

/** Caption text is HTML-escaped inside XML (`&amp;#39;`): one more decoding pass for the common entities. */
function decodeHtmlEntities(text: string): string {
  const named: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " };
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, entity: string) => {
    if (entity[0] === "#") {
      const code = entity[1] === "x" || entity[1] === "X" ? parseInt(entity.slice(2), 16) : parseInt(entity.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return named[entity.toLowerCase()] ?? whole;
  });
}

// ---- small JSON helpers ----

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function valueAt(value: unknown, path: string[]): unknown {
  let current = value;
  for (const key of path) {
    if (!isRecord(current)) return undefined;
    current = current[key];
  }
  return current;
}

function stringAt(value: unknown, path: string[]): string {
  const found = valueAt(value, path);
  return typeof found === "string" ? found : "";
}
