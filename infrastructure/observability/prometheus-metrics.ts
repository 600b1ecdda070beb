import { AggregatorRegistry, collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import type { CommandOutcome, OperationsMetrics } from "#application/ports/metrics";
import { PROVIDER_NAMES } from "#domain/identity/keyset";

/** What a process does; with its index among its role's, it labels every series the process reports. */
export type ProcessRole = "app" | "web" | "background" | "worker";

/**
 * Which process a series comes from: its role and its place among its role's processes ("web" 0…N-1), which
 * a replacement takes over, so a slot's series go on across restarts; a pid would start new series each time.
 */
export interface ProcessSlot {
  role: ProcessRole;
  index: number;
}

/** What runs: the app's version, the commit it was built from, Node's version (docuchat_build_info). */
export interface BuildInfo {
  version: string;
  commit: string;
}

/** Seconds: a page in a few ms, an answer's first token in a second or two, an ingestion in minutes. */
const REQUEST_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
const ANSWER_BUCKETS = [0.1, 0.25, 0.5, 1, 2, 4, 8, 15, 30, 60, 120];
const INGESTION_BUCKETS = [1, 2, 5, 10, 30, 60, 120, 300, 600, 1800, 3600];

/**
 * The prom-client adapter of the metrics port, and the process's registry:
 * request durations per route pattern, commands per context, answers and
 * errors per provider, ingestion, plus Node's own (memory, event-loop delay,
 * start time). In the cluster each process keeps its registry, labelled by its
 * slot, and the primary gathers them side by side, summing nothing
 * (cluster-operations.mjs): Prometheus's queries sum what is safe to sum.
 */
export class PrometheusMetrics implements OperationsMetrics {
  readonly registry = new Registry();
  private readonly requests: Histogram<"route" | "method" | "status">;
  private readonly commands: Counter<"context" | "command" | "outcome">;
  private readonly refusedReservations: Counter<"counter">;
  private readonly ingestion: Histogram<"outcome">;
  private readonly ingestedPages: Counter;
  private readonly ocrPages: Counter;
  private readonly firstToken: Histogram<"provider">;
  private readonly answers: Histogram<"provider" | "outcome">;
  private readonly providerErrors: Counter<"provider" | "operation">;
  private readonly activityAttempts: Counter<"activity" | "outcome">;

  constructor(
    slot: ProcessSlot,
    /** The bounded context of a stream id ("document-…" -> "library"). */
    private readonly contextOf: (streamId: string) => string,
    build: BuildInfo,
  ) {
    this.registry.setDefaultLabels({ process: slot.role, index: String(slot.index) });
    collectDefaultMetrics({ register: this.registry, eventLoopMonitoringPrecision: 20 });
    const registers = [this.registry];
    this.requests = new Histogram({
      name: "docuchat_http_request_duration_seconds",
      help: "HTTP requests by route pattern, method and status: rate, errors and duration (RED).",
      labelNames: ["route", "method", "status"],
      buckets: REQUEST_BUCKETS,
      registers,
    });
    this.commands = new Counter({
      name: "docuchat_commands_total",
      help: "Commands by bounded context, command type and outcome (accepted, unchanged, refused, conflict).",
      labelNames: ["context", "command", "outcome"],
      registers,
    });
    this.refusedReservations = new Counter({
      name: "docuchat_usage_reservations_refused_total",
      help: "Usage reservations refused because a plan limit was reached, by counter.",
      labelNames: ["counter"],
      registers,
    });
    this.ingestion = new Histogram({
      name: "docuchat_ingestion_duration_seconds",
      help: "From a document's file arriving to the document being ACTIVE or FAILED.",
      labelNames: ["outcome"],
      buckets: INGESTION_BUCKETS,
      registers,
    });
    this.ingestedPages = new Counter({ name: "docuchat_ingested_pages_total", help: "Pages of documents that became ACTIVE.", registers });
    this.ocrPages = new Counter({ name: "docuchat_ocr_pages_total", help: "Pages whose text was read by OCR.", registers });
    this.firstToken = new Histogram({
      name: "docuchat_answer_first_token_seconds",
      help: "From asking a provider's model for an answer to its first token.",
      labelNames: ["provider"],
      buckets: ANSWER_BUCKETS,
      registers,
    });
    this.answers = new Histogram({
      name: "docuchat_answer_duration_seconds",
      help: "Whole streamed answers by provider and outcome.",
      labelNames: ["provider", "outcome"],
      buckets: ANSWER_BUCKETS,
      registers,
    });
    this.providerErrors = new Counter({
      name: "docuchat_provider_errors_total",
      help: "Failed calls to a model provider, by provider and operation.",
      labelNames: ["provider", "operation"],
      registers,
    });
    this.activityAttempts = new Counter({
      name: "docuchat_workflow_activity_attempts_total",
      help: "Attempts at workflow activities by activity and outcome (completed, retried, failed, cancelled by a stop).",
      labelNames: ["activity", "outcome"],
      registers,
    });
    // A restarted process may run another build than its siblings (a deployment on disk before it started).
    new Gauge({
      name: "docuchat_build_info",
      help: "The version, commit and Node.js version the process runs (always 1).",
      labelNames: ["version", "commit", "node"],
      registers,
    }).set({ version: build.version, commit: build.commit, node: process.version }, 1);
    // A scrape right after start shows every series at zero rather than missing (dashboards and alerts read them at
    // once), and every provider's: rate() and increase() cannot see a series' first value, a provider's first failures.
    for (const outcome of ["active", "failed"]) this.ingestion.zero({ outcome });
    for (const provider of ["built-in", ...PROVIDER_NAMES.map((name) => name.toLowerCase())]) {
      this.firstToken.zero({ provider });
      for (const outcome of ["completed", "failed"]) this.answers.zero({ provider, outcome });
      this.providerErrors.inc({ provider, operation: "answer" }, 0);
    }
    for (const counter of ["pages", "uploads", "messages", "workspaces"]) this.refusedReservations.inc({ counter }, 0);
  }

  requestServed(route: string, method: string, status: number, seconds: number): void {
    this.requests.observe({ route, method, status: String(status) }, seconds);
  }

  commandHandled(streamId: string, commandType: string, outcome: CommandOutcome): void {
    this.commands.inc({ context: this.contextOf(streamId), command: commandType, outcome });
  }

  usageReservationRefused(counter: string): void {
    this.refusedReservations.inc({ counter });
  }

  ingestionFinished(outcome: "active" | "failed", seconds: number, pages: number): void {
    this.ingestion.observe({ outcome }, seconds);
    if (outcome === "active") this.ingestedPages.inc(pages);
  }

  ocrPagesRead(pages: number): void {
    this.ocrPages.inc(pages);
  }

  answerStreamed(provider: string, outcome: "completed" | "failed", firstTokenSeconds: number | null, durationSeconds: number): void {
    if (firstTokenSeconds !== null) this.firstToken.observe({ provider }, firstTokenSeconds);
    this.answers.observe({ provider, outcome }, durationSeconds);
  }

  providerError(provider: string, operation: string): void {
    this.providerErrors.inc({ provider, operation });
  }

  activityAttemptEnded(activity: string, outcome: "completed" | "retried" | "failed" | "cancelled"): void {
    this.activityAttempts.inc({ activity, outcome });
  }

  /** A gauge read at scrape time (background state: projector lag, workflow runs, the job queue). */
  gauge<L extends string>(spec: { name: string; help: string; labelNames: readonly L[]; collect: (set: (labels: Record<L, string>, value: number) => void) => Promise<void> | void }): void {
    new Gauge<L>({
      name: spec.name,
      help: spec.help,
      labelNames: spec.labelNames,
      registers: [this.registry],
      async collect() {
        this.reset();
        await spec.collect((labels, value) => this.set(labels, value));
      },
    });
  }

  /** This process's series, in Prometheus's text format. */
  text(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  /** In a cluster process: answer the primary's requests for this registry (the primary gathers every process's). */
  reportToPrimary(): void {
    AggregatorRegistry.setRegistries([this.registry]);
    // Constructing one installs prom-client's listener for the primary's requests.
    new AggregatorRegistry();
  }
}
