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
}

export interface VideoSource {
  /** Throws an Error whose message the user can read ('Video Not Found', …). */
  details(videoId: string): Promise<VideoDetails>;
}

/** Speech to text for audio documents; none is configured until the user adds a speech model. */
export interface Transcriber {
  transcribe(audio: Buffer, contentType: string): Promise<{ text: string }>;
}
