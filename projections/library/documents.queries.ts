import type { ReadModelStore } from "#application/ports/read-model-store";
import { type NameSearch, ownerPageByName } from "../name-search";
import { DOCUMENTS, type DocumentReadModel } from "./documents.projector";

/** The library's read side: what other modules may read of the documents projection. */
export type { DocumentReadModel } from "./documents.projector";

export interface DocumentListPage {
  documents: DocumentReadModel[];
  total: number;
}

const documents = (store: ReadModelStore) => store.collection<DocumentReadModel>(DOCUMENTS);

/** Newest first; search is case-insensitive on part of the name (spec 000 §2). */
export async function listDocuments(store: ReadModelStore, ownerId: string, options: NameSearch = {}): Promise<DocumentListPage> {
  const { items, total } = await ownerPageByName(documents(store), ownerId, options, [{ field: "createdAt", direction: "desc" }]);
  return { documents: items, total };
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
