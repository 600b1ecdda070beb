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
}

/** Speech to text lives in its own port (./speech.ts); re-exported for the sources that name it here. */
export type { Transcriber } from "./speech";
