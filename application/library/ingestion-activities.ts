import { inject, injectable } from "inversify";
import { TOKENS } from "#application/tokens";
import type { BlobStore } from "#application/ports/blob-store";
import type { Clock } from "#application/ports/clock";
import { type Egress, EgressError } from "#application/ports/egress";
import type { SearchIndex } from "#application/ports/search-index";
import { type ExtractedPage, ExtractionError, type FileKind, type TextExtractor } from "#application/ports/text-extraction";
import type { VideoSource, WebsiteCrawler } from "#application/ports/web-sources";
import { OFFLINE_TRANSCRIPT_NOTE, type PlaybackEncoder, type TranscriptSegment } from "#application/ports/speech";
import { SpeechToText } from "./speech-to-text";
import { transcriptPages } from "#domain/library/transcript-pages";
import type { ActivitiesFor } from "#application/ports/workflow";
import { eventMetadata } from "#application/shared/request-context";
import { DomainError } from "#domain/shared/domain-error";
import { chunkPages } from "#domain/library/chunking";
import { parseVideoLink } from "#domain/library/link-rules";
import { MAX_FILE_BYTES } from "#domain/library/upload-rules";
import type { IngestionActivityName, IngestionInput, StepOutcome } from "#workflows/ingestion";
import { LibraryService, pagesBlobKey, playbackBlobKey, sourceBlobKey } from "./library-service";
import type { UsageMeter } from "#application/shared/allowance-policy";
import type { ExtractionLocks } from "#application/ports/extraction-locks";

/** Characters per page for sources without pages of their own (video transcripts). */
const TRANSCRIPT_PAGE_CHARS = 3000;

/** The longest a caption line is taken to last when the next starts much later. */
const CAPTION_SECONDS = 5;

const ok: StepOutcome = { ok: true };
const failed = (reason: string): StepOutcome => ({ ok: false, reason });

/**
 * The activities of the ingestion workflow. Each is idempotent: the document
 * decider records nothing for a step already taken, blobs are overwritten
 * under the same key, and chunks are upserted by deterministic ids.
 */
@injectable()
export class IngestionActivities {
  constructor(
    @inject(LibraryService) private readonly library: LibraryService,
    @inject(TOKENS.BlobStore) private readonly blobs: BlobStore,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.TextExtractor) private readonly extractor: TextExtractor,
    @inject(TOKENS.Egress) private readonly egress: Egress,
    @inject(TOKENS.WebsiteCrawler) private readonly crawler: WebsiteCrawler,
    @inject(TOKENS.VideoSource) private readonly video: VideoSource,
    @inject(TOKENS.SearchIndex) private readonly search: SearchIndex,
    @inject(SpeechToText) private readonly transcriber: SpeechToText,
    @inject(TOKENS.PlaybackEncoder) private readonly playback: PlaybackEncoder,
    @inject(TOKENS.UsageMeter) private readonly usage: UsageMeter,
    @inject(TOKENS.ExtractionLocks) private readonly locks: ExtractionLocks,
  ) {}

  registry(): ActivitiesFor<IngestionActivityName> {
    const step = (fn: (input: IngestionInput) => Promise<StepOutcome>) => (input: unknown) => userFacing(() => fn(input as IngestionInput));
    return {
      "library.startContextPreparation": step((i) => this.startContextPreparation(i)),
      "library.acquireSource": step((i) => this.acquireSource(i)),
      "library.extractText": step((i) => this.extractText(i)),
      "library.reservePages": step((i) => this.reservePages(i)),
      "library.indexChunks": step((i) => this.indexChunks(i)),
      "library.activate": step((i) => this.activate(i)),
      "library.fail": async (input) => {
        const { documentId, reason } = input as IngestionInput & { reason: string };
        const { state } = await this.library.loadDocument(documentId);
        if (!state.exists) return null;
        if (state.status === "DELETED") await this.discard(documentId, state.ownerId);
        else await this.library.execute(documentId, state.ownerId, null, { type: "Fail", reason, now: this.clock.now() });
        return null;
      },
    };
  }

  private async document(documentId: string) {
    const { state } = await this.library.loadDocument(documentId);
    return state.exists && state.status !== "DELETED" ? state : null;
  }

  async startContextPreparation({ documentId }: IngestionInput): Promise<StepOutcome> {
    const doc = await this.document(documentId);
    if (!doc) return failed("Document Not Found");
    await this.library.execute(documentId, doc.ownerId, null, { type: "StartContextPreparation", now: this.clock.now() });
    return ok;
  }

  async acquireSource({ documentId }: IngestionInput): Promise<StepOutcome> {
    const doc = await this.document(documentId);
    if (!doc) return failed("Document Not Found");
    if (doc.blobKey) return ok;
    if (doc.source === "file" || doc.source === "audio") return failed("The file never finished uploading. Please upload it again.");
    const registered = await this.registration(documentId);
    const url = registered.sourceUrl ?? "";
    const key = sourceBlobKey(doc.ownerId, documentId);
    const metadata = { document_id: documentId, user_id: doc.ownerId };
    let received: { body: Buffer; kind: FileKind | "website" | "video"; contentType: string; title?: string };

    if (doc.source === "document_url") {
      const response = await this.egress.fetch({ url, maxBytes: MAX_FILE_BYTES });
      const name = decodeURIComponent(new URL(response.url).pathname.split("/").pop() || "document");
      received = { body: response.body, kind: this.extractor.detectKind(response.body, name), contentType: response.contentType };
    } else if (doc.source === "website_url") {
      const crawl = await this.crawler.crawl(url, registered.maxDepth ?? 1);
      if (crawl.pages.length === 0) {
        return failed(crawl.skipped[0]?.reason ?? "No page of this website could be read.");
      }
      received = {
        body: Buffer.from(JSON.stringify(crawl.pages)),
        kind: "website",
        contentType: "application/json",
        title: crawl.pages[0]?.title || undefined,
      };
    } else {
      const link = parseVideoLink(url);
      if ("error" in link) return failed(link.error);
      const details = await this.video.details(link.videoId);
      // No captions, but its sound: transcribed like a recording (decision 145).
      received = details.audio
        ? { body: details.audio.bytes, kind: "audio", contentType: details.audio.contentType, title: details.title }
        : { body: Buffer.from(JSON.stringify(details)), kind: "video", contentType: "application/json", title: details.title };
    }
    await this.blobs.put(key, received.body, { contentType: received.contentType, metadata });
    await this.library.execute(documentId, doc.ownerId, null, {
      type: "ReceiveFile",
      blobKey: key,
      size: received.body.length,
      kind: received.kind,
      contentType: received.contentType,
      title: received.title,
      now: this.clock.now(),
    });
    return ok;
  }

  /** Never twice at once for one document: a restarted background process waits for (or ends) its predecessor's extraction. */
  extractText({ documentId }: IngestionInput): Promise<StepOutcome> {
    return this.locks.holding(documentId, () => this.extract(documentId));
  }

  private async extract(documentId: string): Promise<StepOutcome> {
    const doc = await this.document(documentId);
    if (!doc) return failed("Document Not Found");
    if (doc.pagesBlobKey) return ok;
    const stored = doc.blobKey ? await this.blobs.get(doc.blobKey) : null;
    if (!stored) return failed("The uploaded file is missing. Please upload it again.");
    const bytes = await readAll(stored.body);
    const kind = (await this.receivedKind(documentId)) ?? "pdf";
    const registered = await this.registration(documentId);
    let pages: ExtractedPage[];
    let warnings: string[] = [];
    let pagesReadByOcr: number[] = [];
    let unreadablePages: number[] = [];
    let extractor: "poppler" | "pdf.js" | undefined;

    if (kind === "audio") {
      const transcript = await this.transcriber.transcribe(bytes, stored.contentType, {
        onProgress: async (secondsDone, secondsTotal) => {
          await this.library.execute(documentId, doc.ownerId, null, { type: "RecordTranscriptionProgress", secondsDone, secondsTotal, now: this.clock.now() });
        },
        pieces: this.transcriptPieces(doc.ownerId, documentId),
        model: registered.settings.transcription ? { ...registered.settings.transcription, ownerId: doc.ownerId } : null,
      });
      pages = transcript.segments?.length ? transcriptPages(transcript.segments) : paginate(transcript.text);
      warnings = [...transcript.notes, ...(transcript.quality === "basic" ? [OFFLINE_TRANSCRIPT_NOTE] : [])];
      await this.blobs.deletePrefix(`documents/${doc.ownerId}/${documentId}/transcript-pieces/`);
      // The player's seekable copy; without it the player falls back to the original (it plays, but may not seek).
      const playable = await this.playback.playable(bytes).catch(() => null);
      if (playable) await this.blobs.put(playbackBlobKey(doc.ownerId, documentId), playable.body, { contentType: playable.contentType, metadata: { document_id: documentId } });
    } else if (kind === "video") {
      const details = JSON.parse(bytes.toString("utf8")) as { title: string; transcript: { text: string; startSeconds?: number }[] };
      // Captions with times become timed pages like a recording's, so a citation points at a moment of the video.
      const timed = details.transcript.every((line) => typeof line.startSeconds === "number");
      pages = timed
        ? transcriptPages(
            details.transcript.map((line, i) => ({
              startSeconds: line.startSeconds!,
              // Captions carry starts only: a line lasts until the next one, at most a caption's usual few seconds.
              endSeconds: Math.min(details.transcript[i + 1]?.startSeconds ?? Infinity, line.startSeconds! + CAPTION_SECONDS),
              text: line.text,
            })),
            { asSentences: false },
          )
        : paginate(details.transcript.map((line) => line.text).join(" "));
    } else if (kind === "website") {
      const crawled = JSON.parse(bytes.toString("utf8")) as { url: string; title: string; html: string }[];
      pages = [];
      for (const page of crawled) {
        const result = await this.extractor.extract({ bytes: Buffer.from(page.html), kind: "html", ocr: false, sourceUrl: page.url });
        const text = result.pages.map((p) => p.text).join("\n").trim();
        pages.push({ pageNumber: pages.length + 1, text: [page.title, page.url, text].filter(Boolean).join("\n"), blocks: [] });
      }
    } else {
      const result = await this.extractor.extract({ bytes, kind: kind as FileKind, ocr: registered.settings.ocr });
      pages = result.pages;
      warnings = result.warnings;
      pagesReadByOcr = result.pagesReadByOcr ?? [];
      unreadablePages = result.unreadablePages ?? [];
      extractor = result.extractor;
    }
    if (pages.every((p) => p.text.trim() === "")) {
      return failed("No text or speech could be found in this document.");
    }
    const key = pagesBlobKey(doc.ownerId, documentId);
    await this.blobs.put(key, Buffer.from(JSON.stringify(pages)), { contentType: "application/json", metadata: { document_id: documentId } });
    await this.library.execute(documentId, doc.ownerId, null, {
      type: "RecordTextExtracted",
      pageCount: pages.length,
      pagesBlobKey: key,
      warnings,
      pagesReadByOcr,
      unreadablePages,
      extractor,
      now: this.clock.now(),
    });
    return ok;
  }

  /**
   * Holds the pages extraction measured on the owner's allowance for the month
   * the document was registered in; over the limit it fails with the spec's
   * message before anything is indexed (its failure releases nothing it held).
   */
  async reservePages({ documentId }: IngestionInput): Promise<StepOutcome> {
    const doc = await this.document(documentId);
    if (!doc) return failed("Document Not Found");
    if (!doc.pagesBlobKey) return failed("The document's text is missing. Please upload it again.");
    const metadata = eventMetadata(null, doc.ownerId, `ingestion-${documentId}`);
    try {
      await this.usage.reserve(doc.ownerId, "pages", documentId, doc.pageCount, new Date(doc.registeredAt), metadata);
    } catch (error) {
      if (error instanceof DomainError && error.code === "PAGE_LIMIT") return failed(error.message);
      throw error;
    }
    // Deleted while its pages were being held: the release that followed the deletion may have come first.
    if (!(await this.document(documentId))) {
      await this.usage.release(doc.ownerId, "pages", documentId, new Date(doc.registeredAt), metadata);
      return failed("Document Not Found");
    }
    return ok;
  }

  async indexChunks({ documentId }: IngestionInput): Promise<StepOutcome> {
    const doc = await this.document(documentId);
    if (!doc) return failed("Document Not Found");
    if (doc.chunkCount > 0) return ok;
    const pages = await this.pages(doc.pagesBlobKey);
    if (!pages) return failed("The document's text is missing. Please upload it again.");
    const chunks = chunkPages(documentId, pages);
    // Upserted by deterministic chunk ids: a retry after a crash replaces, never duplicates.
    await this.search.upsert(chunks.map((chunk) => ({ ...chunk, documentId, ownerId: doc.ownerId })));
    await this.library.execute(documentId, doc.ownerId, null, { type: "RecordIndexed", chunkCount: chunks.length, now: this.clock.now() });
    return ok;
  }

  async activate({ documentId }: IngestionInput): Promise<StepOutcome> {
    const doc = await this.document(documentId);
    if (!doc) return failed("Document Not Found");
    await this.library.execute(documentId, doc.ownerId, null, { type: "Activate", now: this.clock.now() });
    return ok;
  }

  /** Transcribed pieces of a long recording, kept under the document so a retried step resumes (removed with it). */
  private transcriptPieces(ownerId: string, documentId: string) {
    const key = (index: number) => `documents/${ownerId}/${documentId}/transcript-pieces/${index}.json`;
    return {
      get: async (index: number) => {
        const stored = await this.blobs.get(key(index));
        return stored ? (JSON.parse((await readAll(stored.body)).toString("utf8")) as TranscriptSegment[]) : null;
      },
      put: async (index: number, segments: TranscriptSegment[]) => {
        await this.blobs.put(key(index), Buffer.from(JSON.stringify(segments)), { contentType: "application/json", metadata: { document_id: documentId } });
      },
    };
  }

  /** A document deleted while it was ingested: what its unfinished steps stored goes too. */
  private async discard(documentId: string, ownerId: string): Promise<void> {
    await this.search.deleteDocument(documentId);
    await this.blobs.deletePrefix(`documents/${ownerId}/${documentId}/`);
  }

  async pages(pagesKey: string | null): Promise<ExtractedPage[] | null> {
    const stored = pagesKey ? await this.blobs.get(pagesKey) : null;
    return stored ? (JSON.parse((await readAll(stored.body)).toString("utf8")) as ExtractedPage[]) : null;
  }

  private async registration(documentId: string) {
    const { events } = await this.library.loadDocument(documentId);
    const registered = events.find((e) => e.type === "DocumentRegistered");
    if (!registered || registered.type !== "DocumentRegistered") throw new Error(`document ${documentId} has no registration`);
    return { sourceUrl: registered.data.personal?.sourceUrl ?? null, settings: registered.data.settings, maxDepth: registered.data.settings.maxDepth };
  }

  private async receivedKind(documentId: string): Promise<string | null> {
    const { events } = await this.library.loadDocument(documentId);
    const received = events.find((e) => e.type === "DocumentFileReceived");
    return received?.type === "DocumentFileReceived" ? received.data.kind : null;
  }
}

/** Errors the user should read end the step with their message; others are thrown and retried. */
async function userFacing(fn: () => Promise<StepOutcome>): Promise<StepOutcome> {
  try {
    return await fn();
  } catch (error) {
    if (error instanceof EgressError || error instanceof ExtractionError || isUserFacing(error)) return failed(error.message);
    // Deleted between the step's read and its write: nothing to retry, the run ends (and cleans up in library.fail).
    if (error instanceof DomainError && error.code === "DOCUMENT_NOT_FOUND") return failed(error.message);
    throw error;
  }
}

/** Sources (video, crawler) mark errors meant for the user with `userFacing: true`. */
function isUserFacing(error: unknown): error is Error {
  return error instanceof Error && (error as Error & { userFacing?: boolean }).userFacing === true;
}

function paginate(text: string): ExtractedPage[] {
  const pages: ExtractedPage[] = [];
  let rest = text.trim();
  while (rest.length > 0) {
    let cut = rest.length <= TRANSCRIPT_PAGE_CHARS ? rest.length : rest.lastIndexOf(" ", TRANSCRIPT_PAGE_CHARS);
    if (cut <= 0) cut = TRANSCRIPT_PAGE_CHARS;
    pages.push({ pageNumber: pages.length + 1, text: rest.slice(0, cut).trim(), blocks: [] });
    rest = rest.slice(cut).trim();
  }
  return pages;
}

async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const part of stream) parts.push(typeof part === "string" ? Buffer.from(part) : (part as Buffer));
  return Buffer.concat(parts);
}
