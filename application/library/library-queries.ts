import { inject, injectable } from "inversify";
import { TOKENS } from "#application/tokens";
import type { BlobInfo, BlobStore, ByteRange, StoredBlob } from "#application/ports/blob-store";
import type { ReadModelStore } from "#application/ports/read-model-store";
import type { ExtractedPage, LayoutBlock } from "#application/ports/text-extraction";
import { type CommunityGrants, readableDocuments } from "#application/shared/access-policy";
import { DomainError } from "#domain/shared/domain-error";
import { documentsSharedWith } from "#projections/community/communities.queries";
import { countDocuments, type DocumentListOptions, type DocumentListPage, type DocumentReadModel, documentsByIds, documentsToWatch, listDocuments, ownedDocument } from "#projections/library/documents.queries";

export type { DocumentListPage };

/**
 * Reads over the library's read models and stored pages. Lists and changes are
 * scoped to the owner; opening a document (its pages, layout, bytes) is open to
 * whoever the access policy lets read it: its owner, or a member of a community
 * that holds it (decision 120).
 */
@injectable()
export class LibraryQueries {
  constructor(
    @inject(TOKENS.ReadModelStore) private readonly store: ReadModelStore,
    @inject(TOKENS.BlobStore) private readonly blobs: BlobStore,
  ) {
    this.grants = { sharedWith: (userId, documentIds) => documentsSharedWith(this.store, userId, documentIds) };
  }

  private readonly grants: CommunityGrants;

  /** Newest first; search is case-insensitive on part of the name (spec 000 §2); `status` keeps one status (ready documents to pick from). */
  async listDocuments(ownerId: string, options: DocumentListOptions = {}): Promise<DocumentListPage> {
    return listDocuments(this.store, ownerId, options);
  }

  /** Documents in progress or changed since `since`: what My Documents polls for, not what it shows. */
  async documentsToWatch(ownerId: string, since: Date): Promise<DocumentReadModel[]> {
    return documentsToWatch(this.store, ownerId, since.toISOString());
  }

  async countDocuments(ownerId: string): Promise<number> {
    return countDocuments(this.store, ownerId);
  }

  /** The owner's document; another user's id answers exactly like a missing one. */
  async getDocument(ownerId: string, documentId: string): Promise<DocumentReadModel> {
    const document = await ownedDocument(this.store, ownerId, documentId);
    if (!document) throw new DomainError("DOCUMENT_NOT_FOUND", "Document Not Found");
    return document;
  }

  /** A document the user may read (own, or shared by a community); anything else answers like a missing one. */
  async readableDocument(userId: string, documentId: string): Promise<DocumentReadModel> {
    const [document] = await this.readableDocuments(userId, [documentId]);
    if (!document) throw new DomainError("DOCUMENT_NOT_FOUND", "Document Not Found");
    return document;
  }

  /** Of these ids, the documents the user may read right now, in the order asked. */
  async readableDocuments(userId: string, documentIds: readonly string[]): Promise<DocumentReadModel[]> {
    const rows = await documentsByIds(this.store, documentIds);
    const readable = new Map((await readableDocuments(rows, userId, this.grants)).map((d) => [d.id, d]));
    return [...new Set(documentIds)].flatMap((id) => readable.get(id) ?? []);
  }

  /** The original bytes, for download and the viewer. */
  /** The original file's description (size, type) for a reader, without its bytes: to answer conditional and range requests. */
  async describeSource(userId: string, documentId: string): Promise<{ document: DocumentReadModel; blob: BlobInfo }> {
    const document = await this.readableDocument(userId, documentId);
    const blob = await this.blobs.head(`documents/${document.ownerId}/${documentId}/source`);
    if (!blob) throw new DomainError("DOCUMENT_FILE_MISSING", "Download URL not available.");
    return { document, blob };
  }

  /** The original file for a reader, or only `range` of it (checked against `describeSource`'s size). */
  async openSource(userId: string, documentId: string, range?: ByteRange): Promise<{ document: DocumentReadModel; blob: StoredBlob }> {
    const document = await this.readableDocument(userId, documentId);
    const blob = await this.blobs.get(`documents/${document.ownerId}/${documentId}/source`, range);
    if (!blob) throw new DomainError("DOCUMENT_FILE_MISSING", "Download URL not available.");
    return { document, blob };
  }

  /** A recording for the player: its seekable copy (decision 143), else the original. */
  async openPlayback(ownerId: string, documentId: string): Promise<{ document: DocumentReadModel; blob: StoredBlob }> {
    const document = await this.getDocument(ownerId, documentId);
    // Recordings, and videos without captions whose sound was transcribed.
    if (document.kind !== "audio") throw new DomainError("DOCUMENT_NOT_FOUND", "Document Not Found");
    const blob = (await this.blobs.get(`documents/${ownerId}/${documentId}/playback`)) ?? (await this.blobs.get(`documents/${ownerId}/${documentId}/source`));
    if (!blob) throw new DomainError("DOCUMENT_FILE_MISSING", "Download URL not available.");
    return { document, blob };
  }

  /** Layout blocks of one page (1-based), for highlights. */
  async layout(userId: string, documentId: string, pageNumber: number): Promise<LayoutBlock[]> {
    const pages = await this.pages(userId, documentId);
    const page = pages.find((p) => p.pageNumber === pageNumber);
    if (!page) throw new DomainError("PAGE_NOT_FOUND", "Page not found");
    return page.blocks;
  }

  async pages(userId: string, documentId: string): Promise<ExtractedPage[]> {
    const document = await this.readableDocument(userId, documentId);
    const stored = await this.blobs.get(`documents/${document.ownerId}/${documentId}/pages.json`);
    if (!stored) return [];
    const parts: Buffer[] = [];
    for await (const part of stored.body) parts.push(part as Buffer);
    return JSON.parse(Buffer.concat(parts).toString("utf8")) as ExtractedPage[];
  }
}
