import { readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ConversationService } from "#application/conversation/conversation-service";
import type { WorkflowEngine } from "#application/ports/workflow";
import { WorkspaceQueries } from "#application/workspace/workspace-queries";
import { WorkspaceService } from "#application/workspace/workspace-service";
import type { BlobStore } from "#application/ports/blob-store";
import type { EventMetadata, EventStore } from "#application/ports/event-store";
import type { ReadModelStore } from "#application/ports/read-model-store";
import type { UsageMeter } from "#application/shared/allowance-policy";
import { TOKENS } from "#application/tokens";
import { takeBackup } from "#infrastructure/embedded/backup/embedded-backup";
import { CHECKPOINT_COLLECTION, type ProjectionCheckpoint, type ProjectionRunner } from "#infrastructure/embedded/projection-runner";
import { createTestRuntime } from "../support/test-runtime";
import { settle, uploadTextDocument } from "../support/library-fixtures";
import { parsePrometheusText, series, total } from "../support/prometheus-text";

const metadata = { userId: "u1", correlationId: "c1", causationId: null } as unknown as EventMetadata;

describe("the operators' metrics of one process", () => {
  let env: Awaited<ReturnType<typeof createTestRuntime>>;
  const scrape = async () => parsePrometheusText(await env.runtime.operations.metrics.text());

  beforeEach(async () => {
    env = await createTestRuntime();
  });
  afterEach(async () => env.cleanup());

  it("counts commands per context and outcome, and usage reservations refused by counter", async () => {
    const usage = env.runtime.get<UsageMeter>(TOKENS.UsageMeter);
    await usage.reserve("u1", "pages", "doc-a", 10, env.clock.now(), metadata);
    await expect(usage.reserve("u1", "pages", "doc-b", 100_000, env.clock.now(), metadata)).rejects.toMatchObject({ code: expect.any(String) });

    const samples = await scrape();
    expect(total(series(samples, "docuchat_commands_total", { context: "billing", command: "ReserveUsage", outcome: "accepted" }))).toBe(1);
    expect(total(series(samples, "docuchat_commands_total", { context: "billing", command: "ReserveUsage", outcome: "refused" }))).toBe(1);
    expect(total(series(samples, "docuchat_usage_reservations_refused_total", { counter: "pages" }))).toBe(1);
    // No label carries a user or a document.
    const values = samples.flatMap((s) => Object.values(s.labels));
    expect(values.some((v) => v.includes("u1") || v.includes("doc-"))).toBe(false);
  });

  it("shows projector lag rising while the projectors are held and falling once they catch up", async () => {
    const projections = env.runtime.get<ProjectionRunner>(TOKENS.ProjectionRunner);
    const events = env.runtime.get<EventStore>(TOKENS.EventStore);
    await projections.stop();
    const usage = env.runtime.get<UsageMeter>(TOKENS.UsageMeter);
    for (let i = 0; i < 5; i++) await usage.reserve("u1", "pages", `doc-${i}`, 1, env.clock.now(), metadata);
    await new Promise((r) => setTimeout(r, 20));

    const behind = await scrape();
    const lagOf = (samples: typeof behind, name: string) => series(samples, name, { projector: "billing.orders-and-referral-codes" })[0]?.value;
    expect(lagOf(behind, "docuchat_projector_lag_events")).toBeGreaterThanOrEqual(5);
    expect(lagOf(behind, "docuchat_projector_lag_seconds")).toBeGreaterThan(0);

    await projections.start();
    expect(await projections.waitForPosition(await events.headPosition(), 5_000)).toBe(true);
    const caughtUp = await scrape();
    expect(lagOf(caughtUp, "docuchat_projector_lag_events")).toBe(0);
    expect(lagOf(caughtUp, "docuchat_projector_lag_seconds")).toBe(0);
  });

  it("reports each reactor's lag beside the projectors', in /metrics and to /readyz", async () => {
    const usage = env.runtime.get<UsageMeter>(TOKENS.UsageMeter);
    await usage.reserve("u1", "pages", "doc-a", 1, env.clock.now(), metadata);
    await settle(env.runtime);
    const reactors = series(await scrape(), "docuchat_projector_lag_events").filter((s) => s.labels.projector?.startsWith("reactor:"));
    expect(reactors.length).toBeGreaterThan(0);
    expect(reactors.every((s) => s.value === 0)).toBe(true);

    // A reactor left at the log's start, as one that stopped would be.
    const reactor = reactors[0]!.labels.projector!;
    await env.runtime.get<ReadModelStore>(TOKENS.ReadModelStore).collection<ProjectionCheckpoint>(CHECKPOINT_COLLECTION).upsert({ id: reactor, position: 0 });
    expect(series(await scrape(), "docuchat_projector_lag_events", { projector: reactor })[0]?.value).toBeGreaterThan(0);
    const lags = await env.runtime.operations.readinessSources.projectorLags();
    expect(lags.find((lag) => lag.name === reactor)?.events).toBeGreaterThan(0);
  });

  it("measures an ingestion from the document's events: its duration, its pages and those OCR read", async () => {
    const events = env.runtime.get<EventStore>(TOKENS.EventStore);
    const recorded = () => ({ eventId: crypto.randomUUID(), schemaVersion: 1, metadata });
    await new Promise((r) => setTimeout(r, 50));
    await events.append("document-d1", [{ ...recorded(), type: "DocumentFileReceived", data: { blobKey: "k", size: 1, kind: "pdf", contentType: "application/pdf", personal: null, receivedAt: "" } }], "no_stream");
    await new Promise((r) => setTimeout(r, 30));
    await events.append("document-d1", [
      { ...recorded(), type: "DocumentTextExtracted", data: { pageCount: 12, pagesBlobKey: "p", warnings: [], extractedAt: "", pagesReadByOcr: [3, 4] } },
      { ...recorded(), type: "DocumentActivated", data: { activatedAt: "" } },
    ], 0);
    const deadline = Date.now() + 5_000;
    let samples = await scrape();
    while (total(series(samples, "docuchat_ingestion_duration_seconds_count", { outcome: "active" })) === 0 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
      samples = await scrape();
    }
    expect(total(series(samples, "docuchat_ingestion_duration_seconds_count", { outcome: "active" }))).toBe(1);
    expect(total(series(samples, "docuchat_ingestion_duration_seconds_sum", { outcome: "active" }))).toBeGreaterThan(0);
    expect(total(series(samples, "docuchat_ingested_pages_total"))).toBe(12);
    expect(total(series(samples, "docuchat_ocr_pages_total"))).toBe(2);
  });

  it("counts a document that ends FAILED and logs it at warn with its reason", async () => {
    const logged = await createTestRuntime({ logInDataDir: true });
    try {
      const events = logged.runtime.get<EventStore>(TOKENS.EventStore);
      const recorded = () => ({ eventId: crypto.randomUUID(), schemaVersion: 1, metadata });
      await new Promise((r) => setTimeout(r, 50));
      await events.append("document-d2", [{ ...recorded(), type: "DocumentFileReceived", data: { blobKey: "k", size: 1, kind: "pdf", contentType: "application/pdf", personal: null, receivedAt: "" } }], "no_stream");
      await events.append("document-d2", [{ ...recorded(), type: "DocumentFailed", data: { reason: "The file is not a PDF.", failedAt: "" } }], 0);
      const failed = async () => total(series(parsePrometheusText(await logged.runtime.operations.metrics.text()), "docuchat_ingestion_duration_seconds_count", { outcome: "failed" }));
      const deadline = Date.now() + 5_000;
      while ((await failed()) === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(await failed()).toBe(1);

      const lines = readFileSync(path.join(logged.dataDir, "logs", "app.log"), "utf8").trim().split("\n").map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(lines.find((line) => line.msg === "document ingestion failed")).toMatchObject({ level: "warn", documentId: "d2", reason: "The file is not a PDF." });
    } finally {
      await logged.cleanup();
    }
  });

  it("counts an answered question as one completed answer, with its time to first token", async () => {
    const { runtime } = env;
    const ctx = { requestId: "r", clientAddress: "127.0.0.1", actorId: "alice" };
    const documentId = await uploadTextDocument(runtime, "alice", "planets.txt", "Jupiter is the largest planet and has a Great Red Spot storm. Mars is called the Red Planet.");
    const { workspaceId } = await runtime.container.get(WorkspaceService).create("alice", { name: "Study", type: "Conversation", documentIds: [documentId] }, ctx);
    await runtime.get<WorkflowEngine>(TOKENS.WorkflowEngine).waitForCompletion(`workspace-launch-${workspaceId}`, 20_000);
    await settle(runtime);
    const conversationId = (await runtime.container.get(WorkspaceQueries).get("alice", workspaceId)).session.activeConversationId!;
    for await (const _ of runtime.container.get(ConversationService).ask("alice", conversationId, { text: "Which planet is the largest?" }, ctx)) void _;

    const samples = await scrape();
    expect(total(series(samples, "docuchat_answer_duration_seconds_count", { provider: "built-in", outcome: "completed" }))).toBe(1);
    expect(total(series(samples, "docuchat_answer_first_token_seconds_count", { provider: "built-in" }))).toBe(1);
  });

  it("shows every provider's answers and failures at zero from the start, so rate() sees a provider's first failures", async () => {
    const samples = await scrape();
    for (const provider of ["openai", "anthropic", "openai-compatible", "built-in"]) {
      expect(series(samples, "docuchat_answer_duration_seconds_count", { provider, outcome: "failed" })[0]?.value, provider).toBe(0);
      expect(series(samples, "docuchat_provider_errors_total", { provider, operation: "answer" })[0]?.value, provider).toBe(0);
    }
  });

  it("reports when the process started, what it runs, and when the last backup succeeded (0 before any)", async () => {
    const started = series(await scrape(), "process_start_time_seconds", { process: "app", index: "0" });
    expect(started).toHaveLength(1);
    expect(Math.abs(started[0]!.value - Date.now() / 1000)).toBeLessThan(3600);
    const [build] = series(await scrape(), "docuchat_build_info", { process: "app", index: "0" });
    expect(build).toMatchObject({ value: 1, labels: { version: expect.stringMatching(/^\d+\.\d+\.\d+/), commit: expect.stringMatching(/^([0-9a-f]{7,40}|unknown)$/), node: process.version } });
    expect(series(await scrape(), "docuchat_backup_last_success_timestamp_seconds")[0]?.value).toBe(0);

    const before = Date.now() / 1000;
    await takeBackup(env.dataDir, path.join(env.dataDir, "backup.tar.gz"), "a test secret of thirty-two characters");
    const backedUp = series(await scrape(), "docuchat_backup_last_success_timestamp_seconds")[0]?.value ?? 0;
    expect(backedUp).toBeGreaterThanOrEqual(Math.floor(before));
  });

  it("reports workflow runs by type and state, the job queue, the embedding backlog, memory and event-loop delay", async () => {
    const samples = await scrape();
    for (const name of [
      "docuchat_workflow_runs",
      "docuchat_job_queue_oldest_age_seconds",
      "docuchat_embedding_backlog_workspaces",
      "process_resident_memory_bytes",
      "nodejs_eventloop_lag_p99_seconds",
    ]) {
      expect(series(samples, name).length, name).toBeGreaterThan(0);
    }
    expect(series(samples, "docuchat_workflow_runs", { type: "ingestion", state: "failed" })[0]?.value).toBe(0);
  });

  it("answers /readyz's checks: ready with its stores, not ready once a store is closed", async () => {
    const { checkReadiness } = await import("#infrastructure/observability/readiness");
    const sources = { ...env.runtime.operations.readinessSources, backgroundAlive: async () => true };
    expect(await checkReadiness(sources)).toMatchObject({ ready: true, checks: { "store:data-folder": "ok", "store:events.db": "ok", "store:blobs": "ok" } });
    const broken = { ...sources, stores: [...sources.stores, { name: "search", check: async () => Promise.reject(new Error("gone")) }] };
    expect(await checkReadiness(broken)).toMatchObject({ ready: false, checks: { "store:search": "unreachable" } });
  });

  it("stays ready while the background process is down or its projectors are behind, and reports both on their own", async () => {
    const { checkReadiness } = await import("#infrastructure/observability/readiness");
    const behind = async () => [{ name: "conversations", events: 40, seconds: 600 }];
    const sources = { ...env.runtime.operations.readinessSources, backgroundAlive: async () => false, projectorLags: behind };
    expect(await checkReadiness(sources)).toMatchObject({ ready: true, checks: { background: "down", projectors: "behind: conversations 600 s" } });
  });

  it("is not ready when the data folder or a database refuses writes, though both still answer reads", async () => {
    const { checkReadiness } = await import("#infrastructure/observability/readiness");
    const { storeProbes } = await import("#infrastructure/observability/operations");
    const { default: Database } = await import("better-sqlite3");
    const { join } = await import("node:path");
    const { writeFileSync } = await import("node:fs");
    const stores = {
      events: env.runtime.get<EventStore>(TOKENS.EventStore),
      readModels: env.runtime.get<ReadModelStore>(TOKENS.ReadModelStore),
      blobs: env.runtime.get<BlobStore>(TOKENS.BlobStore),
    };
    const readOnly = new Database(join(env.dataDir, "events.db"), { readonly: true });
    // A file where the folder should be: nothing can be written under it, whoever the process runs as.
    writeFileSync(join(env.dataDir, "not-a-folder"), "");
    try {
      const probes = storeProbes({ ...stores, dataDir: join(env.dataDir, "not-a-folder"), sqliteDatabases: () => [{ name: "events.db", db: readOnly }] });
      const readiness = await checkReadiness({ ...env.runtime.operations.readinessSources, stores: probes, backgroundAlive: async () => true });
      expect(readiness).toMatchObject({ ready: false, checks: { "store:data-folder": "not writable", "store:events.db": "not writable", "store:events": "ok" } });
    } finally {
      readOnly.close();
    }
  });
});
