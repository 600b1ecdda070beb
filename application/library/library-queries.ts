import { inject, injectable } from "inversify";
import { TOKENS } from "#application/tokens";
import type { BlobStore, StoredBlob } from "#application/ports/blob-store";
import type { ReadModelStore } from "#application/ports/read-model-store";
import type { ExtractedPage, LayoutBlock } from "#application/ports/text-extraction";
import { accessPolicy } from "#application/shared/access-policy";
import { DomainError } from "#domain/shared/domain-error";
import { DOCUMENTS, type DocumentReadModel } from "#projections/library/documents.projector";

export interface DocumentListPage {
  documents: DocumentReadModel[];
  total: number;
}

/** Reads over the library's read models and stored pages; every read is scoped to its owner. */
@injectable()
export class LibraryQueries {
  constructor(
    @inject(TOKENS.ReadModelStore) private readonly store: ReadModelStore,
    @inject(TOKENS.BlobStore) private readonly blobs: BlobStore,
  ) {}

  private get documents() {
    return this.store.collection<DocumentReadModel>(DOCUMENTS);
  }

  /** Newest first; search is case-insensitive on part of the name (spec 000 §2). */
  async listDocuments(ownerId: string, options: { search?: string; limit?: number; offset?: number } = {}): Promise<DocumentListPage> {
    const search = options.search?.trim();
    const filter = search ? { ownerId, nameLower: { $icontains: search } } : { ownerId };
    const [documents, total] = await Promise.all([
      this.documents.find(filter, {
        sort: [{ field: "createdAt", direction: "desc" }],
        limit: options.limit,
        offset: options.offset,
      }),
      this.documents.count(filter),
    ]);
    return { documents, total };
  }

  async countDocuments(ownerId: string): Promise<number> {
    return this.documents.count({ ownerId });
  }

  /** The owner's document; another user's id answers exactly like a missing one. */
  async getDocument(ownerId: string, documentId: string): Promise<DocumentReadModel> {
    const document = await this.documents.get(documentId);
    if (!accessPolicy.canRead(document, ownerId)) throw new DomainError("DOCUMENT_NOT_FOUND", "Document Not Found");
    return document;
  }

  /** The original bytes, for download and the viewer. */
  async openSource(ownerId: string, documentId: string): Promise<{ document: DocumentReadModel; blob: StoredBlob }> {
    const document = await this.getDocument(ownerId, documentId);
    const blob = await this.blobs.get(`documents/${ownerId}/${documentId}/source`);
    if (!blob) throw new DomainError("DOCUMENT_FILE_MISSING", "Download URL not available.");
    return { document, blob };
  }

  /** Layout blocks of one page (1-based), for highlights. */
  async layout(ownerId: string, documentId: string, pageNumber: number): Promise<LayoutBlock[]> {
    const pages = await this.pages(ownerId, documentId);
    const page = pages.find((p) => p.pageNumber === pageNumber);
    if (!page) throw new DomainError("PAGE_NOT_FOUND", "Page not found");
    return page.blocks;
  }

  async pages(ownerId: string, documentId: string): Promise<ExtractedPage[]> {
    await this.getDocument(ownerId, documentId);
    const stored = await this.blobs.get(`documents/${ownerId}/${documentId}/pages.json`);
    if (!stored) return [];
    const parts: Buffer[] = [];
    for await (const part of stored.body) parts.push(part as Buffer);
    return JSON.parse(Buffer.concat(parts).toString("utf8")) as ExtractedPage[];
  }
}
