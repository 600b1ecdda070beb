import { OpenApiGeneratorV31, OpenAPIRegistry, type ResponseConfig } from "@asteasolutions/zod-to-openapi";
import type { AnyZodObject } from "zod";
import type { ApiOperation } from "./operation.server";
import { apiOperations } from "./operations.server";
import * as S from "./schemas";

let cached: ReturnType<OpenApiGeneratorV31["generateDocument"]> | null = null;

/**
 * The OpenAPI 3.1 document of /api/v1, generated from the operations the
 * router runs and the zod schemas it validates with (decision 221). Built
 * once per process.
 */
export function openApiDocument() {
  cached ??= build(apiOperations);
  return cached;
}

function build(operations: readonly ApiOperation[]) {
  const registry = new OpenAPIRegistry();
  const bearer = registry.registerComponent("securitySchemes", "bearer", {
    type: "http",
    scheme: "bearer",
    description: "A personal access token from Settings → API Tokens (starts with dcp_).",
  });
  registry.register("Problem", S.Problem);
  const problem = { description: "", content: { "application/problem+json": { schema: S.Problem } } };
  const retryAfter = { "Retry-After": { schema: { type: "integer" as const }, description: "Seconds to wait" } };
  for (const op of operations) {
    const responses: Record<string, ResponseConfig> = {
      401: { ...problem, description: "Missing, invalid, expired or revoked token" },
      429: { ...problem, description: "The token's rate limit is spent (see Retry-After)", headers: retryAfter },
    };
    for (const [status, spec] of Object.entries(op.responses)) {
      const type = Number(status) >= 400 ? "application/problem+json" : (spec.contentType ?? "application/json");
      responses[status] = { description: spec.description, ...(spec.schema ? { content: { [type]: { schema: spec.schema } } } : {}), ...(status === "503" ? { headers: retryAfter } : {}) };
    }
    if (op.path === "/conversations/{id}/messages" && op.method === "post") {
      (responses[200]!.content as Record<string, unknown>)["text/event-stream"] = { schema: { type: "string", description: "`event: delta` {text} …, then `event: done` with the Answer" } };
    }
    if (op.path === "/chat/completions") {
      (responses[200]!.content as Record<string, unknown>)["text/event-stream"] = { schema: { type: "string", description: "`data:` chat.completion.chunk objects (the last carries `citations`), then `data: [DONE]`" } };
    }
    registry.registerPath({
      method: op.method,
      path: op.path,
      operationId: op.operationId,
      summary: op.summary,
      tags: [op.tag],
      security: [{ [bearer.name]: [] }],
      ...(op.permission ? { "x-docuchat-permission": op.permission } : {}),
      request: {
        ...(op.params ? { params: op.params as unknown as AnyZodObject } : {}),
        ...(op.query ? { query: op.query as unknown as AnyZodObject } : {}),
        ...(op.body ? { body: { required: true, content: { [op.body.contentType]: { schema: op.body.schema } } } } : {}),
      },
      responses,
    });
  }
  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: "3.1.0",
    info: {
      title: "DocuChat API",
      version: "1.0.0",
      description:
        "Documents, workspaces, conversations and search for programs, with personal access tokens scoped to workspaces and to read, ask and upload. The same access rules and plan limits apply as in the app. Errors are RFC 9457 problem details; lists page with `cursor`.",
    },
    servers: [{ url: "/api/v1" }],
    // Every operation takes the bearer token; said once too, so reference pages offer it for all of them.
    security: [{ [bearer.name]: [] }],
  });
}
