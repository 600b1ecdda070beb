import { isDomainError } from "#domain/shared/domain-error";
import { retryHeaders, statusOf } from "#app/utils/api-errors.server";

/** RFC 9457 problem details: the one error shape of /api/v1 (decision 221). */
export const PROBLEM_TYPE_BASE = "https://docuchat.dev/problems/";

const TITLES: Record<number, string> = {
  400: "Bad request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not found",
  405: "Method not allowed",
  409: "Conflict",
  413: "Payload too large",
  415: "Unsupported media type",
  422: "Unprocessable content",
  429: "Too many requests",
  500: "Internal server error",
  502: "Bad gateway",
  503: "Service unavailable",
  504: "Gateway timeout",
};

export function problem(status: number, detail: string, extra: { code?: string; field?: string; headers?: Record<string, string> } = {}): Response {
  const title = TITLES[status] ?? "Error";
  const body = {
    type: `${PROBLEM_TYPE_BASE}${title.toLowerCase().replaceAll(" ", "-")}`,
    title,
    status,
    detail,
    ...(extra.code ? { code: extra.code } : {}),
    ...(extra.field ? { field: extra.field } : {}),
  };
  return new Response(JSON.stringify(body), {
    status,
    headers: { "Content-Type": "application/problem+json", "Cache-Control": "no-store", ...extra.headers },
  });
}

/** A thrown problem: handlers stop with it, the router answers it. */
export class ProblemError extends Error {
  constructor(readonly response: Response) {
    super("problem");
  }
}

export const fail = (status: number, detail: string, code?: string, headers?: Record<string, string>): never => {
  throw new ProblemError(problem(status, detail, { code, headers }));
};

/** A domain refusal keeps its status and code (the same table the pages' API uses); anything else is a 500 the caller logs. */
export async function problemFrom(error: unknown, log: (error: unknown) => void): Promise<Response> {
  if (error instanceof ProblemError) return error.response;
  if (isDomainError(error)) return problem(statusOf(error.code), error.message, { code: error.code, field: error.field, headers: retryHeaders(error) });
  if (error instanceof Response) {
    // The shared body reader answers 413 (and JSON 400) as a Response: keep its status, in our shape.
    const body = (await error.json().catch(() => ({}))) as { code?: string; message?: string };
    return problem(error.status, body.message ?? "The request was refused.", { code: body.code, headers: error.status === 413 ? { Connection: "close" } : {} });
  }
  log(error);
  return problem(500, "Something went wrong.", { code: "INTERNAL" });
}
