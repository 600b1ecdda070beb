import { z } from "zod";

/**
 * Link uploads (spec §5 'Link uploads', §2 'Upload by link'): the validators
 * for YouTube, Website and DocumentURL links and the crawl depth, with the
 * spec's exact messages. Pure: used by the browser form and by the server.
 * Passing these rules says nothing about whether the address may be fetched;
 * the server's egress decides that (ARCHITECTURE §8).
 */

export const LINK_TYPES = ["YouTube", "Website", "DocumentURL"] as const;
export type LinkType = (typeof LINK_TYPES)[number];

export const LINK_MESSAGES = {
  noUrl: "No URL Provided",
  invalid: (type: LinkType) => `Invalid ${type} URL`,
  depthRange: "Depth must be between 1 and 5",
  depthPositive: "Depth must be a positive number!",
  videoNotFound: "Video Not Found",
  videoDetailsFailed: "Failed to fetch video details",
  documentNotFound: "Document Not Found",
  invalidUrl: "Invalid URL",
} as const;

export const MIN_CRAWL_DEPTH = 1;
export const MAX_CRAWL_DEPTH = 5;

const VIDEO_ID = /^[A-Za-z0-9_-]{11}$/;
const YOUTUBE_HOSTS = new Set(["youtube.com", "www.youtube.com", "m.youtube.com"]);
const SHORT_HOSTS = new Set(["youtu.be", "www.youtu.be"]);
const DOCUMENT_EXTENSIONS = ["pdf", "docx", "txt", "doc", "xls", "xlsx"] as const;

/** Optional scheme (http, https, ftp, smtp), a host with a top-level domain, an optional port and path. */
const WEBSITE = /^(?:(?:https?|ftp|smtp):\/\/)?(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}(?::\d{1,5})?(?:[/?#][^\s]*)?$/i;
const HAS_SCHEME = /^[a-z][a-z0-9+.-]*:\/\//i;

export type LinkResult<T> = T | { error: string };

export const isLinkError = <T extends object>(result: LinkResult<T>): result is { error: string } => "error" in result;

const isBlank = (url: string | null | undefined): boolean => (url ?? "").trim() === "";

function parseHttpUrl(input: string): URL | null {
  const text = HAS_SCHEME.test(input) ? input : `https://${input}`;
  try {
    const url = new URL(text);
    return url.protocol === "http:" || url.protocol === "https:" ? url : null;
  } catch {
    return null;
  }
}

/** YouTube watch (`youtube.com/watch?v=ID`), embed (`youtube.com/embed/ID`) or short (`youtu.be/ID`) link; `www.` and `m.` allowed. */
export function parseVideoLink(input: string | null | undefined): LinkResult<{ videoId: string }> {
  if (isBlank(input)) return { error: LINK_MESSAGES.noUrl };
  const invalid = { error: LINK_MESSAGES.invalid("YouTube") };
  const url = parseHttpUrl((input ?? "").trim());
  if (!url || url.username || url.password || url.port) return invalid;
  const host = url.hostname.toLowerCase();
  let id: string | null = null;
  if (YOUTUBE_HOSTS.has(host)) {
    if (url.pathname === "/watch" || url.pathname === "/watch/") id = url.searchParams.get("v");
    else {
      const embed = /^\/embed\/([^/]+)\/?$/.exec(url.pathname);
      if (embed) id = embed[1];
    }
  } else if (SHORT_HOSTS.has(host)) {
    const short = /^\/([^/]+)\/?$/.exec(url.pathname);
    if (short) id = short[1];
  }
  return id !== null && VIDEO_ID.test(id) ? { videoId: id } : invalid;
}

/**
 * Website link per the spec (scheme optional: http, https, ftp or smtp).
 * A scheme-less input is normalised to https://. Only http(s) links can be
 * crawled later; ftp/smtp pass this form rule and are refused by the egress.
 */
export function parseWebsiteLink(input: string | null | undefined): LinkResult<{ url: string }> {
  if (isBlank(input)) return { error: LINK_MESSAGES.noUrl };
  const text = (input ?? "").trim();
  if (!WEBSITE.test(text)) return { error: LINK_MESSAGES.invalid("Website") };
  return { url: HAS_SCHEME.test(text) ? text : `https://${text}` };
}

/** An http(s) link whose path ends in .pdf, .docx, .txt, .doc, .xls or .xlsx (a query string after it is allowed). */
export function parseDocumentLink(input: string | null | undefined): LinkResult<{ url: string; extension: (typeof DOCUMENT_EXTENSIONS)[number] }> {
  if (isBlank(input)) return { error: LINK_MESSAGES.noUrl };
  const invalid = { error: LINK_MESSAGES.invalid("DocumentURL") };
  const text = (input ?? "").trim();
  if (!/^https?:\/\//i.test(text)) return invalid;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return invalid;
  }
  if (!url.hostname.includes(".")) return invalid;
  const match = /\.([a-z]+)$/i.exec(url.pathname);
  const extension = DOCUMENT_EXTENSIONS.find((ext) => ext === match?.[1].toLowerCase());
  return extension ? { url: url.href, extension } : invalid;
}

/** Crawl depth: an integer 1 to 5. */
export function checkCrawlDepth(depth: unknown): string | null {
  const n = typeof depth === "string" && depth.trim() !== "" ? Number(depth) : depth;
  if (typeof n !== "number" || !Number.isInteger(n) || n < MIN_CRAWL_DEPTH || n > MAX_CRAWL_DEPTH) return LINK_MESSAGES.depthRange;
  return null;
}

/** On submit the form first says zero or negative depths must be positive (spec §5), then checks the range. */
export function submitDepthError(depth: unknown): string | null {
  const n = typeof depth === "string" && depth.trim() !== "" ? Number(depth) : depth;
  if (typeof n === "number" && !Number.isNaN(n) && n <= 0) return LINK_MESSAGES.depthPositive;
  return checkCrawlDepth(depth);
}

// ---- zod schemas (browser and server) ----

const urlField = z.string({ required_error: LINK_MESSAGES.noUrl, invalid_type_error: LINK_MESSAGES.noUrl }).trim().min(1, LINK_MESSAGES.noUrl);

function fromParser<T extends object>(parse: (input: string) => LinkResult<T>) {
  return urlField.transform((value, ctx): T => {
    const result = parse(value);
    if (isLinkError(result)) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: result.error });
      return z.NEVER;
    }
    return result;
  });
}

/** The canonical watch address of a video id. */
export const videoWatchUrl = (videoId: string) => `https://www.youtube.com/watch?v=${videoId}`;

/** URL fields: a string in, the checked (normalised) link out. */
export const videoUrlSchema = fromParser(parseVideoLink).transform(({ videoId }) => ({ url: videoWatchUrl(videoId), videoId }));
export const websiteUrlSchema = fromParser(parseWebsiteLink).transform(({ url }) => url);
export const documentUrlSchema = fromParser(parseDocumentLink).transform(({ url }) => url);

/** Accepts numbers or numeric form strings. */
export const crawlDepthSchema = z.preprocess(
  (value) => (typeof value === "string" && value.trim() !== "" ? Number(value) : value),
  z
    .number({ required_error: LINK_MESSAGES.depthRange, invalid_type_error: LINK_MESSAGES.depthRange })
    .int(LINK_MESSAGES.depthRange)
    .min(MIN_CRAWL_DEPTH, LINK_MESSAGES.depthRange)
    .max(MAX_CRAWL_DEPTH, LINK_MESSAGES.depthRange),
);

/** The three link forms (issues carry the field name: url, maxDepth). */
export const videoLinkSchema = z.object({ url: videoUrlSchema }).transform(({ url }) => url); // { url, videoId }
export const websiteLinkSchema = z.object({ url: websiteUrlSchema, maxDepth: crawlDepthSchema }); // { url, maxDepth }
export const documentLinkSchema = z.object({ url: documentUrlSchema }); // { url }

/** The upload-by-link form with its type dropdown. */
export const linkUploadSchema = z
  .discriminatedUnion("type", [
    z.object({ type: z.literal("YouTube"), url: videoUrlSchema }),
    z.object({ type: z.literal("Website"), url: websiteUrlSchema, maxDepth: crawlDepthSchema }),
    z.object({ type: z.literal("DocumentURL"), url: documentUrlSchema }),
  ])
  .transform((form) => (form.type === "YouTube" ? { type: form.type, url: form.url.url, videoId: form.url.videoId } : form));

export type LinkUpload = z.output<typeof linkUploadSchema>;
