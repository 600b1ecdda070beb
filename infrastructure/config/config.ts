import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";

/**
 * All configuration, validated once at start-up. Each production adapter is
 * switched on by its own variable (ARCHITECTURE §4); unset means embedded.
 * A bad value stops start-up with a message naming the variable.
 */

const optionalUrl = z.string().url().optional();
const emptyToUndefined = (value: unknown) => (value === "" ? undefined : value);

const schema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  /** Where the product is deployed: decides e.g. the 7-day (production) vs 10-minute deletion grace. */
  DEPLOYMENT_ENV: z.enum(["production", "staging", "development", "test"]).default("development"),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  HOST: z.string().min(1).default("localhost"),
  DATA_DIR: z.string().min(1).default("./data"),
  /** Signs cookies, hashes codes, derives encryption keys. At least 32 characters. */
  APP_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
  /** Earlier APP_SECRETs, comma-separated, still accepted to open sealed provider keys during a rotation (docs/decisions/030). */
  APP_SECRET_PREVIOUS: z.string().default(""),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  COOKIE_SECURE: z.enum(["true", "false"]).optional(),
  PRODUCT_NAME: z.string().min(1).default("DocuChat"),
  /** Comma-separated usernames that get the admin role (the admin group). */
  ADMIN_USERNAMES: z.string().default(""),
  /** Host names the server may fetch even though they resolve to a private address (e.g. a model server on the LAN). */
  EGRESS_ALLOW_PRIVATE_HOSTS: z.string().default(""),

  EVENTSTORE_URL: optionalUrl,
  MONGODB_URL: optionalUrl,
  QDRANT_URL: optionalUrl,
  S3_BUCKET: z.string().min(3).optional(),
  S3_ENDPOINT: optionalUrl,
  S3_REGION: z.string().optional(),
  /** Endpoint browsers use for presigned URLs when it differs from S3_ENDPOINT. */
  S3_PUBLIC_ENDPOINT: optionalUrl,
  KAFKA_BROKERS: z.string().optional(),
  REDIS_URL: optionalUrl,
  TEMPORAL_ADDRESS: z.string().optional(),
  TEMPORAL_NAMESPACE: z.string().default("default"),
  TEMPORAL_TASK_QUEUE: z.string().default("docuchat"),
  OIDC_ISSUER: optionalUrl,
  OIDC_CLIENT_ID: z.string().optional(),
  OIDC_CLIENT_SECRET: z.string().optional(),
  SMTP_URL: optionalUrl,
  STRIPE_SECRET_KEY: z.string().optional(),
});

export type Env = z.infer<typeof schema>;

export interface AppConfig {
  env: Env["NODE_ENV"];
  deploymentEnv: Env["DEPLOYMENT_ENV"];
  isProduction: boolean;
  port: number;
  host: string;
  dataDir: string;
  appSecret: string;
  /** Secrets being rotated out (open only, never seal). */
  appSecretPrevious: string[];
  logLevel: Env["LOG_LEVEL"];
  cookieSecure: boolean;
  productName: string;
  adminUsernames: string[];
  egressAllowPrivateHosts: string[];
  adapters: {
    eventStore: "sqlite" | "eventstoredb";
    readModels: "sqlite" | "mongodb";
    search: "sqlite" | "qdrant";
    blobs: "local" | "s3";
    integrationEvents: "none" | "kafka";
    jobs: "embedded" | "bullmq";
    workflows: "embedded" | "temporal";
    mail: "dev-mailbox" | "smtp";
    payments: "disabled" | "stripe";
  };
  raw: Env;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    this.name = "ConfigError";
  }
}

export function loadConfig(source: Record<string, string | undefined> = process.env): AppConfig {
  const cleaned = Object.fromEntries(Object.entries(source).map(([k, v]) => [k, emptyToUndefined(v)]));
  const parsed = schema.safeParse(cleaned);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`));
  }
  const env = parsed.data;
  const dataDir = path.resolve(env.DATA_DIR);
  return {
    env: env.NODE_ENV,
    deploymentEnv: env.DEPLOYMENT_ENV,
    isProduction: env.DEPLOYMENT_ENV === "production",
    port: env.PORT,
    host: env.HOST,
    dataDir,
    appSecret: env.APP_SECRET ?? localSecret(dataDir, env.DEPLOYMENT_ENV),
    appSecretPrevious: env.APP_SECRET_PREVIOUS.split(",").map((s) => s.trim()).filter(Boolean),
    logLevel: env.LOG_LEVEL,
    cookieSecure: env.COOKIE_SECURE ? env.COOKIE_SECURE === "true" : env.DEPLOYMENT_ENV === "production",
    productName: env.PRODUCT_NAME,
    adminUsernames: list(env.ADMIN_USERNAMES),
    egressAllowPrivateHosts: list(env.EGRESS_ALLOW_PRIVATE_HOSTS),
    adapters: {
      eventStore: env.EVENTSTORE_URL ? "eventstoredb" : "sqlite",
      readModels: env.MONGODB_URL ? "mongodb" : "sqlite",
      search: env.QDRANT_URL ? "qdrant" : "sqlite",
      blobs: env.S3_BUCKET ? "s3" : "local",
      integrationEvents: env.KAFKA_BROKERS ? "kafka" : "none",
      jobs: env.REDIS_URL ? "bullmq" : "embedded",
      workflows: env.TEMPORAL_ADDRESS ? "temporal" : "embedded",
      mail: env.SMTP_URL ? "smtp" : "dev-mailbox",
      payments: env.STRIPE_SECRET_KEY ? "stripe" : "disabled",
    },
    raw: env,
  };
}

const list = (value: string) => value.split(",").map((s) => s.trim().toLowerCase()).filter(Boolean);

/**
 * On one machine with embedded defaults we keep a generated secret in the data
 * directory, so a fresh install starts without set-up; production must set
 * APP_SECRET explicitly (losing it would invalidate sessions and shredding keys).
 */
function localSecret(dataDir: string, deploymentEnv: Env["DEPLOYMENT_ENV"]): string {
  if (deploymentEnv === "production") {
    throw new ConfigError(["APP_SECRET: required when DEPLOYMENT_ENV is production"]);
  }
  const file = path.join(dataDir, "app-secret");
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32).toString("base64url");
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}
