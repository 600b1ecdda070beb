import type { z } from "zod";
import type { TokenGrant } from "#application/identity/access-tokens";
import type { RequestContext } from "#application/shared/request-context";
import { readBodyBytes, readJsonBody } from "#app/utils/api-errors.server";
import { CLIENT_ADDRESS_HEADER, REQUEST_ID_HEADER } from "#app/utils/request-context.server";
import { getServices, type Services } from "#app/utils/services.server";
import type { ApiOperation } from "./operation.server";
import { apiOperations } from "./operations.server";
import { openApiDocument } from "./openapi.server";
import { fail, ProblemError, problem, problemFrom } from "./problem.server";

export const API_PREFIX = "/api/v1";

const compiled = apiOperations.map((op) => ({
  op,
  pattern: new RegExp(`^${op.path.replace(/\{(\w+)\}/g, "(?<$1>[^/]+)")}$`),
}));

/**
 * The operation's path template a request path under /api/v1 names ("/api/v1/documents/:id"), for request
 * metrics and traces: one label per operation, never an id. Null when no operation has that path.
 */
export function apiRouteTemplate(pathname: string): string | null {
  const path = pathname.slice(API_PREFIX.length) || "/";
  if (path === "/openapi.json") return `${API_PREFIX}/openapi.json`;
  const found = compiled.find(({ pattern }) => pattern.test(path));
  return found ? API_PREFIX + found.op.path.replace(/\{(\w+)\}/g, ":$1") : null;
}

/** The bearer token's grant with its owner's account state, or a 401/429 problem. */
export interface Authorised {
  grant: TokenGrant;
  ctx: RequestContext;
  services: Services;
  /** The owner's account is scheduled for deletion: it may read, not change (decision 022). */
  readOnly: boolean;
}

/**
 * Who a request acts for, from its `Authorization: Bearer` token alone:
 * cookies are never read, so no browser session (nor an impersonation) can
 * ride on an API call, and no CSRF check is needed (decision 221).
 */
export async function authorise(request: Request): Promise<Authorised> {
  const services = await getServices();
  const header = request.headers.get("Authorization") ?? "";
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(header)?.[1];
  const challenge = { "WWW-Authenticate": 'Bearer realm="DocuChat"' };
  if (!bearer) fail(401, "Send a personal access token: Authorization: Bearer <token>.", "TOKEN_MISSING", challenge);
  const base: RequestContext = {
    requestId: request.headers.get(REQUEST_ID_HEADER) ?? crypto.randomUUID(),
    clientAddress: request.headers.get(CLIENT_ADDRESS_HEADER) ?? "unknown",
  };
  const grant = await services.accessTokens.authenticate(bearer!);
  // A purged owner's token cannot even be checked (its hash was shredded); an owner whose account row is gone is refused too.
  const owner = grant ? await services.identityQueries.currentUser(grant.ownerId, null) : null;
  if (!grant || !owner) return fail(401, "The token is invalid, expired or revoked.", "TOKEN_INVALID", challenge);
  // Off the request path: the answer never waits for, nor fails with, the "last used" summary (issue 42).
  if (grant.useDue) services.accessTokens.recordUse(grant, base).catch((error) => services.logger.warn({ err: error }, "a token's use summary was not recorded"));
  // The per-token limit shares out capacity; it is no lock. A counter that cannot be written (SQLite busy
  // past its timeout) lets the request through rather than answer 500 (docs/decisions/250).
  const allowance = await services.accessTokens.spend(grant.tokenId).catch((error) => {
    services.logger.warn({ err: error }, "a token's request was not counted against its rate limit");
    return null;
  });
  if (allowance && !allowance.allowed) fail(429, `This token's request limit is spent; retry in ${allowance.retryAfterSeconds} s.`, "RATE_LIMITED", { "Retry-After": String(allowance.retryAfterSeconds) });
  return { grant, ctx: { ...base, actorId: grant.ownerId }, services, readOnly: owner.status === "PENDING_DELETE" };
}

function parse<T>(schema: z.ZodType<T, z.ZodTypeDef, unknown> | undefined, value: unknown): T {
  if (!schema) return undefined as T;
  const result = schema.safeParse(value);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    throw new ProblemError(problem(400, issue.message, { code: "VALIDATION", field: issue.path.join(".") || undefined }));
  }
  return result.data;
}

async function readBody(request: Request, spec: NonNullable<ApiOperation["body"]>): Promise<unknown> {
  const type = (request.headers.get("Content-Type") ?? "").toLowerCase();
  if (!type.startsWith(spec.contentType)) fail(415, `Send ${spec.contentType}.`, "UNSUPPORTED_MEDIA_TYPE");
  if (spec.contentType === "application/json") return parse(spec.schema, await readJsonBody(request, spec.limitBytes));
  // Multipart bodies are read up to the route's limit as bytes arrive, then parsed (ARCHITECTURE §8).
  const bytes = await readBodyBytes(request, spec.limitBytes, "The upload is larger than the largest file accepted.", "FILE_TOO_LARGE");
  try {
    return await new Response(new Uint8Array(bytes), { headers: { "Content-Type": request.headers.get("Content-Type") ?? "" } }).formData();
  } catch {
    return fail(400, "The multipart body could not be read.", "VALIDATION");
  }
}

/** Every request under /api/v1 (a Remix splat route hands them here). */
export async function handleApiRequest(request: Request): Promise<Response> {
  const url = new URL(request.url);
  const path = url.pathname.startsWith(API_PREFIX) ? url.pathname.slice(API_PREFIX.length) || "/" : url.pathname;
  const method = request.method.toLowerCase();
  let services: Services | null = null;
  try {
    if (path === "/openapi.json" && (method === "get" || method === "head")) {
      return new Response(JSON.stringify(openApiDocument()), { headers: { "Content-Type": "application/json", "Cache-Control": "public, max-age=300" } });
    }
    const matches = compiled.map(({ op, pattern }) => ({ op, match: pattern.exec(path) })).filter((m) => m.match);
    if (matches.length === 0) return problem(404, "No such endpoint. The API is described at /api/v1/openapi.json.", { code: "NOT_FOUND" });
    const found = matches.find((m) => m.op.method === method || (method === "head" && m.op.method === "get"));
    if (!found) return problem(405, "This endpoint does not take that method.", { headers: { Allow: matches.map((m) => m.op.method.toUpperCase()).join(", ") } });
    const { op } = found;
    const authorised = await authorise(request);
    services = authorised.services;
    const { grant } = authorised;
    if (op.permission && !grant.permissions.includes(op.permission)) fail(403, `This token does not have the "${op.permission}" permission.`, "TOKEN_PERMISSION");
    if (authorised.readOnly && op.method !== "get") fail(403, "Your account is scheduled for deletion. Retrieve it to make changes.", "ACCOUNT_PENDING_DELETE");
    const params = parse(op.params, Object.fromEntries(Object.entries(found.match!.groups ?? {}).map(([k, v]) => [k, decodeURIComponent(v)])));
    const query = parse(op.query, Object.fromEntries(url.searchParams));
    const body = op.body ? await readBody(request, op.body) : undefined;
    return await op.handle({ request, grant, ctx: authorised.ctx, services: authorised.services, params, query, body });
  } catch (error) {
    const logger = (services ?? (await getServices())).logger;
    return problemFrom(error, (e) => logger.error({ err: e, path }, "api v1 request failed"));
  }
}
