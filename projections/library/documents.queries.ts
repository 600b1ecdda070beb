import type { ReadModelStore } from "#application/ports/read-model-store";
import { IN_PROGRESS_STATUSES } from "#domain/library/document";
import { type NameSearch, ownerPageByName } from "../name-search";
import { DOCUMENTS, type DocumentReadModel } from "./documents.projector";

/** The library's read side: what other modules may read of the documents projection. */
export type { DocumentReadModel } from "./documents.projector";
/** A page of an owner's documents: part of the name, a status, limit and offset. */
export type DocumentListOptions = NameSearch;

export interface DocumentListPage {
  documents: DocumentReadModel[];
  total: number;
}

const documents = (store: ReadModelStore) => store.collection<DocumentReadModel>(DOCUMENTS);

/** Newest first; search is case-insensitive on part of the name (spec 000 §2). */
export async function listDocuments(store: ReadModelStore, ownerId: string, options: DocumentListOptions = {}): Promise<DocumentListPage> {
  const { items, total } = await ownerPageByName(documents(store), ownerId, options, [{ field: "createdAt", direction: "desc" }]);
  return { documents: items, total };
}

/** Enough for the upload limits in force; the watch list is for toasts and polling, not for display. */
const WATCHED_AT_MOST = 100;

/**
 * What My Documents watches for its polling and "ready" toasts: the owner's
 * documents still in progress, and those changed since `since` (so one that
 * just finished is seen finishing). Never the whole library.
 */
export async function documentsToWatch(store: ReadModelStore, ownerId: string, since: string): Promise<DocumentReadModel[]> {
  const sort = [{ field: "createdAt" as const, direction: "desc" as const }];
  const [inProgress, changed] = await Promise.all([
    documents(store).find({ ownerId, status: { $in: [...IN_PROGRESS_STATUSES] } }, { sort, limit: WATCHED_AT_MOST }),
    documents(store).find({ ownerId, updatedAt: { $gte: since } }, { sort, limit: WATCHED_AT_MOST }),
  ]);
  const byId = new Map([...inProgress, ...changed].map((d) => [d.id, d]));
  return [...byId.values()];
}

export function countDocuments(store: ReadModelStore, ownerId: string): Promise<number> {
  return documents(store).count({ ownerId });
}

/** The owner's document, or null when it is missing or another user's (the caller answers both alike). */
export async function ownedDocument(store: ReadModelStore, ownerId: string, documentId: string): Promise<DocumentReadModel | null> {
  const document = await documents(store).get(documentId);
  return document && document.ownerId === ownerId ? document : null;
}

/** Rows by id, whoever owns them: only for the access policy, which then keeps what the reader may read. */
export async function documentsByIds(store: ReadModelStore, documentIds: readonly string[]): Promise<DocumentReadModel[]> {
  const ids = [...new Set(documentIds)];
  if (ids.length === 0) return [];
  return documents(store).find({ id: { $in: ids } });
}
