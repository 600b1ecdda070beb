import { EgressError, type Egress, type EgressResponse } from "#application/ports/egress";
import type { CrawledPage, WebsiteCrawler } from "#application/ports/web-sources";
import { EgressHttpError } from "#infrastructure/egress/safe-egress";
import { outlinePage } from "./html-page";
import { ALLOW_ALL, DISALLOW_ALL, parseRobots, type RobotsRules } from "./robots";

/**
 * Website crawl for 'Upload by link' (Website, with a depth 1 to 5):
 * breadth-first from the start page, the same site only (same host, `www.`
 * or not, same port), robots.txt honoured, every request through the Egress
 * port (so every address and redirect is checked there), bounded by pages,
 * bytes and time. Depth 1 is the start page alone; depth 2 adds the pages it
 * links to, and so on.
 *
 * Fetch problems never throw: they land in `skipped` with a reason the user
 * can read. A crawl with no pages is for the caller to report as a failure.
 */

export interface CrawlOptions {
  startUrl: string;
  /** 1 to 5. */
  maxDepth: number;
  egress: Egress;
  /** Most pages kept (50). */
  maxPages?: number;
  /** Most bytes downloaded over the whole crawl (20 MB). */
  maxTotalBytes?: number;
  /** Most bytes for one page (5 MB, and never more than what is left of maxTotalBytes). */
  maxPageBytes?: number;
  /** Wall-clock budget for the whole crawl (2 minutes). */
  timeBudgetMs?: number;
  /** Product token matched against robots.txt user-agent lines. */
  userAgent?: string;
}

export interface CrawlResult {
  pages: CrawledPage[];
  skipped: { url: string; reason: string }[];
}

export class CrawlError extends Error {
  /** The message is meant for the user (ingestion shows it as the failure reason). */
  readonly userFacing = true;
  constructor(message: string) {
    super(message);
    this.name = "CrawlError";
  }
}

export const CRAWL_REASONS = {
  offSite: "The link leads to another site.",
  redirectedOffSite: "The page redirected to another site.",
  notAPage: "The link is a file, not a web page.",
  notHtml: "The address is not a web page.",
  robots: "The site's robots.txt asks crawlers not to read this page.",
  robotsUnavailable: "The site's robots.txt could not be read, so the site was not crawled.",
  pageLimit: "The page limit for one website was reached.",
  byteLimit: "The size limit for one website was reached.",
  timeLimit: "The time limit for reading the website was reached.",
} as const;

const MB = 1024 * 1024;
const PER_REQUEST_TIMEOUT_MS = 15_000;
const BINARY_EXTENSION =
  /\.(?:pdf|zip|gz|tgz|bz2|xz|rar|7z|tar|exe|msi|dmg|iso|apk|bin|jar|jpe?g|png|gif|webp|avif|svg|ico|bmp|tiff?|mp3|mp4|m4a|m4v|wav|ogg|oga|flac|webm|avi|mov|mkv|flv|wmv|woff2?|ttf|otf|eot|css|js|mjs|json|xml|rss|atom|docx?|xlsx?|pptx?|odt|ods|odp|csv|epub)$/i;

const siteKey = (url: URL) => `${url.hostname.toLowerCase().replace(/^www\./, "")}:${url.port}`;

/** One key per page whether or not it is reached through `www.`. */
function pageKey(href: string): string {
  const url = new URL(href);
  url.hash = "";
  url.hostname = url.hostname.replace(/^www\./i, "");
  return url.href;
}

function decodeHtml(body: Buffer, contentType: string): string {
  const charset = /charset\s*=\s*"?([\w-]+)/i.exec(contentType)?.[1] ?? "utf-8";
  try {
    return new TextDecoder(charset).decode(body);
  } catch {
    return new TextDecoder("utf-8").decode(body);
  }
}

const isHtml = (contentType: string) => {
  const type = contentType.split(";")[0].trim().toLowerCase();
  return type === "" || type === "text/html" || type === "application/xhtml+xml";
};

export async function crawlSite(options: CrawlOptions): Promise<CrawlResult> {
  const { egress, maxDepth } = options;
  const maxPages = options.maxPages ?? 50;
  const maxTotalBytes = options.maxTotalBytes ?? 20 * MB;
  const maxPageBytes = options.maxPageBytes ?? 5 * MB;
  const timeBudgetMs = options.timeBudgetMs ?? 120_000;
  const userAgent = options.userAgent ?? "DocuChatBot";
  if (!Number.isInteger(maxDepth) || maxDepth < 1 || maxDepth > 5) throw new CrawlError("Depth must be between 1 and 5");

  let start: URL;
  try {
    start = new URL(options.startUrl);
  } catch {
    throw new CrawlError("Invalid Website URL");
  }
  if (start.protocol !== "http:" && start.protocol !== "https:") throw new CrawlError("Only http and https websites can be read.");
  start.hash = "";

  const deadline = Date.now() + timeBudgetMs;
  const site = siteKey(start);
  const pages: CrawledPage[] = [];
  const skipped: CrawlResult["skipped"] = [];
  const seen = new Set<string>([pageKey(start.href)]);
  const robotsByOrigin = new Map<string, RobotsRules>();
  let queue: { url: string; depth: number }[] = [{ url: start.href, depth: 1 }];
  let totalBytes = 0;

  const stop = (reason: string) => {
    for (const item of queue) skipped.push({ url: item.url, reason });
    queue = [];
  };

  const robotsFor = async (url: URL): Promise<RobotsRules> => {
    const cached = robotsByOrigin.get(url.origin);
    if (cached) return cached;
    let rules: RobotsRules;
    try {
      const response = await egress.fetch({
        url: `${url.origin}/robots.txt`,
        maxBytes: 512 * 1024,
        timeoutMs: Math.max(1, Math.min(PER_REQUEST_TIMEOUT_MS, deadline - Date.now())),
        headers: { accept: "text/plain,*/*;q=0.5" },
      });
      rules = parseRobots(response.body.toString("utf8"), userAgent);
    } catch (error) {
      // RFC 9309: a missing robots.txt (4xx) allows everything; a server error means keep out.
      // Other failures (refused address, timeout) are left to the page fetch, which reports its own reason.
      if (error instanceof EgressHttpError && error.status >= 500) rules = DISALLOW_ALL;
      else rules = ALLOW_ALL;
    }
    robotsByOrigin.set(url.origin, rules);
    return rules;
  };

  while (queue.length > 0) {
    if (pages.length >= maxPages) {
      stop(CRAWL_REASONS.pageLimit);
      break;
    }
    if (Date.now() >= deadline) {
      stop(CRAWL_REASONS.timeLimit);
      break;
    }
    const budget = maxTotalBytes - totalBytes;
    if (budget <= 0) {
      stop(CRAWL_REASONS.byteLimit);
      break;
    }

    const item = queue.shift()!;
    const url = new URL(item.url);
    const robots = await robotsFor(url);
    if (!robots.isAllowed(`${url.pathname}${url.search}`)) {
      skipped.push({ url: item.url, reason: robots === DISALLOW_ALL ? CRAWL_REASONS.robotsUnavailable : CRAWL_REASONS.robots });
      continue;
    }

    const pageLimit = Math.min(maxPageBytes, budget);
    let response: EgressResponse;
    try {
      response = await egress.fetch({
        url: item.url,
        maxBytes: pageLimit,
        timeoutMs: Math.max(1, Math.min(PER_REQUEST_TIMEOUT_MS, deadline - Date.now())),
        headers: { accept: "text/html,application/xhtml+xml;q=0.9,*/*;q=0.5" },
      });
    } catch (error) {
      if (error instanceof EgressError && error.code === "TOO_LARGE" && pageLimit < maxPageBytes) {
        skipped.push({ url: item.url, reason: CRAWL_REASONS.byteLimit });
        stop(CRAWL_REASONS.byteLimit);
        break;
      }
      if (error instanceof EgressError && error.code === "TIMEOUT" && Date.now() >= deadline) {
        skipped.push({ url: item.url, reason: CRAWL_REASONS.timeLimit });
        stop(CRAWL_REASONS.timeLimit);
        break;
      }
      skipped.push({ url: item.url, reason: error instanceof EgressError ? error.message : "The page could not be read." });
      continue;
    }
    totalBytes += response.body.length;

    const finalUrl = new URL(response.url);
    finalUrl.hash = "";
    if (finalUrl.href !== item.url) {
      if (siteKey(finalUrl) !== site) {
        skipped.push({ url: item.url, reason: CRAWL_REASONS.redirectedOffSite });
        continue;
      }
      if (seen.has(pageKey(finalUrl.href)) && pageKey(finalUrl.href) !== pageKey(item.url)) continue; // redirected to a page already taken or queued
      seen.add(pageKey(finalUrl.href));
    }
    if (!isHtml(response.contentType)) {
      skipped.push({ url: item.url, reason: CRAWL_REASONS.notHtml });
      continue;
    }

    const html = decodeHtml(response.body, response.contentType);
    const outline = outlinePage(html, finalUrl.href);
    pages.push({ url: finalUrl.href, title: outline.title || finalUrl.href, html });

    if (item.depth >= maxDepth) continue;
    for (const link of outline.links) {
      if (seen.has(pageKey(link))) continue;
      seen.add(pageKey(link));
      const target = new URL(link);
      if (siteKey(target) !== site) skipped.push({ url: link, reason: CRAWL_REASONS.offSite });
      else if (BINARY_EXTENSION.test(target.pathname)) skipped.push({ url: link, reason: CRAWL_REASONS.notAPage });
      else queue.push({ url: link, depth: item.depth + 1 });
    }
  }

  return { pages, skipped };
}

/** The WebsiteCrawler port over crawlSite. */
export class SiteCrawler implements WebsiteCrawler {
  constructor(
    private readonly egress: Egress,
    private readonly defaults: Omit<CrawlOptions, "startUrl" | "maxDepth" | "egress"> = {},
  ) {}

  crawl(startUrl: string, maxDepth: number): Promise<CrawlResult> {
    return crawlSite({ ...this.defaults, startUrl, maxDepth, egress: this.egress });
  }
}
