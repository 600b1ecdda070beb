import { inject, injectable } from "inversify";
import { TOKENS } from "#application/tokens";
import type { BlobStore } from "#application/ports/blob-store";
import type { Clock } from "#application/ports/clock";
import type { EventStore } from "#application/ports/event-store";
import type { IdGenerator } from "#application/ports/ids";
import type { ProjectionWaiter } from "#application/ports/projection";
import type { ReadModelStore } from "#application/ports/read-model-store";
import type { SecretHasher } from "#application/ports/sessions";
import type { TextExtractor } from "#application/ports/text-extraction";
import { ExtractionError } from "#application/ports/text-extraction";
import { Aggregate } from "#application/shared/aggregate";
import type { AppSettings } from "#application/shared/app-settings";
import { eventMetadata, type RequestContext } from "#application/shared/request-context";
import { parseInput } from "#application/shared/parse";
import { accessPolicy, readableBy } from "#application/shared/access-policy";
import { DomainError } from "#domain/shared/domain-error";
import {
  type DocumentCommand,
  type DocumentEvent,
  type DocumentSource,
  type DocumentState,
  type IngestionSettings,
  UPLOAD_DID_NOT_COMPLETE,
} from "#domain/library/document";
import { documentAggregate } from "#domain/library/document-events";
import { documentLinkSchema, videoLinkSchema, websiteLinkSchema } from "#domain/library/link-rules";
import {
  extensionOf,
  AUDIO_EXTENSIONS,
  MAX_AUDIO_BYTES,
  MAX_FILE_BYTES,
  registerUploadSchema,
} from "#domain/library/upload-rules";
import { type DocumentReadModel, ownedDocument } from "#projections/library/documents.queries";
import type { UsageMeter } from "#application/shared/allowance-policy";

/** Upload URLs are good for this long, like a presigned S3 URL. */
const UPLOAD_URL_TTL_MS = 15 * 60_000;

export const sourceBlobKey = (ownerId: string, documentId: string) => `documents/${ownerId}/${documentId}/source`;
export const pagesBlobKey = (ownerId: string, documentId: string) => `documents/${ownerId}/${documentId}/pages.json`;
/** A recording's seekable copy for the player (decision 143). */
export const playbackBlobKey = (ownerId: string, documentId: string) => `documents/${ownerId}/${documentId}/playback`;

export interface RegisteredUpload {
  url: string;
  document_id: string;
  user_id: string;
}

@injectable()
export class LibraryService {
  constructor(
    @inject(TOKENS.EventStore) private readonly eventStore: EventStore,
    @inject(TOKENS.ReadModelStore) private readonly readModels: ReadModelStore,
    @inject(TOKENS.BlobStore) private readonly blobs: BlobStore,
    @inject(TOKENS.Ids) private readonly ids: IdGenerator,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.SecretHasher) private readonly secrets: SecretHasher,
    @inject(TOKENS.TextExtractor) private readonly extractor: TextExtractor,
    @inject(TOKENS.ProjectionWaiter) private readonly projections: ProjectionWaiter,
    @inject(TOKENS.UsageMeter) private readonly usage: UsageMeter,
    @inject(TOKENS.Config) private readonly settings: AppSettings,
  ) {
    this.documents = new Aggregate(eventStore, ids, documentAggregate);
  }

  private readonly documents: Aggregate<DocumentCommand, DocumentEvent, DocumentState>;

  /** Pages left this month on the owner's plan: measured pages of documents being ingested or ready. */
  async remainingPages(ownerId: string): Promise<{ used: number; limit: number | null; remaining: number }> {
    const pages = await this.usage.usage(ownerId, "pages", this.clock.now());
    return { used: pages.monthly.used, limit: pages.monthly.limit, remaining: pages.remaining };
  }

  /**
   * POST /documents: registers a document in UPLOADING and answers with a
   * short-lived upload URL (the embedded twin of an S3 presigned URL).
   */
  async registerUpload(ownerId: string, input: unknown, ctx: RequestContext): Promise<RegisteredUpload> {
    const payload = parseInput(registerUploadSchema, input);
    const isAudio = payload.document_source === "audio" || (AUDIO_EXTENSIONS as readonly string[]).includes(extensionOf(payload.document_name));
    if (payload.document_size > (isAudio ? MAX_AUDIO_BYTES : MAX_FILE_BYTES)) {
      throw new DomainError("FILE_TOO_LARGE", `"${payload.document_name}" is larger than ${Math.round((isAudio ? MAX_AUDIO_BYTES : MAX_FILE_BYTES) / 1024 / 1024)} MB.`);
    }
    // The declared count only gives the early answer; extraction's count is the one that is held (library.reservePages).
    await this.usage.check(ownerId, "pages", payload.page_count, this.clock.now());
    const documentId = this.ids.next();
    // An upload counts from its registration; its failure or removal before it was ready gives it back (PageRelease).
    await this.usage.reserve(ownerId, "uploads", documentId, 1, this.clock.now(), eventMetadata(ctx, ownerId, `document-${documentId}`));
    const registered = await this.execute(documentId, ownerId, ctx, {
      type: "RegisterDocument",
      documentId,
      ownerId,
      source: isAudio ? "audio" : "file",
      name: payload.document_name,
      sourceUrl: null,
      declaredType: payload.document_type,
      declaredSize: payload.document_size,
      declaredPageCount: payload.page_count,
      settings: {
        ocr: payload.ocr,
        ragType: payload.rag_type === "" ? null : payload.rag_type,
        embedding: payload.embedding_data ? { keysetId: payload.embedding_data.keyset_id, model: payload.embedding_data.model } : null,
        maxDepth: null,
        transcription: isAudio && payload.transcription_data ? { keysetId: payload.transcription_data.keyset_id, model: payload.transcription_data.model } : null,
      },
      now: this.clock.now(),
    });
    // Read-your-writes: whatever the client does next with the id (share it with a community, poll its status) finds it.
    await this.projections.waitForPosition(registered.position);
    // Never valid past the upload's deadline, when the document fails for want of its file.
    const expires = this.clock.now().getTime() + Math.min(UPLOAD_URL_TTL_MS, this.settings.uploadDeadlineMs);
    const token = `${expires}.${this.uploadSignature(documentId, ownerId, expires)}`;
    return { url: `/api/documents/${documentId}/upload?token=${encodeURIComponent(token)}`, document_id: documentId, user_id: ownerId };
  }

  /**
   * The PUT to the upload URL: checks the signature, stores the bytes under a
   * generated key, checks that content and name agree, then starts ingestion.
   */
  async receiveUpload(documentId: string, token: string, body: Buffer, contentType: string, ctx: RequestContext): Promise<void> {
    const { state, events } = await this.documents.load(documentId);
    const [expiresText, signature] = token.split(".");
    const expires = Number(expiresText);
    if (
      !state.exists ||
      !signature ||
      !Number.isFinite(expires) ||
      expires < this.clock.now().getTime() ||
      signature !== this.uploadSignature(documentId, state.ownerId, expires)
    ) {
      throw new DomainError("UPLOAD_URL_INVALID", "This upload link is invalid or has expired. Please upload the file again.");
    }
    if (state.blobKey) return; // a retried PUT of an upload already received
    const name = documentName(events, state.ownerId);
    const limit = state.source === "audio" ? MAX_AUDIO_BYTES : MAX_FILE_BYTES;
    if (body.length === 0 || body.length > limit) {
      await this.execute(documentId, state.ownerId, ctx, { type: "AbandonUpload", reason: UPLOAD_DID_NOT_COMPLETE, now: this.clock.now() });
      throw new DomainError("INVALID_SIZE", "Invalid size");
    }
    let kind: string;
    try {
      kind = state.source === "audio" ? "audio" : this.extractor.detectKind(body, name);
    } catch (error) {
      const reason = error instanceof ExtractionError ? error.message : "The file could not be read.";
      const failed = await this.execute(documentId, state.ownerId, ctx, { type: "Fail", reason, now: this.clock.now() });
      // The history shows the refusal as soon as the answer arrives (the release of its upload follows as a reaction).
      await this.projections.waitForPosition(failed.position);
      throw new DomainError("FILE_REJECTED", reason);
    }
    const blobKey = sourceBlobKey(state.ownerId, documentId);
    await this.blobs.put(blobKey, body, {
      contentType: contentType || "application/octet-stream",
      metadata: { document_id: documentId, user_id: state.ownerId },
    });
    let received;
    try {
      received = await this.execute(documentId, state.ownerId, ctx, {
        type: "ReceiveFile",
        blobKey,
        size: body.length,
        kind,
        contentType: contentType || "application/octet-stream",
        now: this.clock.now(),
      });
    } catch (error) {
      // Too late (the deadline failed it, or it was deleted): the bytes have no document to belong to.
      await this.blobs.deletePrefix(`documents/${state.ownerId}/${documentId}/`);
      throw error;
    }
    // Ingestion is started by a reactor (IngestionStarter), so a crash here cannot lose it; wait until it has.
    await this.projections.waitForPosition(received.position);
  }

  /**
   * A PUT that broke off or was refused before its bytes were read (413, a
   * dropped connection): the upload ends now, as it would at its deadline.
   */
  async abandonUpload(ownerId: string, documentId: string, ctx: RequestContext): Promise<void> {
    await this.endWaitingUpload(documentId, ctx, ownerId);
  }

  /** The upload deadline passed: fails the document unless its file came. */
  async expireUpload(documentId: string): Promise<{ abandoned: boolean }> {
    return { abandoned: await this.endWaitingUpload(documentId, null) };
  }

  /** Document, website and video links: registered and handed to ingestion, which fetches them. */
  async registerLink(
    ownerId: string,
    input: { source: Extract<DocumentSource, "document_url" | "website_url" | "youtube_link">; url: unknown; maxDepth?: unknown; ocr?: boolean },
    ctx: RequestContext,
  ): Promise<{ documentId: string }> {
    const { url, name, maxDepth } = this.parseLink(input);
    const documentId = this.ids.next();
    const settings: IngestionSettings = { ocr: input.ocr ?? false, ragType: null, embedding: null, maxDepth };
    const result = await this.execute(documentId, ownerId, ctx, {
      type: "RegisterDocument",
      documentId,
      ownerId,
      source: input.source,
      name,
      sourceUrl: url,
      declaredType: input.source === "website_url" ? "text/html" : input.source === "youtube_link" ? "video/youtube" : "application/octet-stream",
      declaredSize: 0,
      declaredPageCount: 0,
      settings,
      now: this.clock.now(),
    });
    // The projections show it and IngestionStarter has started fetching it.
    await this.projections.waitForPosition(result.position);
    return { documentId };
  }

  /**
   * Deletes the owner's documents. An in-progress one is deleted too, which
   * cancels its ingestion: every ingestion step finds it deleted, and the run
   * ends by removing what an unfinished step left (the UI still asks first,
   * as the spec says, but nobody is left unable to delete a stuck upload).
   */
  async deleteDocuments(ownerId: string, documentIds: string[], ctx: RequestContext): Promise<void> {
    const documents = await Promise.all(documentIds.map((id) => this.ownedDocument(ownerId, id)));
    let position = 0;
    for (const document of documents) {
      const result = await this.execute(document.id, ownerId, ctx, { type: "Delete", now: this.clock.now() });
      position = Math.max(position, result.position);
      await this.blobs.deletePrefix(`documents/${ownerId}/${document.id}/`);
    }
    await this.projections.waitForPosition(position);
  }

  /** The owner's document, or DOCUMENT_NOT_FOUND — also for another user's id (never reveal it exists). */
  async ownedDocument(ownerId: string, documentId: string): Promise<DocumentReadModel> {
    const document = await ownedDocument(this.readModels, ownerId, documentId);
    if (!document) throw new DomainError("DOCUMENT_NOT_FOUND", "Document Not Found");
    return document;
  }

  async execute(documentId: string, ownerId: string, ctx: RequestContext | null, command: DocumentCommand) {
    return this.documents.handle(documentId, command, { metadata: eventMetadata(ctx, ownerId, `ingestion-${documentId}`) });
  }

  /** The document's events and state, straight from its stream (the read model may lag). */
  async loadDocument(documentId: string) {
    return this.documents.load(documentId);
  }

  /** The owner's name for the document ("" for anyone else's or an unknown id). */
  async documentName(documentId: string, ownerId: string): Promise<string> {
    return documentName((await this.documents.load(documentId)).events, ownerId);
  }

  private parseLink(input: { source: string; url: unknown; maxDepth?: unknown }) {
    if (input.source === "website_url") {
      const form = parseInput(websiteLinkSchema, { url: input.url, maxDepth: input.maxDepth });
      return { url: form.url, name: hostAndPath(form.url), maxDepth: form.maxDepth };
    }
    if (input.source === "youtube_link") {
      const form = parseInput(videoLinkSchema, { url: input.url });
      return { url: form.url, name: `YouTube video ${form.videoId}`, maxDepth: null };
    }
    const form = parseInput(documentLinkSchema, { url: input.url });
    return { url: form.url, name: decodeURIComponent(new URL(form.url).pathname.split("/").pop() || form.url), maxDepth: null };
  }

  /** Fails an upload still waiting for its file (the decider leaves any other alone); true when it did. */
  private async endWaitingUpload(documentId: string, ctx: RequestContext | null, ownerId?: string): Promise<boolean> {
    const { state } = await this.documents.load(documentId);
    if (!state.exists || state.status === "DELETED" || (ownerId !== undefined && state.ownerId !== ownerId)) return false;
    const result = await this.execute(documentId, state.ownerId, ctx, { type: "AbandonUpload", reason: UPLOAD_DID_NOT_COMPLETE, now: this.clock.now() });
    return result.events.length > 0;
  }

  private uploadSignature(documentId: string, ownerId: string, expires: number) {
    return this.secrets.hash("upload-url", `${documentId}:${ownerId}:${expires}`);
  }
}

/** The name from the event log (the read model may lag right after registration). */
function documentName(events: DocumentEvent[], ownerId: string): string {
  const registered = events.find((e) => e.type === "DocumentRegistered");
  if (registered?.type !== "DocumentRegistered" || !accessPolicy.canRead(registered.data, ownerId)) return "";
  return registered.data.personal?.name ?? "";
}

function hostAndPath(url: string) {
  const parsed = new URL(url);
  return `${parsed.host}${parsed.pathname === "/" ? "" : parsed.pathname}`;
}
