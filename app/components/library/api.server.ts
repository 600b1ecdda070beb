import { isDomainError } from "#domain/shared/domain-error";
import type { DocumentReadModel } from "#projections/library/documents.projector";
import { getServices } from "#app/utils/services.server";

/** HTTP status for each DomainError code the library raises. */
const STATUS: Record<string, number> = {
  DOCUMENT_NOT_FOUND: 404,
  DOCUMENT_FILE_MISSING: 404,
  PAGE_NOT_FOUND: 404,
  DOCUMENT_IN_PROGRESS: 409,
  PAGE_LIMIT: 422,
  FILE_TOO_LARGE: 413,
  INVALID_SIZE: 400,
  FILE_REJECTED: 422,
  UPLOAD_URL_INVALID: 403,
  VALIDATION: 400,
};

export type ApiError = { code: string; message: string; field?: string };

/** DomainErrors become `{code, message, field}` with a fitting status; anything else is logged and answered generically. */
export async function errorResponse(error: unknown): Promise<Response> {
  if (error instanceof Response) return error;
  if (isDomainError(error)) {
    const body: ApiError = { code: error.code, message: error.message, ...(error.field ? { field: error.field } : {}) };
    return Response.json(body, { status: STATUS[error.code] ?? 400 });
  }
  try {
    const { logger } = await getServices();
    logger.error({ err: error }, "library api failed");
  } catch {
    // logging must not mask the answer
  }
  return Response.json({ code: "INTERNAL", message: "Something went wrong" } satisfies ApiError, { status: 500 });
}

/** Loaders of pages: a foreign or missing document answers 404, other DomainErrors a 400 with the readable message. */
export function throwAsPageError(error: unknown): never {
  if (isDomainError(error)) {
    if (error.code === "DOCUMENT_NOT_FOUND") throw new Response("Document Not Found", { status: 404 });
    throw new Response(error.message, { status: STATUS[error.code] ?? 400 });
  }
  throw error;
}

/** The spec's document shape (000 §3 Document), plus the failure reason and warnings. */
export type ApiDocument = {
  document_id: string;
  document_name: string;
  status: string;
  created_timestamp: string;
  file_type: string;
  failure_reason: string | null;
  warnings: string[];
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
    metadata: {
      document_size: d.size,
      document_source: d.source,
      document_url: d.sourceUrl,
      document_type: d.fileType,
      page_count: d.pageCount,
    },
  };
}

/** Reads a JSON body, answering a readable 400 instead of a parse stack. */
export async function readJson(request: Request): Promise<unknown> {
  try {
    return await request.json();
  } catch {
    throw Response.json({ code: "VALIDATION", message: "The request body is not valid JSON." } satisfies ApiError, { status: 400 });
  }
}
