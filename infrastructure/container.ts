import "reflect-metadata";
import { randomUUID } from "node:crypto";
import path from "node:path";
import { Container } from "inversify";
import type { Logger } from "pino";
import { TOKENS } from "#application/tokens";
import type { Clock } from "#application/ports/clock";
import type { Egress } from "#application/ports/egress";
import type { SearchIndex } from "#application/ports/search-index";
import type { PasswordHasher } from "#application/ports/sessions";
import type { Transcriber, VideoSource, WebsiteCrawler } from "#application/ports/web-sources";
import type { LatexCompiler } from "#application/ports/latex-compiler";
import { SandboxedLatexCompiler } from "./latex/sandboxed-latex-compiler";
import type {
  ActivityRegistry,
  JobHandlerRegistry,
  JobQueue,
  WorkflowDefinition,
  WorkflowEngine,
} from "#application/ports/workflow";
import type { Projector } from "#application/ports/projection";
import { ExtractiveModel } from "#infrastructure/ai/built-in/built-in-model";
import type { AppSettings } from "#application/shared/app-settings";
import type { AllowancePolicy } from "#application/shared/allowance-policy";
import { moduleActivities, moduleJobHandlers, type Resolve } from "#application/shared/context-module";
import type { ProjectionWaiter } from "#application/ports/projection";
import { allProjectors, allWorkflows, contextModules, STREAM_CONTEXTS } from "./modules/index";
import type { AppConfig } from "./config/config";
import { createLogger } from "./logging/logger";
import { openStores } from "./stores";
import { ProjectionRunner } from "./embedded/projection-runner";
import { LEASE_RENEWAL_MS, SqliteProcessLeases } from "./embedded/sqlite-process-leases";
import { SqliteExtractionLocks } from "./processes/extraction-locks";
import { AbandonedAnswers } from "#application/conversation/abandoned-answers";
import { createReactorRunner, reactorCheckpointName } from "./embedded/reactor-runner";
import { StoredPositionWaiter } from "./embedded/stored-position-waiter";
import { EmbeddedJobQueue, EmbeddedWorkflowEngine, jobActivities } from "./embedded/durable-runner";
import { SqliteSessionStore } from "./embedded/sqlite-session-store";
import { SqliteRateLimiter } from "./embedded/sqlite-rate-limiter";
import { SqliteSearchIndex } from "./embedded/sqlite/sqlite-search-index";
import { SqliteCompactor } from "./embedded/sqlite/sqlite-compactor";
import { openDatabase } from "./embedded/sqlite/open-database";
import { DevMailboxMailer } from "./embedded/dev-mailbox";
import { SmtpMailer } from "./mail/smtp-mailer";
import { OpenIdConnectProvider } from "./identity/openid-connect-provider";
import { PAYMENT_PROVIDER } from "#application/billing/payment-provider";
import { createPaymentProvider } from "./payments/payment-providers";
import { systemClock, uuidV7Ids } from "./embedded/system-clock";
import { ScryptPasswordHasher } from "./security/scrypt-password-hasher";
import { HmacSecretHasher } from "./security/hmac-secret-hasher";
import { AesKeyCipher } from "./security/aes-key-cipher";
import { createProductKeyset } from "./ai/product-keyset";
import { WorkspaceService } from "#application/workspace/workspace-service";
import { BUILT_IN_EMBEDDING_MODEL } from "#domain/workspace/workspace";
import { ProviderRegistry, type ProviderRegistryOptions } from "./ai/provider-registry";
import { fixedHostsResolver, SafeEgress } from "./egress/safe-egress";
import { SiteCrawler } from "./crawler/site-crawler";
import { EgressVideoSource } from "./video/video-source";
import { DefaultTextExtractor, type TextExtractorOptions } from "./extraction/text-extractor";
import { PocketsphinxTranscriber } from "./speech/pocketsphinx-transcriber";
import { Mp3Playback } from "./speech/mp3-playback";
import { FliteVoice } from "./speech/flite-voice";
import { AzureSpeechTokens } from "./speech/azure-speech-tokens";
import { SentenceEncoderEmbedder } from "./ai/built-in/sentence-encoder";
import { BullmqJobQueue, BullmqJobWorker, redisConnectionFromUrl } from "./production/bullmq-job-queue";
import { KafkaRelay } from "./production/kafka-relay";
import { QdrantSearchIndex } from "./production/qdrant-search-index";
import { TemporalWorkflowEngine } from "./production/temporal/temporal-workflow-engine";
import { countCommandsOn, traceCommandsOn } from "#application/shared/aggregate";
import { noTracing, type Tracing } from "#application/ports/tracing";
import { tracedModel, tracedProviders, tracedSearchIndex } from "./observability/traced-ports";
import { type Operations, startOperations } from "./observability/operations";
import { measuredModel, measuredProviders } from "./observability/measured-models";
import { scheduleBackups } from "./embedded/backup/backup-schedule";
import { LAST_BACKUP_FILE } from "./embedded/backup/embedded-backup";

export interface RuntimeOptions {
  clock?: Clock;
  logger?: Logger;
  passwordHasher?: PasswordHasher;
  projectors?: Projector[];
  workflows?: WorkflowDefinition<any, any>[];
  activities?: ActivityRegistry;
  jobHandlers?: JobHandlerRegistry;
  /** Replaces the egress (tests reach local servers through an allow-list instead). */
  egress?: Egress;
  transcriber?: Transcriber;
  latexCompiler?: LatexCompiler;
  videoSource?: VideoSource;
  /** Replaces the text extractor's options (tests run it without OCR tools). */
  textExtractor?: TextExtractorOptions;
  /** AI provider base URLs and retry pacing (tests point providers at local servers). */
  providers?: ProviderRegistryOptions;
  /** Wraps the activity registry (tracing; crash tests make a step hang). */
  decorateActivities?: (registry: ActivityRegistry) => ActivityRegistry;
  /** Wraps the workflow engine services and reactors use (the reactor crash test makes a start hang). */
  decorateWorkflowEngine?: (engine: WorkflowEngine) => WorkflowEngine;
  /** Replaces the plan limits billing answers from subscriptions (the evaluation reads a whole book). */
  allowances?: AllowancePolicy;
  /** false: the built-in keyset offers no embedding model (keyword search by default), so tests that do not need it skip the model. */
  builtInEmbeddings?: boolean;
  /**
   * What this process does (ARCHITECTURE §4 "Processes"). "app": everything
   * (development, tests, tools). "web": serves requests; projectors, reactors
   * and workflow/job execution run in the one "background" process, so this one
   * records workflow starts and signals in the database and waits for
   * read-your-writes on the checkpoints the background process stores.
   * "worker": the Temporal worker, activities only.
   */
  role?: "app" | "web" | "background" | "worker";
  /** Its place among the supervisor's processes of its role (web 0…N-1), which labels its metrics; 0 by default. */
  processIndex?: number;
  /** The id answers begun here carry (default: role, pid and a random part); tests run several "processes" in one. */
  processId?: string;
  /**
   * Called once the databases are prepared (schemas, migrations, projector set-up), before the
   * background work starts catching up: the supervisor starts the web processes then (issue 42, fast start).
   */
  onPrepared?: () => void;
}

export interface AppRuntime {
  config: AppConfig;
  container: Container;
  logger: Logger;
  /** Every activity of every workflow, by name (the embedded runner's and the Temporal worker's). */
  activities: ActivityRegistry;
  /** Metrics and readiness (issue 32). */
  operations: Operations;
  /** Traces (off unless OTEL_EXPORTER_OTLP_ENDPOINT is set; issue 32). */
  tracing: Tracing;
  get<T>(token: symbol): T;
  stop(): Promise<void>;
}

/**
 * Wires every port to its adapter (embedded by default; a production adapter
 * when its variable is set, ARCHITECTURE §4) and starts the background parts:
 * projections, the durable runner or the job worker, the Kafka relay.
 */
export async function createRuntime(config: AppConfig, options: RuntimeOptions = {}): Promise<AppRuntime> {
  const role = options.role ?? "app";
  /** Projectors, reactors, workflow and job execution, the Kafka relay. */
  const runsBackgroundWork = role === "app" || role === "background";
  const logger = options.logger ?? createLogger(config.logLevel, { role });
  const clock = options.clock ?? systemClock;
  const stores = await openStores(config, { logger });
  const { eventStore, readModels, subjectKeys, runtimeDb, workflowsDb } = stores;
  const searchDb = config.adapters.search === "sqlite" ? openDatabase(path.join(config.dataDir, "search.db")) : null;
  const sqliteSearch = searchDb ? new SqliteSearchIndex(searchDb) : null;
  const searchIndex: SearchIndex = sqliteSearch
    ? sqliteSearch
    : new QdrantSearchIndex({ url: config.raw.QDRANT_URL!, apiKey: config.raw.QDRANT_API_KEY, collection: config.raw.QDRANT_COLLECTION });
  // The OpenTelemetry SDK is loaded only when traces are configured: off, tracing costs a function call.
  const openTelemetry = config.operations.tracing
    ? await (await import("./observability/opentelemetry-tracing")).OpenTelemetryTracing.start(config.operations.tracing, role)
    : null;
  const tracing: Tracing = openTelemetry ?? noTracing;
  const projections = new ProjectionRunner(eventStore, readModels, options.projectors ?? allProjectors, logger, { tracing });
  const settings: AppSettings = {
    productName: config.productName,
    adminUsernames: config.adminUsernames,
    isProduction: config.isProduction,
    accountDeletionGraceMs: config.accountDeletionGraceMs,
    assessmentOfferClosesAt: config.assessmentOfferClosesAt,
    uploadDeadlineMs: config.uploadDeadlineMs,
    apiRateLimitPerMinute: config.apiRateLimitPerMinute,
  };
  const egress: Egress =
    options.egress ??
    new SafeEgress({
      allowPrivateHosts: config.egressAllowPrivateHosts,
      resolver: Object.keys(config.egressTestHosts).length > 0 ? fixedHostsResolver(config.egressTestHosts) : undefined,
      userAgent: `${config.productName}/1.0`,
    });
  const crawler: WebsiteCrawler = new SiteCrawler(egress, { userAgent: config.productName });
  const video: VideoSource = options.videoSource ?? new EgressVideoSource(egress);

  const stoppers: (() => Promise<void>)[] = [];
  // Aborted first when the runtime stops: what fails after it was cut by the stop, not broken (issue 42).
  const stopping = new AbortController();
  // Stopped last: the spans of everything that stops before it are still sent.
  if (openTelemetry) stoppers.push(() => openTelemetry.stop());
  const projectorNames = (options.projectors ?? allProjectors).map((p) => p.name);
  // Known once the container resolves the reactors, below; their lag is reported beside the projectors'.
  let reactorCheckpoints: string[] = [];
  // The embedded databases in use (runtime and workflows always; the others unless a server replaces them).
  const sqliteDatabases = () => [...stores.sqliteDatabases, ...(searchDb ? [searchDb] : [])];
  const operations = startOperations({
    role,
    processIndex: options.processIndex ?? 0,
    sourceCommit: config.operations.sourceCommit,
    logger,
    contextOf: contextOfStream,
    events: eventStore,
    readModels,
    blobs: stores.blobs,
    sqliteDatabases: () => sqliteDatabases().map((db) => ({ name: path.basename(db.name), db })),
    workflowsDb: config.adapters.workflows === "embedded" || config.adapters.jobs === "embedded" ? workflowsDb : null,
    dataDir: config.dataDir,
    lastBackupFile: config.adapters.eventStore === "sqlite" ? path.join(config.dataDir, LAST_BACKUP_FILE) : null,
    checkpointNames: () => [...projectorNames, ...reactorCheckpoints],
    maxProjectorLagSeconds: config.operations.maxProjectorLagSeconds,
  });
  stoppers.push(() => operations.stop());
  countCommandsOn(eventStore, operations.metrics);
  traceCommandsOn(eventStore, tracing);
  const container = new Container({ defaultScope: "Singleton" });
  const constant = (token: symbol, value: unknown) => container.bind(token).toConstantValue(value);
  constant(TOKENS.Config, settings);
  constant(TOKENS.Logger, logger);
  constant(TOKENS.Clock, clock);
  constant(TOKENS.Metrics, operations.metrics);
  constant(TOKENS.Tracing, tracing);
  constant(TOKENS.Ids, uuidV7Ids);
  constant(TOKENS.EventStore, eventStore);
  constant(TOKENS.SubjectKeys, subjectKeys);
  constant(TOKENS.ReadModelStore, readModels);
  constant(TOKENS.ProjectionRunner, projections);
  // Read-your-writes waits for the projectors and then for the reactors (a page may read the workflow a reactor starts).
  // A web process waits on the checkpoints the background process stores with its writes.
  const projected: ProjectionWaiter = runsBackgroundWork ? projections : new StoredPositionWaiter(readModels, (options.projectors ?? allProjectors).map((p) => p.name));
  let reactions: ProjectionWaiter | null = null;
  const readYourWrites: ProjectionWaiter = {
    async waitForPosition(position, timeoutMs) {
      if (!(await projected.waitForPosition(position, timeoutMs))) return false;
      if (!reactions) return true;
      if (!(await reactions.waitForPosition(position, timeoutMs))) return false;
      // What the reactions appended in turn (workspaces reset after a keyset deletion) is on screen too.
      return projected.waitForPosition(await eventStore.headPosition(), timeoutMs);
    },
  };
  constant(TOKENS.ProjectionWaiter, readYourWrites);
  constant(TOKENS.BlobStore, stores.blobs);
  constant(TOKENS.SearchIndex, tracedSearchIndex(searchIndex, tracing));
  constant(TOKENS.SessionStore, new SqliteSessionStore(runtimeDb));
  // Processes that stream answers hold a lease while they live; the background process ends the answers of those gone (decision 240).
  const leases = new SqliteProcessLeases(runtimeDb, options.processId ?? `${role}-${process.pid}-${randomUUID()}`);
  constant(TOKENS.ProcessLeases, leases);
  if (role === "app" || role === "web") {
    leases.hold();
    stoppers.push(async () => leases.release());
  }
  // A document's extraction runs once at a time, even beside the orphans of a killed predecessor (decision 246).
  constant(TOKENS.ExtractionLocks, new SqliteExtractionLocks(runtimeDb));
  const secretHasher = new HmacSecretHasher(config.appSecret);
  constant(TOKENS.RateLimiter, new SqliteRateLimiter(runtimeDb, clock, secretHasher));
  constant(TOKENS.DeletedDataCompactor, new SqliteCompactor(sqliteDatabases));
  constant(TOKENS.PasswordHasher, options.passwordHasher ?? new ScryptPasswordHasher());
  constant(TOKENS.SecretHasher, secretHasher);
  constant(TOKENS.TextExtractor, new DefaultTextExtractor({ pdfExtractor: config.pdfExtractor.extractor, popplerMemoryMb: config.pdfExtractor.memoryMb }));
  constant(TOKENS.Egress, egress);
  if (options.textExtractor) container.rebind(TOKENS.TextExtractor).toConstantValue(new DefaultTextExtractor({ pdfExtractor: config.pdfExtractor.extractor, popplerMemoryMb: config.pdfExtractor.memoryMb, ...options.textExtractor }));
  constant(TOKENS.WebsiteCrawler, crawler);
  constant(TOKENS.VideoSource, video);
  constant(TOKENS.Transcriber, options.transcriber ?? new PocketsphinxTranscriber());
  constant(TOKENS.PlaybackEncoder, new Mp3Playback());
  constant(TOKENS.SpeechSynthesizer, new FliteVoice());
  // Bound only when a cloud speech service is configured: POST /profiles/auth says so otherwise (decision 144).
  if (config.raw.AZURE_SPEECH_KEY) {
    constant(
      TOKENS.SpeechTokens,
      new AzureSpeechTokens(egress, { key: config.raw.AZURE_SPEECH_KEY, region: config.raw.AZURE_SPEECH_REGION, tokenUrl: config.raw.AZURE_SPEECH_TOKEN_URL }),
    );
  }
  constant(TOKENS.LatexCompiler, options.latexCompiler ?? new SandboxedLatexCompiler());
  const builtInEmbedder = options.builtInEmbeddings === false ? null : new SentenceEncoderEmbedder();
  // The built-in model weighs its shortlisted sentences' meaning with the same encoder (decision 071).
  const encoder = builtInEmbedder ? { embed: (texts: string[], signal?: AbortSignal) => builtInEmbedder.embedFirst(texts, signal) } : undefined;
  const offlineModel = tracedModel(measuredModel(new ExtractiveModel({ chunkDelayMs: STREAM_CHUNK_DELAY_MS, encoder }), operations.metrics, logger), tracing);
  constant(TOKENS.BuiltInModel, offlineModel);
  constant(TOKENS.KeyCipher, new AesKeyCipher(config.appSecret, config.appSecretPrevious));
  const providers = tracedProviders(measuredProviders(new ProviderRegistry(egress, options.providers), operations.metrics, logger), tracing);
  constant(TOKENS.ModelProviders, providers);
  constant(
    TOKENS.ProductKeyset,
    createProductKeyset({
      name: config.productName,
      config: config.productKeyset,
      providers,
      offline: offlineModel,
      offlineEmbedder: builtInEmbedder,
      offlineEmbeddingModel: BUILT_IN_EMBEDDING_MODEL,
    }),
  );
  if (options.allowances) constant(TOKENS.AllowancePolicy, options.allowances);
  // SMTP when SMTP_URL is set; otherwise the dev mailbox (and /dev/mailbox) is the mailer.
  if (config.adapters.mail === "smtp") {
    const smtp = new SmtpMailer(config.raw.SMTP_URL!, config.mailFrom, logger);
    constant(TOKENS.Mailer, smtp);
    stoppers.push(async () => smtp.close());
  } else {
    const mailbox = new DevMailboxMailer(runtimeDb, uuidV7Ids, logger);
    constant(TOKENS.Mailer, mailbox);
    constant(TOKENS.DevMailbox, mailbox);
  }
  // Bound only when configured (Inversify refuses a null constant); the app asks isBound.
  if (config.oidc) constant(TOKENS.ExternalIdentityProvider, new OpenIdConnectProvider(config.oidc));
  if (config.payments) constant(PAYMENT_PROVIDER, await createPaymentProvider(config.payments, clock));
  for (const module of contextModules) for (const service of [...module.services, ...module.reactors]) container.bind(service).toSelf();
  // A port a test bound itself (options.allowances) keeps its binding.
  for (const { token, service } of contextModules.flatMap((module) => module.provides)) if (!container.isBound(token)) container.bind(token).toService(service);
  const resolve: Resolve = (service) => container.get(service);

  // Services that start workflows are built before the engine, which needs their activities: they get the engine through this delegate.
  let engine: WorkflowEngine | null = null;
  const started = () => {
    if (!engine) throw new Error("The workflow engine is not started yet");
    return engine;
  };
  const workflowsDelegate: WorkflowEngine = {
    start: (definition, id, input) => started().start(definition, id, input),
    signal: (id, signal, payload) => started().signal(id, signal, payload),
    describe: (id) => started().describe(id),
    list: (listOptions) => started().list(listOptions),
    waitForCompletion: (id, timeoutMs) => started().waitForCompletion(id, timeoutMs),
    retry: (id) => started().retry?.(id) ?? Promise.resolve(false),
  };
  constant(TOKENS.WorkflowEngine, workflowsDelegate);

  const jobHandlers = { ...moduleJobHandlers(contextModules, resolve), ...options.jobHandlers };
  const registry: ActivityRegistry = {
    ...moduleActivities(contextModules, resolve),
    ...options.activities,
    ...jobActivities(jobHandlers),
  };
  const activities = options.decorateActivities ? options.decorateActivities(registry) : registry;

  // The embedded runner runs workflows unless Temporal does, and jobs unless BullMQ does; a web process only records them.
  const needsEmbeddedEngine = role !== "worker" && (config.adapters.workflows === "embedded" || config.adapters.jobs === "embedded");
  const embeddedEngine = needsEmbeddedEngine
    ? new EmbeddedWorkflowEngine(workflowsDb, {
        activities,
        definitions: options.workflows ?? allWorkflows,
        clock,
        logger,
        executes: runsBackgroundWork,
        tracing,
        stopping: stopping.signal,
        onActivityAttempt: (activity, outcome) => operations.metrics.activityAttemptEnded(activity, outcome),
      })
    : null;
  const workflows: WorkflowEngine =
    config.adapters.workflows === "temporal"
      ? await TemporalWorkflowEngine.connect({
          address: config.raw.TEMPORAL_ADDRESS!,
          namespace: config.raw.TEMPORAL_NAMESPACE,
          taskQueue: config.raw.TEMPORAL_TASK_QUEUE,
        })
      : embeddedEngine!;
  engine = options.decorateWorkflowEngine ? options.decorateWorkflowEngine(workflows) : workflows;

  let jobs: JobQueue;
  if (config.adapters.jobs === "bullmq") {
    const connection = redisConnectionFromUrl(config.raw.REDIS_URL!);
    const queue = await BullmqJobQueue.open({ connection });
    jobs = queue;
    stoppers.push(() => queue.close());
    if (runsBackgroundWork) {
      const worker = await BullmqJobWorker.start({ connection, handlers: jobHandlers, logger });
      stoppers.push(() => worker.close());
    }
  } else {
    jobs = new EmbeddedJobQueue(embeddedEngine!);
  }
  constant(TOKENS.JobQueue, jobs);

  reactorCheckpoints = contextModules.flatMap((module) => module.reactors.map((reactor) => reactorCheckpointName(resolve(reactor))));
  if (role === "web") {
    reactions = new StoredPositionWaiter(readModels, reactorCheckpoints);
  }
  if (runsBackgroundWork) {
    await projections.start(options.onPrepared);
    stoppers.push(() => projections.stop());
    if (embeddedEngine) {
      await embeddedEngine.resume();
      stoppers.push(() => embeddedEngine.stop());
    }
    // Reactors start workflows, so they run once the engine is there.
    const reactors = createReactorRunner(eventStore, readModels, contextModules.flatMap((module) => module.reactors.map(resolve)), logger, { tracing });
    reactions = reactors;
    await reactors.start();
    stoppers.push(() => reactors.stop());
    const abandoned = resolve(AbandonedAnswers);
    const sweep = () => abandoned.sweep(performance.now()).catch((error) => logger.warn({ err: error }, "ending abandoned answers failed"));
    const sweeping = setInterval(sweep, LEASE_RENEWAL_MS);
    sweeping.unref();
    stoppers.push(async () => clearInterval(sweeping));
    // Scheduled backups of an embedded installation (issue 32); the production stack's servers have their own.
    if (config.operations.backup.intervalHours > 0 && config.adapters.eventStore === "sqlite") {
      const schedule = scheduleBackups(config.dataDir, { ...config.operations.backup, appSecret: config.appSecret }, logger);
      stoppers.push(async () => schedule.stop());
    }
    // The operator may have changed the product keyset's embedding model since the last start (decision 190).
    const moved = await resolve(WorkspaceService).followProductEmbedding();
    if (moved > 0) logger.info({ workspaces: moved }, "workspaces moved to the product keyset's embedding model");
    if (config.adapters.integrationEvents === "kafka") {
      const { producer } = await KafkaRelay.createProducer({ brokers: config.raw.KAFKA_BROKERS!.split(",").map((b) => b.trim()) });
      await producer.connect();
      const relay = new KafkaRelay({ eventStore, checkpoints: readModels, producer, logger, contexts: STREAM_CONTEXTS });
      await relay.start();
      stoppers.push(async () => {
        await relay.stop();
        await producer.disconnect();
      });
    }
  }
  if (workflows instanceof TemporalWorkflowEngine) stoppers.push(() => workflows.close());
  // Stoppers run last-pushed first: embeddings in progress give up before the engine waits for its steps.
  if (builtInEmbedder) stoppers.push(async () => builtInEmbedder.close());
  logger.info({ role, dataDir: config.dataDir, adapters: config.adapters }, "runtime started");

  return {
    config,
    container,
    logger,
    activities,
    operations,
    tracing,
    get: <T>(token: symbol) => container.get<T>(token),
    async stop() {
      stopping.abort();
      for (const stop of stoppers.reverse()) await stop();
      await stores.close();
      if (searchDb?.open) searchDb.close();
    },
  };
}

/** A stream's bounded context: its longest category prefix ("community-name-…" before "community-…"). */
const streamCategories = Object.keys(STREAM_CONTEXTS).sort((a, b) => b.length - a.length);
function contextOfStream(streamId: string): string {
  const category = streamCategories.find((c) => streamId.startsWith(`${c}-`));
  return category ? STREAM_CONTEXTS[category]! : "other";
}

/**
 * The built-in model composes its whole answer at once; pacing its chunks a
 * little lets people watch it arrive like any model's (time to first token is
 * not affected).
 */
const STREAM_CHUNK_DELAY_MS = 12;
