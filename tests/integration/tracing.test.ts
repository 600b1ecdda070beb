import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import express from "express";
import { afterEach, describe, expect, it } from "vitest";
import { ConversationService } from "#application/conversation/conversation-service";
import { LibraryService } from "#application/library/library-service";
import { INGESTION_STEPS } from "#workflows/ingestion";
import type { EventStore } from "#application/ports/event-store";
import type { WorkflowEngine } from "#application/ports/workflow";
import type { RequestContext } from "#application/shared/request-context";
import { TOKENS } from "#application/tokens";
import { WorkspaceQueries } from "#application/workspace/workspace-queries";
import { WorkspaceService } from "#application/workspace/workspace-service";
import { httpOperations } from "#infrastructure/observability/http-operations";
import { logContext } from "#infrastructure/logging/logger";
import { createTestRuntime } from "../support/test-runtime";
import { settle, uploadTextDocument } from "../support/library-fixtures";

interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  attributes: { key: string; value: { stringValue?: string; intValue?: number | string } }[];
}

/** An OpenTelemetry collector in miniature: it keeps every span posted to /v1/traces as OTLP/HTTP JSON. */
async function startOtlpReceiver() {
  const spans: ReceivedSpan[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      if (req.url === "/v1/traces" && req.headers["content-type"]?.includes("json")) {
        const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { resourceSpans: { scopeSpans: { spans: ReceivedSpan[] }[] }[] };
        for (const resource of body.resourceSpans) for (const scope of resource.scopeSpans) spans.push(...scope.spans);
      }
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { spans, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise((resolve) => server.close(resolve)) };
}

const ctxFor = (userId: string): RequestContext => ({ requestId: "r", clientAddress: "127.0.0.1", actorId: userId });

let env: Awaited<ReturnType<typeof createTestRuntime>> | undefined;
let receiver: Awaited<ReturnType<typeof startOtlpReceiver>> | undefined;
afterEach(async () => {
  await env?.cleanup();
  await receiver?.close();
  env = receiver = undefined;
});

async function workspaceOf(userId: string) {
  const runtime = env!.runtime;
  const documentId = await uploadTextDocument(runtime, userId, "planets.txt", "Jupiter is the largest planet and has a Great Red Spot storm. Mars is called the Red Planet.");
  const { workspaceId } = await runtime.container.get(WorkspaceService).create(userId, { name: "Study", type: "Conversation", documentIds: [documentId] }, ctxFor(userId));
  await runtime.get<WorkflowEngine>(TOKENS.WorkflowEngine).waitForCompletion(`workspace-launch-${workspaceId}`, 20_000);
  await settle(runtime);
  return runtime.container.get(WorkspaceQueries).get(userId, workspaceId);
}

describe("traces", () => {
  it("follow a question in one trace from its request through the command, its events' projector, retrieval and the model", async () => {
    receiver = await startOtlpReceiver();
    env = await createTestRuntime({ env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url }, logInDataDir: true });
    const { runtime } = env;
    const ws = await workspaceOf("alice");
    const conversationId = ws.session.activeConversationId!;

    // The request as server.mjs serves it: traced by the operations middleware, then a handler that streams the answer.
    const app = express();
    app.use(httpOperations(runtime, { routes: { "routes/ask": { id: "routes/ask", path: "ask" } } }, "app").traceRequests);
    app.post("/ask", async (_req, res) => {
      await logContext.run({ requestId: "question-request" }, async () => {
        runtime.logger.info("asking");
        for await (const event of runtime.container.get(ConversationService).ask("alice", conversationId, { text: "Which planet is the largest?" }, ctxFor("alice"))) {
          if (event.type === "text") res.write(event.text);
        }
        res.end();
      });
    });
    const server = app.listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    const answer = await (await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/ask`, { method: "POST" })).text();
    await new Promise((resolve) => server.close(resolve));
    expect(answer).toMatch(/Jupiter/);
    await settle(runtime);
    // Stopping the runtime sends the spans still batched.
    const { dataDir } = env;
    const appended = await runtime.get<EventStore>(TOKENS.EventStore).readStream(`conversation-${conversationId}`);
    const logged = readFileSync(path.join(dataDir, "logs", "app.log"), "utf8");
    await env.cleanup();
    env = undefined;

    const request = receiver.spans.find((span) => span.name === "POST /ask")!;
    expect(request).toBeDefined();
    const trace = receiver.spans.filter((span) => span.traceId === request.traceId);
    const named = (name: string) => trace.filter((span) => span.name === name);
    const ask = named("command AskQuestion")[0]!;
    expect(ask.parentSpanId).toBe(request.spanId);
    const append = trace.find((span) => span.parentSpanId === ask.spanId && span.name.startsWith("append "))!;
    expect(append).toBeDefined();
    // The projector continues from the append through the trace context its events carry.
    const projected = named("project conversation.conversations").filter((span) => span.parentSpanId === append.spanId);
    expect(projected.length).toBeGreaterThan(0);
    expect(appended.some((event) => event.metadata.traceparent?.includes(request.traceId))).toBe(true);
    expect(named("retrieve passages")).toHaveLength(1);
    const retrieve = named("retrieve passages")[0]!;
    expect(trace.some((span) => span.name === "search text" && span.parentSpanId === retrieve.spanId)).toBe(true);
    expect(named("model answer")).toHaveLength(1);
    expect(named("command CompleteAnswer")).toHaveLength(1);

    // A line logged while the request is served names its trace beside its request.
    const line = logged.split("\n").filter(Boolean).map((text) => JSON.parse(text) as { msg: string; requestId?: string; traceId?: string }).find((entry) => entry.msg === "asking");
    expect(line).toMatchObject({ requestId: "question-request", traceId: request.traceId });
  });

  it("follow an upload from its request through every ingestion activity", async () => {
    receiver = await startOtlpReceiver();
    env = await createTestRuntime({ env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url } });
    const { runtime } = env;
    const library = runtime.container.get(LibraryService);
    const body = Buffer.from("Saturn has rings of ice and rock.");
    const registered = await library.registerUpload("carol", { document_name: "saturn.txt", document_type: "text/plain", document_size: body.length, page_count: 1 }, ctxFor("carol"));
    const token = new URL(registered.url, "http://x").searchParams.get("token")!;

    const app = express();
    app.use(httpOperations(runtime, { routes: { "routes/upload": { id: "routes/upload", path: "upload" } } }, "app").traceRequests);
    app.put("/upload", async (_req, res) => {
      await library.receiveUpload(registered.document_id, token, body, "text/plain", ctxFor("carol"));
      res.status(204).end();
    });
    const server = app.listen(0, "127.0.0.1");
    await new Promise((resolve) => server.once("listening", resolve));
    expect((await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/upload`, { method: "PUT" })).status).toBe(204);
    await new Promise((resolve) => server.close(resolve));
    const run = await runtime.get<WorkflowEngine>(TOKENS.WorkflowEngine).waitForCompletion(`ingestion-${registered.document_id}`, 30_000);
    expect(run?.status).toBe("completed");
    await env.cleanup();
    env = undefined;

    const request = receiver.spans.find((span) => span.name === "PUT /upload")!;
    expect(request).toBeDefined();
    const activities = receiver.spans.filter((span) => span.traceId === request.traceId && span.name.startsWith("activity ")).map((span) => span.name);
    expect(activities).toEqual(INGESTION_STEPS.map((step) => `activity ${step}`));
  });

  it("are off unless a collector is configured: events carry no trace context", async () => {
    env = await createTestRuntime();
    expect(env.runtime.tracing.enabled).toBe(false);
    await uploadTextDocument(env.runtime, "bob", "notes.txt", "Saturn has rings.");
    const events = await env.runtime.get<EventStore>(TOKENS.EventStore).readAll(0, 1000);
    expect(events.length).toBeGreaterThan(0);
    expect(events.every((event) => event.metadata.traceparent === undefined)).toBe(true);
  });
});
