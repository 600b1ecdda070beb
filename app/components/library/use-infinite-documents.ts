import { type FetchListPage, useInfiniteList } from "#app/components/use-infinite-list";
import type { ApiDocument } from "./api.server";
import type { LibraryDocument } from "./document-view";

export const fromApi = (d: ApiDocument): LibraryDocument => ({
  id: d.document_id,
  name: d.document_name,
  source: d.metadata.document_source,
  fileType: d.metadata.document_type,
  kind: d.file_type,
  size: d.metadata.document_size,
  pageCount: d.metadata.page_count,
  sourceUrl: d.metadata.document_url,
  status: d.status,
  failureReason: d.failure_reason,
  warnings: d.warnings,
  readingNotes: d.reading_notes ?? [],
  createdAt: d.created_timestamp,
});

/** A page of the owner's documents from GET /api/documents, newest first. */
export const fetchDocuments: FetchListPage<LibraryDocument> = async (offset, search, limit) => {
  const params = new URLSearchParams({ limit: String(limit), offset: String(offset), search });
  const response = await fetch(`/api/documents?${params}`, { headers: { Accept: "application/json" } });
  if (!response.ok) throw new Error("Could not load documents");
  const page = (await response.json()) as { documents: ApiDocument[]; total: number };
  return { items: page.documents.map(fromApi), total: page.total };
};

/** My Documents as an infinite list (desktop table and phone cards alike). */
export function useInfiniteDocuments(options: { first: LibraryDocument[]; total: number; q: string; pageSize: number; active?: boolean }) {
  return useInfiniteList({ ...options, fetchPage: fetchDocuments });
}
