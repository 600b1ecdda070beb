import { isDomainError } from "#domain/shared/domain-error";
import type { DocumentReadModel } from "#projections/library/documents.queries";
import { statusOf } from "#app/utils/api-errors.server";
import { documentNotes } from "./document-view";

export { apiErrorResponse as errorResponse, readJsonBody as readJson, type ApiError } from "#app/utils/api-errors.server";

/** Loaders of pages: a foreign or missing document answers 404, other DomainErrors a 400 with the readable message. */
export function throwAsPageError(error: unknown): never {
  if (isDomainError(error)) {
    if (error.code === "DOCUMENT_NOT_FOUND") throw new Response("Document Not Found", { status: 404 });
    throw new Response(error.message, { status: statusOf(error.code) });
  }
  throw error;
}

/** The spec's document shape (000 §3 Document), plus the failure reason, warnings and reading notes. */
export type ApiDocument = {
  document_id: string;
  document_name: string;
  status: string;
  created_timestamp: string;
  file_type: string;
  failure_reason: string | null;
  warnings: string[];
  /** How the pages were read ("3 of 23 pages were read by OCR", "2 pages could not be read"). */
  reading_notes: string[];
  metadata: {
    document_size: number;
    document_source: string;
    document_url: string | null;
    document_type: string;
    page_count: number;
  };
};

export function toApiDocument(d: DocumentReadModel): ApiDocument {
  return {
    document_id: d.id,
    document_name: d.name,
    status: d.status,
    created_timestamp: d.createdAt,
    file_type: d.kind ?? d.fileType,
    failure_reason: d.failureReason,
    warnings: d.warnings,
    reading_notes: documentNotes(d),
    metadata: {
      document_size: d.size,
      document_source: d.source,
      document_url: d.sourceUrl,
      document_type: d.fileType,
      page_count: d.pageCount,
    },
  };
}
