/** Sources on the web that become documents; every fetch goes through the Egress port. */
export interface CrawledPage {
  url: string;
  title: string;
  html: string;
}

export interface WebsiteCrawler {
  crawl(startUrl: string, maxDepth: number): Promise<{ pages: CrawledPage[]; skipped: { url: string; reason: string }[] }>;
}

export interface VideoDetails {
  title: string;
  transcript: { text: string; startSeconds: number }[];
  /** A video without captions whose sound could be fetched: it is transcribed like a recording (decision 145). */
  audio?: { bytes: Buffer; contentType: string };
}

export interface VideoSource {
  /** Throws an Error whose message the user can read ('Video Not Found', …). */
  details(videoId: string): Promise<VideoDetails>;
  /**
   * The cheap check at submit time (the watch page only): the title, or an
   * Error marked `userFacing` with `definite: true` when the video cannot
   * become a document (not found; no captions and no sound to fetch).
   */
  lookup?(videoId: string): Promise<{ title: string }>;
}

/** Speech to text lives in its own port (./speech.ts); re-exported for the sources that name it here. */
export type { Transcriber } from "./speech";
