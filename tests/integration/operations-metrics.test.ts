import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { BlobStore } from "#application/ports/blob-store";
import type { EventMetadata, EventStore } from "#application/ports/event-store";
import type { ReadModelStore } from "#application/ports/read-model-store";
import type { UsageMeter } from "#application/shared/allowance-policy";
import { TOKENS } from "#application/tokens";
import type { ProjectionRunner } from "#infrastructure/embedded/projection-runner";
import { createTestRuntime } from "../support/test-runtime";
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
