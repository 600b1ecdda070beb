import type { z } from "zod";
import type { TokenGrant } from "#application/identity/access-tokens";
import type { RequestContext } from "#application/shared/request-context";
import type { TokenPermission } from "#domain/identity/access-token";
import type { Services } from "#app/utils/services.server";

/** What a handler of /api/v1 gets: the validated input, the token's grant, and the services the pages use too. */
export interface ApiCall<Params, Query, Body> {
  request: Request;
  grant: TokenGrant;
  ctx: RequestContext;
  services: Services;
  params: Params;
  query: Query;
  body: Body;
}

export interface ApiResponseSpec {
  description: string;
  schema?: z.ZodTypeAny;
  /** application/json unless said (text/event-stream for streams). */
  contentType?: string;
}

/**
 * One operation of /api/v1: its path, the permission it needs, the zod
 * schemas its input is validated with and its answers are described by, and
 * its handler. The router runs it; the OpenAPI document is generated from the
 * same objects (decision 221).
 */
export interface ApiOperation<Params = unknown, Query = unknown, Body = unknown> {
  method: "get" | "post" | "delete";
  /** OpenAPI style, under /api/v1: `/documents/{id}`. */
  path: string;
  operationId: string;
  summary: string;
  tag: string;
  /** null: any valid token (/models lists what the token may ask, /token says what it is). */
  permission: TokenPermission | null;
  params?: z.ZodType<Params, z.ZodTypeDef, unknown>;
  query?: z.ZodType<Query, z.ZodTypeDef, unknown>;
  body?: { contentType: "application/json" | "multipart/form-data"; schema: z.ZodType<Body, z.ZodTypeDef, unknown>; limitBytes: number };
  responses: Record<number, ApiResponseSpec>;
  handle(call: ApiCall<Params, Query, Body>): Promise<Response>;
}

/** Keeps each operation's own types while the router holds them in one list. */
export function operation<Params, Query, Body>(definition: ApiOperation<Params, Query, Body>): ApiOperation {
  return definition as unknown as ApiOperation;
}

export const json = (body: unknown, status = 200, headers: Record<string, string> = {}): Response =>
  new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json", "Cache-Control": "no-store", ...headers } });

/** Opaque cursors (decision 221): the position after the last item of a page. */
export function readCursor(cursor: string | undefined): number {
  if (!cursor) return 0;
  try {
    const offset = (JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as { o?: unknown }).o;
    if (typeof offset === "number" && Number.isInteger(offset) && offset >= 0) return offset;
  } catch {
    // falls through to the refusal
  }
  return -1;
}

export const nextCursor = (offset: number, count: number, total: number): string | null =>
  offset + count < total ? Buffer.from(JSON.stringify({ o: offset + count })).toString("base64url") : null;
