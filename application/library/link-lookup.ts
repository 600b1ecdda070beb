import { inject, injectable } from "inversify";
import { TOKENS } from "#application/tokens";
import { type Egress, EgressError } from "#application/ports/egress";
import type { VideoSource } from "#application/ports/web-sources";
import { parseInput } from "#application/shared/parse";
import { documentLinkSchema, LINK_MESSAGES, videoLinkSchema, websiteLinkSchema } from "#domain/library/link-rules";
import { DomainError } from "#domain/shared/domain-error";

export type LookedUpSource = "document_url" | "website_url" | "youtube_link";

/** A document link's first byte is enough to know it is there; a site that ignores Range sends more, which says the same. */
const PROBE_BYTES = 1;
const PAGE_BYTES = 2 * 1024 * 1024;
const LOOKUP_TIMEOUT_MS = 15_000;

/**
 * The lookup a link upload makes when it is submitted (spec 000 §5 'Lookup
 * messages'): a video that does not exist answers 'Video Not Found' (or
 * 'Failed to fetch video details'), a document or site that answers 404
 * 'Document Not Found', anything else unreachable 'Invalid URL' — at once, on
 * the upload screen, instead of "Uploaded Successfully" and a row that turns
 * Failed in My Documents later. Every fetch goes through the egress, so the
 * address rules are the ingestion's own. What the lookup cannot tell (a page
 * the crawl will skip) is left to ingestion, which records its reason on the
 * document.
 */
@injectable()
export class LinkLookup {
  constructor(
    @inject(TOKENS.Egress) private readonly egress: Egress,
    @inject(TOKENS.VideoSource) private readonly video: VideoSource,
  ) {}

  /**
   * Resolves when the link points at something. A malformed link is refused
   * with the form's own message (VALIDATION, as registering it would), one
   * that leads nowhere with the spec's lookup message (LINK_NOT_FOUND).
   */
  async check(input: { source: LookedUpSource; url?: unknown; maxDepth?: unknown }): Promise<void> {
    let problem: string | null;
    if (input.source === "youtube_link") problem = await this.videoProblem(parseInput(videoLinkSchema, { url: input.url }).videoId);
    else if (input.source === "website_url") problem = await this.pageProblem(parseInput(websiteLinkSchema, { url: input.url, maxDepth: input.maxDepth }).url, PAGE_BYTES);
    else problem = await this.pageProblem(parseInput(documentLinkSchema, { url: input.url }).url, PROBE_BYTES);
    if (problem) throw new DomainError("LINK_NOT_FOUND", problem, "url");
  }

  /**
   * A video is there when its page answers and it has captions or a sound
   * that can be fetched (the source's `lookup`, decision 145); a source that
   * can only read details lets a video without captions through, for the
   * ingestion to judge.
   */
  private async videoProblem(videoId: string): Promise<string | null> {
    try {
      if (this.video.lookup) await this.video.lookup(videoId);
      else await this.video.details(videoId);
      return null;
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      const refused = code === "VIDEO_NOT_FOUND" || code === "FETCH_FAILED" || (code === "NO_CAPTIONS" && this.video.lookup !== undefined);
      return refused && error instanceof Error ? error.message : null;
    }
  }

  private async pageProblem(url: string, maxBytes: number): Promise<string | null> {
    try {
      await this.egress.fetch({ url, maxBytes, timeoutMs: LOOKUP_TIMEOUT_MS, headers: { range: `bytes=0-${maxBytes - 1}` } });
      return null;
    } catch (error) {
      if (!(error instanceof EgressError)) return LINK_MESSAGES.invalidUrl;
      if (error.code === "TOO_LARGE") return null;
      if (error.code === "HTTP_ERROR" && (error.status === 404 || error.status === 410)) return LINK_MESSAGES.documentNotFound;
      // An address the server may not fetch says why (it is the user's link, not a secret); the rest is the spec's 'Invalid URL'.
      if (error.code === "ADDRESS_NOT_ALLOWED" || error.code === "SCHEME_NOT_ALLOWED") return error.message;
      return LINK_MESSAGES.invalidUrl;
    }
  }
}
