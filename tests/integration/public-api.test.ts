import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import Ajv2020 from "ajv/dist/2020.js";
import createClient from "openapi-fetch";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AccessTokenService } from "#application/identity/access-tokens";
import { openApiDocument } from "#app/public-api/openapi.server";
import { handleApiRequest } from "#app/public-api/router.server";
import { signedInUser } from "../support/route-session";
import { createTestRuntime } from "../support/test-runtime";
import { API_TYPES_FILE, apiTypes } from "../support/api-types";
import type { paths } from "../support/docuchat-api";

/**
 * The public API (issue 31) as a program uses it: a client generated from
 * /api/v1/openapi.json uploads a PDF, waits for it, builds a workspace, asks,
 * searches and deletes; every answer is checked against the document.
 */
const here = path.dirname(fileURLToPath(import.meta.url));
const PDF = readFileSync(path.join(here, "../fixtures/documents/saltmarsh-survey.pdf"));
const BASE = "http://docuchat.test/api/v1";

let env: Awaited<ReturnType<typeof createTestRuntime>>;
let userId = "";
let token = "";
const ctx = (actorId: string) => ({ requestId: `api-test-${actorId}`, clientAddress: "127.0.0.1", actorId });

/** Every response of the journey, validated against the OpenAPI document's schema for its operation and status. */
const doc = openApiDocument() as unknown as { paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema: unknown }> }> }>>; components: { schemas: Record<string, unknown> } };
const ajv = new Ajv2020({ strict: false, allErrors: true });
ajv.addSchema({ $id: "doc", components: doc.components });
const checked: string[] = [];

async function conforming(request: Request): Promise<Response> {
  const response = await handleApiRequest(request);
  const url = new URL(request.url);
  const route = Object.keys(doc.paths).find((p) => new RegExp(`^/api/v1${p.replace(/\{\w+\}/g, "[^/]+")}$`).test(url.pathname));
  const type = response.headers.get("Content-Type") ?? "";
  if (route && (type.startsWith("application/json") || type.startsWith("application/problem+json"))) {
    const spec = doc.paths[route]![request.method.toLowerCase()]!.responses[String(response.status)];
    expect(spec, `${request.method} ${route} answered ${response.status}, which the document does not describe`).toBeDefined();
    const schema = spec!.content?.[type.split(";")[0]!]?.schema;
    expect(schema, `${request.method} ${route} ${response.status} ${type} is not described`).toBeDefined();
    const body = await response.clone().json();
    const validate = ajv.compile(JSON.parse(JSON.stringify(schema).replaceAll("#/components", "doc#/components")));
    expect(validate(body), `${request.method} ${route} ${response.status}: ${ajv.errorsText(validate.errors)}`).toBe(true);
    checked.push(`${request.method} ${route} ${response.status}`);
  }
  return response;
}

const client = () => createClient<paths>({ baseUrl: BASE, headers: { Authorization: `Bearer ${token}` }, fetch: conforming });

beforeAll(async () => {
  env = await createTestRuntime();
  globalThis.__docuchatRuntime = Promise.resolve(env.runtime);
  userId = (await signedInUser(env.runtime, "apiuser")).id;
  token = (await env.runtime.container.get(AccessTokenService).create(userId, { name: "Journey", expiresIn: "30", scope: "all", permissions: ["read", "ask", "upload"] }, ctx(userId))).token;
});

afterAll(async () => {
  globalThis.__docuchatRuntime = undefined;
  await env?.cleanup();
});

describe("the public API through a generated client", () => {
  it("the committed client types are what openapi-typescript generates from the served document", async () => {
    expect(readFileSync(API_TYPES_FILE, "utf8"), "run npm run api:types").toBe(await apiTypes());
    const served = await handleApiRequest(new Request(`${BASE}/openapi.json`));
    expect((await served.json()).openapi).toBe("3.1.0");
  });

  it("uploads a PDF, waits for ACTIVE, creates a workspace, asks, gets a cited answer, searches, deletes", async () => {
    const api = client();
    const form = new FormData();
    form.set("file", new File([PDF], "saltmarsh-survey.pdf", { type: "application/pdf" }));
    const uploaded = await api.POST("/documents", { body: form as unknown as { file: string }, bodySerializer: (b) => b as unknown as FormData });
    expect(uploaded.response.status).toBe(202);
    const documentId = uploaded.data!.id;

    let status = "";
    for (let i = 0; i < 150 && status !== "ACTIVE" && status !== "FAILED"; i++) {
      const polled = await api.GET("/documents/{id}/status", { params: { path: { id: documentId } } });
      status = polled.data!.status;
      if (status !== "ACTIVE") await new Promise((r) => setTimeout(r, 200));
    }
    expect(status).toBe("ACTIVE");

    const page = await api.GET("/documents/{id}/pages/{page}", { params: { path: { id: documentId, page: 1 } } });
    expect(page.data!.text).toContain("Brackenmouth");

    const created = await api.POST("/workspaces", { body: { name: "Saltmarsh", document_ids: [documentId] } });
    expect(created.response.status).toBe(201);
    const workspaceId = created.data!.id;
    let workspaceStatus = created.data!.status;
    for (let i = 0; i < 100 && workspaceStatus !== "ACTIVE"; i++) {
      await new Promise((r) => setTimeout(r, 100));
      workspaceStatus = (await api.GET("/workspaces/{id}", { params: { path: { id: workspaceId } } })).data!.status;
    }
    expect(workspaceStatus).toBe("ACTIVE");

    const conversation = await api.POST("/conversations", { body: { workspace_id: workspaceId } });
    expect(conversation.response.status).toBe(201);
    const answer = await api.POST("/conversations/{id}/messages", {
      params: { path: { id: conversation.data!.id } },
      body: { question: "What was the peak count of dunlin?" },
    });
    expect(answer.response.status).toBe(200);
    // The 200 is JSON here, or an event stream when asked for: the generated type says both.
    if (typeof answer.data !== "object") throw new Error("expected the JSON answer");
    expect(answer.data!.text).toContain("2,380");
    expect(answer.data!.citations.length).toBeGreaterThan(0);
    expect(answer.data!.citations[0]).toMatchObject({ document_id: documentId, document_name: "saltmarsh-survey.pdf" });
    expect(answer.data!.citations[0]!.url).toContain(`/document/${documentId}?page=`);

    const history = await api.GET("/conversations/{id}/messages", { params: { path: { id: conversation.data!.id } } });
    expect(history.data!.data.map((m) => m.role)).toEqual(["user", "assistant"]);

    // The same question streamed: `delta` events, then `done` with the answer and its citations.
    const streamed = await handleApiRequest(
      new Request(`${BASE}/conversations/${conversation.data!.id}/messages`, {
        method: "POST",
        headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
        body: JSON.stringify({ question: "What was the peak count of dunlin?", stream: true }),
      }),
    );
    expect(streamed.headers.get("Content-Type")).toContain("text/event-stream");
    const frames = (await streamed.text()).trim().split("\n\n").map((f) => ({ event: /^event: (\w+)/m.exec(f)?.[1], data: JSON.parse(/^data: (.*)$/m.exec(f)![1]!) }));
    expect(frames.filter((f) => f.event === "delta").map((f) => f.data.text).join("")).toBe(frames.at(-1)!.data.text);
    expect(frames.at(-1)).toMatchObject({ event: "done", data: { citations: expect.arrayContaining([expect.objectContaining({ document_id: documentId })]) } });

    const found = await api.GET("/workspaces/{id}/search", { params: { path: { id: workspaceId }, query: { q: "spoonbill December" } } });
    expect(found.data!.data[0]).toMatchObject({ document_id: documentId, page_number: expect.any(Number) });
    expect(found.data!.data[0]!.span).toMatch(/spoonbill/i);
    expect(found.data!.data[0]!.score).toBeGreaterThan(0);

    const listed = await api.GET("/documents", { params: { query: { limit: 1 } } });
    expect(listed.data!.data.map((d) => d.id)).toEqual([documentId]);
    expect(listed.data!.next_cursor).toBeNull();

    const deleted = await api.DELETE("/documents/{id}", { params: { path: { id: documentId } } });
    expect(deleted.response.status).toBe(204);
    const gone = await api.GET("/documents/{id}", { params: { path: { id: documentId } } });
    expect(gone.response.status).toBe(404);
    expect(gone.error).toMatchObject({ status: 404, code: "DOCUMENT_NOT_FOUND" });
    expect(checked.length).toBeGreaterThan(10);
  });
});
