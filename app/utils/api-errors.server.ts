import { CONCURRENT_CHANGE, type DomainError, isDomainError, RetryLater } from "#domain/shared/domain-error";
import { bodyTooLargeMessage, DEFAULT_BODY_LIMIT } from "./body-limit.server";
import { getServices } from "./services.server";

/** HTTP status per DomainError code; a foreign id answers exactly like a missing one (404). */
const STATUS: Record<string, number> = {
  DOCUMENT_NOT_FOUND: 404,
  DOCUMENT_FILE_MISSING: 404,
  PAGE_NOT_FOUND: 404,
  WORKSPACE_NOT_EXIST: 404,
  CONVERSATION_NOT_FOUND: 404,
  MESSAGE_NOT_FOUND: 404,
  KEYSET_NOT_FOUND: 404,
  REAUTH_REQUIRED: 403,
  PROVIDER_KEY_REFUSED: 422,
  PROVIDER_RATE_LIMITED: 429,
  PROVIDER_MODEL_NOT_FOUND: 422,
  PROVIDER_UNREACHABLE: 422,
  PROVIDER_ERROR: 502,
  PROVIDER_STREAM_CUT: 502,
  // The product's own model failing is the server's failure, not the asker's (issue 44 item 4).
  PROVIDER_TIMEOUT: 504,
  PROVIDER_OVERLOADED: 503,
  DOCUMENT_IN_PROGRESS: 409,
  MESSAGE_NOT_FINISHED: 409,
  PAGE_LIMIT: 422,
  WORKSPACE_LIMIT: 422,
  UPLOAD_LIMIT: 422,
  MESSAGE_LIMIT: 422,
  ORDER_NOT_FOUND: 404,
  PLAN_NOT_FOUND: 404,
  PLAN_NOT_FOR_SALE: 422,
  PAYMENTS_NOT_CONFIGURED: 503,
  ORDER_CREATION_FAILED: 502,
  PAYMENT_MISMATCH: 422,
  PAYMENT_SIGNATURE_INVALID: 422,
  PAYMENT_UNCONFIRMED: 502,
  MESSAGE_CREATION_FAILURE: 422,
  CONVERSATION_CREATION_FAILURE: 422,
  RESUME_NO_FILES: 422,
  RESUME_NOT_FOUND: 404,
  RESUME_VERSION_NOT_FOUND: 404,
  RESUME_DOES_NOT_COMPILE: 422,
  RESUME_EMPTY: 400,
  RESUME_TOO_LARGE: 413,
  COMPILE_BUSY: 429,
  COMPILE_TIMEOUT: 503,
  FILE_TOO_LARGE: 413,
  INVALID_SIZE: 400,
  FILE_REJECTED: 422,
  UPLOAD_URL_INVALID: 403,
  IMPERSONATION_READ_ONLY: 403,
  IMAGE_NOT_FOUND: 404,
  IMAGE_NOT_ATTACHED: 422,
  RATE_LIMITED: 429,
  VALIDATION: 400,
  CONCURRENT_CHANGE: 409,
};

export type ApiError = { code: string; message: string; field?: string };

export function statusOf(code: string): number {
  return STATUS[code] ?? 400;
}

/** `Retry-After` for a refusal that passes with time; none for any other. */
export function retryHeaders(error: DomainError): Record<string, string> {
  return error instanceof RetryLater ? { "Retry-After": String(error.retryAfterSeconds) } : {};
}

/** A page's form answered with the refusal's message: 409 when another writer won (the user may try again), else 400. */
export function formRefusalStatus(error: DomainError): number {
  return error.code === CONCURRENT_CHANGE ? 409 : 400;
}

/** DomainErrors become `{code, message, field}` with a fitting status; anything else is logged and answered generically. */
export async function apiErrorResponse(error: unknown): Promise<Response> {
  if (error instanceof Response) return error;
  if (isDomainError(error)) {
    const body: ApiError = { code: error.code, message: error.message, ...(error.field ? { field: error.field } : {}) };
    return Response.json(body, { status: statusOf(error.code), headers: retryHeaders(error) });
  }
  try {
    (await getServices()).logger.error({ err: error }, "api request failed");
  } catch {
    // logging must not mask the answer
  }
  return Response.json({ code: "INTERNAL", message: "Something went wrong" } satisfies ApiError, { status: 500 });
}

/**
 * Reads a request body, refusing it (413, with `message`) as soon as it passes
 * `limit` bytes: a body without Content-Length cannot make the server buffer more.
 */
export async function readBodyBytes(request: Request, limit: number, message = bodyTooLargeMessage(limit), code = "TOO_LARGE"): Promise<Buffer> {
  // Connection: close — the server stops reading and closes the connection once the answer is sent.
  const tooLarge = () => Response.json({ code, message } satisfies ApiError, { status: 413, headers: { Connection: "close" } });
  if (Number(request.headers.get("Content-Length") ?? "0") > limit) throw tooLarge();
  if (!request.body) return Buffer.alloc(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = request.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      // Not cancelled: cancelling destroys the socket before the 413 is written, and the client sees only a reset.
      reader.releaseLock();
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

/** Reads a JSON body of bounded size. */
export async function readJsonBody(request: Request, limit = DEFAULT_BODY_LIMIT): Promise<unknown> {
  const text = (await readBodyBytes(request, limit)).toString("utf8");
  try {
    return text ? JSON.parse(text) : {};
  } catch {
    throw Response.json({ code: "VALIDATION", message: "The request body is not valid JSON." }, { status: 400 });
  }
}
