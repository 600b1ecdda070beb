import "reflect-metadata";
import { Container } from "inversify";
import type { Logger } from "pino";
import { TOKENS } from "#application/tokens";
import type { Clock } from "#application/ports/clock";
import type { PasswordHasher } from "#application/ports/sessions";
import type { ActivityRegistry, JobHandlerRegistry, WorkflowDefinition } from "#application/ports/workflow";
import type { Projector } from "#application/ports/projection";
import { IdentityQueries } from "#application/identity/identity-queries";
import { IdentityService } from "#application/identity/identity-service";
import type { AppSettings } from "#application/shared/app-settings";
import { allProjectors } from "#projections/index";
import { allWorkflows } from "#workflows/index";
import type { AppConfig } from "./config/config";
import { createLogger } from "./logging/logger";
import { ProjectionRunner } from "./embedded/projection-runner";
import { openEmbeddedStores } from "./embedded/embedded-stores";
import { LocalBlobStore } from "./embedded/local-blob-store";
import { EmbeddedJobQueue, EmbeddedWorkflowEngine, jobActivities } from "./embedded/durable-runner";
import { SqliteSessionStore } from "./embedded/sqlite-session-store";
import { SqliteRateLimiter } from "./embedded/sqlite-rate-limiter";
import { DevMailboxMailer } from "./embedded/dev-mailbox";
import { systemClock, uuidV7Ids } from "./embedded/system-clock";
import { ScryptPasswordHasher } from "./security/scrypt-password-hasher";
import { HmacSecretHasher } from "./security/hmac-secret-hasher";

export interface RuntimeOptions {
  clock?: Clock;
  logger?: Logger;
  passwordHasher?: PasswordHasher;
  projectors?: Projector[];
  workflows?: WorkflowDefinition<any, any>[];
  activities?: ActivityRegistry;
  jobHandlers?: JobHandlerRegistry;
}

export interface AppRuntime {
  config: AppConfig;
  container: Container;
  logger: Logger;
  get<T>(token: symbol): T;
  stop(): Promise<void>;
}

/**
 * Wires every port to its adapter (embedded by default; a production adapter
 * when its variable is set) and starts the background parts: projections and
 * the durable runner. One runtime per process.
 */
export async function createRuntime(config: AppConfig, options: RuntimeOptions = {}): Promise<AppRuntime> {
  refuseUnbuiltAdapters(config);
  const logger = options.logger ?? createLogger(config.logLevel);
  const clock = options.clock ?? systemClock;
  const stores = openEmbeddedStores(config);
  const { eventStore, readModels, subjectKeys, runtimeDb, workflowsDb } = stores;
  const projections = new ProjectionRunner(eventStore, readModels, options.projectors ?? allProjectors, logger);
  const settings: AppSettings = {
    productName: config.productName,
    adminUsernames: config.adminUsernames,
    isProduction: config.isProduction,
  };

  const container = new Container({ defaultScope: "Singleton" });
  container.bind(TOKENS.Config).toConstantValue(settings);
  container.bind(TOKENS.Logger).toConstantValue(logger);
  container.bind(TOKENS.Clock).toConstantValue(clock);
  container.bind(TOKENS.Ids).toConstantValue(uuidV7Ids);
  container.bind(TOKENS.EventStore).toConstantValue(eventStore);
  container.bind(TOKENS.SubjectKeys).toConstantValue(subjectKeys);
  container.bind(TOKENS.ReadModelStore).toConstantValue(readModels);
  container.bind(TOKENS.ProjectionRunner).toConstantValue(projections);
  container.bind(TOKENS.ProjectionWaiter).toConstantValue(projections);
  container.bind(TOKENS.BlobStore).toConstantValue(new LocalBlobStore(stores.blobRoot));
  container.bind(TOKENS.SessionStore).toConstantValue(new SqliteSessionStore(runtimeDb));
  container.bind(TOKENS.RateLimiter).toConstantValue(new SqliteRateLimiter(runtimeDb, clock));
  container.bind(TOKENS.PasswordHasher).toConstantValue(options.passwordHasher ?? new ScryptPasswordHasher());
  container.bind(TOKENS.SecretHasher).toConstantValue(new HmacSecretHasher(config.appSecret));
  const mailbox = new DevMailboxMailer(runtimeDb, uuidV7Ids, logger);
  container.bind(TOKENS.Mailer).toConstantValue(mailbox);
  container.bind(TOKENS.DevMailbox).toConstantValue(mailbox);
  container.bind(IdentityService).toSelf();
  container.bind(IdentityQueries).toSelf();

  const engine = new EmbeddedWorkflowEngine(workflowsDb, {
    activities: { ...options.activities, ...jobActivities(options.jobHandlers ?? {}) },
    definitions: options.workflows ?? allWorkflows,
    clock,
    logger,
  });
  container.bind(TOKENS.WorkflowEngine).toConstantValue(engine);
  container.bind(TOKENS.JobQueue).toConstantValue(new EmbeddedJobQueue(engine));

  await projections.start();
  await engine.resume();
  logger.info({ dataDir: config.dataDir, adapters: config.adapters }, "runtime started");

  return {
    config,
    container,
    logger,
    get: <T>(token: symbol) => container.get<T>(token),
    async stop() {
      await engine.stop();
      await projections.stop();
      await stores.close();
    },
  };
}

/**
 * Production adapters land with their own issue; until then a server variable
 * must not be silently ignored (the data would go somewhere the operator did not expect).
 */
function refuseUnbuiltAdapters(config: AppConfig) {
  const unbuilt: [string, boolean][] = [
    ["EVENTSTORE_URL", config.adapters.eventStore !== "sqlite"],
    ["MONGODB_URL", config.adapters.readModels !== "sqlite"],
    ["QDRANT_URL", config.adapters.search !== "sqlite"],
    ["S3_BUCKET", config.adapters.blobs !== "local"],
    ["KAFKA_BROKERS", config.adapters.integrationEvents !== "none"],
    ["REDIS_URL", config.adapters.jobs !== "embedded"],
    ["TEMPORAL_ADDRESS", config.adapters.workflows !== "embedded"],
    ["SMTP_URL", config.adapters.mail !== "dev-mailbox"],
  ];
  const set = unbuilt.filter(([, on]) => on).map(([name]) => name);
  if (set.length > 0) {
    throw new Error(
      `${set.join(", ")} ${set.length === 1 ? "is" : "are"} set, but the production adapter for ${set.length === 1 ? "it" : "them"} is not part of this build yet. Unset ${set.length === 1 ? "it" : "them"} to run on the embedded adapters.`,
    );
  }
}
