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

/** A page of the owner's documents (of one status, when given) from GET /api/documents, newest first. */
async function documentPage(offset: number, search: string, limit: number, status?: "ACTIVE") {
  const params = new URLSearchParams({ limit: String(limit), offset: String(offset), search, ...(status ? { status } : {}) });
  const response = await fetch(`/api/documents?${params}`, { headers: { Accept: "application/json" } });
  if (!response.ok) throw new Error("Could not load documents");
  const page = (await response.json()) as { documents: ApiDocument[]; total: number };
  return { items: page.documents.map(fromApi), total: page.total };
}

export const fetchDocuments: FetchListPage<LibraryDocument> = (offset, search, limit) => documentPage(offset, search, limit);

/** Only the ready documents: what can be picked as the assessment's resume. */
export const fetchReadyDocuments: FetchListPage<LibraryDocument> = (offset, search, limit) => documentPage(offset, search, limit, "ACTIVE");

/** My Documents as an infinite list (desktop table and phone cards alike). */
export function useInfiniteDocuments(options: { first: LibraryDocument[]; total: number; q: string; pageSize: number; active?: boolean }) {
  return useInfiniteList({ ...options, fetchPage: fetchDocuments });
}
