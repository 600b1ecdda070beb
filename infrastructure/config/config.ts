import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { isIP } from "node:net";
import path from "node:path";
import { z } from "zod";
import { deletionGraceMs } from "#domain/identity/profile";
import { PROVIDER_NAMES, PROVIDERS, type Provider } from "#domain/identity/keyset";
import { DEFAULT_QDRANT_COLLECTION, QDRANT_COLLECTION_NAME } from "../production/qdrant-search-index";

/**
 * All configuration, validated once at start-up. Each production adapter is
 * switched on by its own variable (ARCHITECTURE §4); unset means embedded.
 * A bad value stops start-up with a message naming the variable.
 */

const optionalUrl = z.string().url().optional();
/** An optional URL whose scheme must match (the client behind it speaks nothing else). */
const optionalUrlWithScheme = (scheme: RegExp, message: string) =>
  z
    .string()
    .url()
    .refine((v) => scheme.test(v), message)
    .optional();
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
  /**
   * Tests only: fixed name resolutions `name=address,…` for names under `.test` (RFC 6761), so a
   * journey reaches its local server by name without an /etc/hosts entry. Refused in production.
   */
  EGRESS_TEST_HOSTS: z.string().default(""),
  /** Overrides the account-deletion grace period (7 days in production, 10 minutes elsewhere); for tests. */
  ACCOUNT_DELETION_GRACE_MS: z.coerce.number().int().min(1000).optional(),
  /** When the candidate assessment's offer closes (an ISO date); unset: it stays open. */
  INTERVIEW_DEADLINE: z
    .string()
    .refine((v) => !Number.isNaN(Date.parse(v)), "must be a date, e.g. 2024-11-30T23:59:59Z")
    .optional(),
  /** How long a registered upload waits for its file before it fails with 'The upload did not complete' (default 1 hour). */
  UPLOAD_DEADLINE_MS: z.coerce.number().int().min(1000).default(60 * 60_000),
  /** What reads PDF text and layout (decision 212): pdf.js, or poppler's pdftotext in child processes (pdf.js where poppler cannot read a file). */
  PDF_EXTRACTOR: z.enum(["pdfjs", "poppler"]).default("poppler"),
  /** Address space of each poppler process (MiB). */
  PDF_EXTRACTOR_MEMORY_MB: z.coerce.number().int().min(64).default(1024),
  /** Requests one personal access token may make per minute on /api/v1 and /mcp (decision 220). */
  API_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).max(100_000).default(120),

  EVENTSTORE_URL: optionalUrl,
  MONGODB_URL: optionalUrl,
  QDRANT_URL: optionalUrlWithScheme(/^https?:\/\//, "must start with http:// or https:// (Qdrant's REST port, usually 6333)"),
  /** Sent as the api-key header (Qdrant Cloud, or a server started with an API key). */
  QDRANT_API_KEY: z.string().min(1).optional(),
  /** The chunk collection; created on first use (docs/decisions/040). */
  QDRANT_COLLECTION: z.string().regex(QDRANT_COLLECTION_NAME, "letters, digits, _ and - only").default(DEFAULT_QDRANT_COLLECTION),
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
  /** Where browsers reach the app (links in mails, the OpenID redirect URL). Default http://HOST:PORT. */
  PUBLIC_URL: optionalUrl,
  /** Any OpenID provider (Google: https://accounts.google.com). Sign-in with it is on when this and OIDC_CLIENT_ID are set. */
  OIDC_ISSUER: optionalUrl,
  OIDC_CLIENT_ID: z.string().optional(),
  OIDC_CLIENT_SECRET: z.string().optional(),
  /** The name on the button and in Connected Apps. */
  OIDC_PROVIDER_NAME: z.string().min(1).max(40).default("Google"),
  /** Must be registered with the provider. Default PUBLIC_URL/auth/oidc/callback. */
  OIDC_REDIRECT_URL: optionalUrl,
  SMTP_URL: optionalUrlWithScheme(/^smtps?:\/\//, "must start with smtp:// or smtps://"),
  /** Sender of every mail. Default "PRODUCT_NAME <no-reply@PUBLIC_URL's host>". */
  MAIL_FROM: z.string().min(3).optional(),
  /** Payments (docs/decisions/111): Stripe Checkout, or Razorpay; at most one. */
  STRIPE_SECRET_KEY: z.string().regex(/^(sk|rk)_/, "must be a Stripe secret key (sk_… or rk_…)").optional(),
  STRIPE_WEBHOOK_SECRET: z.string().regex(/^whsec_/, "must be the endpoint's signing secret (whsec_…)").optional(),
  /** Another Stripe API host (tests replay Stripe's wire format locally). */
  STRIPE_API_URL: optionalUrl,
  RAZORPAY_KEY_ID: z.string().regex(/^rzp_(test|live)_/, "must be a Razorpay key id (rzp_test_… or rzp_live_…)").optional(),
  RAZORPAY_KEY_SECRET: z.string().min(8).optional(),
  RAZORPAY_WEBHOOK_SECRET: z.string().min(8).optional(),
  RAZORPAY_API_URL: optionalUrl,
  RAZORPAY_CHECKOUT_URL: z.string().url().default("https://checkout.razorpay.com/v1/checkout.js"),
  /** A cloud speech service (Azure AI Speech): with its key, POST /profiles/auth issues the spec's speech token (decision 144). */
  AZURE_SPEECH_KEY: z.string().min(1).optional(),
  AZURE_SPEECH_REGION: z.string().regex(/^[a-z0-9]+$/, "an Azure region name such as eastus").default("eastus"),
  /** Where tokens are issued; default https://REGION.api.cognitive.microsoft.com/sts/v1.0/issueToken. */
  AZURE_SPEECH_TOKEN_URL: optionalUrl,

  /** Bearer token /metrics asks for; unset: /metrics answers only clients on this machine (issue 32). */
  METRICS_TOKEN: z.preprocess(emptyToUndefined, z.string().min(16, "must be at least 16 characters").optional()),
  /** /readyz fails while a projector's oldest unapplied event is older than this (seconds). */
  READINESS_MAX_PROJECTOR_LAG_SECONDS: z.coerce.number().positive().default(30),
  /** On SIGTERM, how long requests in flight (streamed answers) may take to finish before the process stops (ms); read by server.mjs. */
  SHUTDOWN_DEADLINE_MS: z.coerce.number().int().min(100).max(600_000).default(8_000),
  /** Scheduled backups of an embedded installation: hours between two, 0 = off. */
  BACKUP_INTERVAL_HOURS: z.coerce.number().min(0).default(0),
  /** Where scheduled backups are written (default DATA_DIR/backups: on the data volume, writable wherever DATA_DIR is; decision 252). */
  BACKUP_DIR: z.string().min(1).optional(),
  /** How many scheduled backups are kept; older ones are deleted after a new one is written. */
  BACKUP_KEEP: z.coerce.number().int().min(1).default(7),
  /**
   * The product's own keyset (docs/decisions/190): per scope a provider (or an
   * OpenAI-compatible base URL), a model and a key. Unset: the offline models.
   */
  ...productKeysetScope("TEXT"),
  ...productKeysetScope("IMAGE"),
  ...productKeysetScope("EMBEDDING"),
  /** When the operator's text or image provider fails, the offline model answers instead (saying so). */
  PRODUCT_KEYSET_OFFLINE_FALLBACK: z.enum(["true", "false"]).default("false"),
  /** How long the operator's provider may take to start an answer before the user is told it did not answer. */
  PRODUCT_KEYSET_TIMEOUT_MS: z.coerce.number().int().min(1000).default(60_000),
  // OpenTelemetry's own variable names, so a collector set up for other services is named the same way here.
  OTEL_EXPORTER_OTLP_ENDPOINT: optionalUrlWithScheme(/^https?:\/\//, "must start with http:// or https:// (an OTLP/HTTP collector, usually port 4318)"),
  OTEL_SERVICE_NAME: z.string().min(1).default("docuchat"),
  /** The commit the app was built from, where no .git folder says (an image): docuchat_build_info's commit. */
  SOURCE_COMMIT: z.string().trim().optional(),
});

function productKeysetScope<S extends "TEXT" | "IMAGE" | "EMBEDDING">(scope: S) {
  const provider = z
    .string()
    .refine((v) => PROVIDER_NAMES.includes(v.split("/")[0] as Provider), `one of ${PROVIDER_NAMES.join(", ")} (Azure/OpenAI names a sub-provider)`)
    .optional();
  return {
    [`PRODUCT_KEYSET_${scope}_PROVIDER`]: provider,
    [`PRODUCT_KEYSET_${scope}_BASE_URL`]: optionalUrlWithScheme(/^https?:\/\//, "must start with http:// or https://"),
    [`PRODUCT_KEYSET_${scope}_MODEL`]: z.string().min(1).max(200).optional(),
    [`PRODUCT_KEYSET_${scope}_API_KEY`]: z.string().min(1).optional(),
  } as Record<`PRODUCT_KEYSET_${S}_${"PROVIDER" | "BASE_URL" | "MODEL" | "API_KEY"}`, z.ZodOptional<z.ZodString> | z.ZodOptional<z.ZodEffects<z.ZodString>>>;
}

export type Env = z.infer<typeof schema>;

export interface OperationsConfig {
  /** null: /metrics answers loopback clients only. */
  metricsToken: string | null;
  maxProjectorLagSeconds: number;
  backup: { intervalHours: number; dir: string; keep: number };
  /** null: no traces (the default); spans are sent to `<endpoint>/v1/traces` as OTLP/HTTP JSON. */
  tracing: { endpoint: string; serviceName: string } | null;
  /** SOURCE_COMMIT; null: asked of git where the app runs from a clone. */
  sourceCommit: string | null;
}

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
  pdfExtractor: { extractor: Env["PDF_EXTRACTOR"]; memoryMb: number };
  cookieSecure: boolean;
  productName: string;
  adminUsernames: string[];
  egressAllowPrivateHosts: string[];
  /** Names resolved to fixed addresses instead of DNS (EGRESS_TEST_HOSTS; empty outside tests). */
  egressTestHosts: Record<string, string[]>;
  /** Grace period before a scheduled account deletion purges (ms). */
  accountDeletionGraceMs: number;
  /** When the candidate assessment's offer closes; null: no closing date. */
  assessmentOfferClosesAt: Date | null;
  /** How long a registered upload waits for its file (ms). */
  uploadDeadlineMs: number;
  /** Requests per minute per personal access token. */
  apiRateLimitPerMinute: number;
  publicUrl: string;
  mailFrom: string;
  /** Metrics, readiness and scheduled backups (issue 32). */
  operations: OperationsConfig;
  /** null: OpenID sign-in is not configured (the buttons say so). */
  oidc: OidcConfig | null;
  /** null: no payment provider (plans and usage show; Upgrade says payments are not configured). */
  payments: PaymentsConfig | null;
  /** What stands behind the product's keyset; every scope null: the offline models, as without configuration. */
  productKeyset: ProductKeysetConfig;
  adapters: {
    eventStore: "sqlite" | "eventstoredb";
    readModels: "sqlite" | "mongodb";
    search: "sqlite" | "qdrant";
    blobs: "local" | "s3";
    integrationEvents: "none" | "kafka";
    jobs: "embedded" | "bullmq";
    workflows: "embedded" | "temporal";
    mail: "dev-mailbox" | "smtp";
    payments: "disabled" | "stripe" | "razorpay";
  };
  raw: Env;
}

export interface OidcConfig {
  issuer: string;
  clientId: string;
  clientSecret: string | null;
  providerName: string;
  redirectUrl: string;
}

export type PaymentsConfig =
  | { provider: "stripe"; secretKey: string; webhookSecret: string; apiUrl?: string }
  | { provider: "razorpay"; keyId: string; keySecret: string; webhookSecret: string; apiUrl?: string; checkoutScriptUrl: string };

function paymentsConfig(env: Env): PaymentsConfig | null {
  if (env.STRIPE_SECRET_KEY && env.RAZORPAY_KEY_ID) throw new ConfigError(["STRIPE_SECRET_KEY, RAZORPAY_KEY_ID: configure one payment provider, not both"]);
  if (env.STRIPE_SECRET_KEY) {
    if (!env.STRIPE_WEBHOOK_SECRET) throw new ConfigError(["STRIPE_WEBHOOK_SECRET: required when STRIPE_SECRET_KEY is set (the webhook endpoint's signing secret, whsec_…)"]);
    return { provider: "stripe", secretKey: env.STRIPE_SECRET_KEY, webhookSecret: env.STRIPE_WEBHOOK_SECRET, apiUrl: env.STRIPE_API_URL };
  }
  if (env.RAZORPAY_KEY_ID) {
    if (!env.RAZORPAY_KEY_SECRET || !env.RAZORPAY_WEBHOOK_SECRET) throw new ConfigError(["RAZORPAY_KEY_SECRET, RAZORPAY_WEBHOOK_SECRET: required when RAZORPAY_KEY_ID is set"]);
    return {
      provider: "razorpay",
      keyId: env.RAZORPAY_KEY_ID,
      keySecret: env.RAZORPAY_KEY_SECRET,
      webhookSecret: env.RAZORPAY_WEBHOOK_SECRET,
      apiUrl: env.RAZORPAY_API_URL,
      checkoutScriptUrl: env.RAZORPAY_CHECKOUT_URL,
    };
  }
  return null;
}

/** One scope of the product's keyset as a provider keyset: the shape users' keysets have (docs/decisions/190). */
export interface ProductModelConfig {
  provider: Provider;
  subProvider: string;
  /** Base URL (OpenAI-compatible, Azure) or region (AWS); null: the provider's public API. */
  endpoint: string | null;
  model: string;
  /** Never logged, never sent to a browser, never in an event or read model. */
  apiKey: string;
}

export interface ProductKeysetConfig {
  text: ProductModelConfig | null;
  /** Unset: the text configuration. */
  image: ProductModelConfig | null;
  embedding: ProductModelConfig | null;
  offlineFallback: boolean;
  timeoutMs: number;
}

function productModelConfig(env: Env, scope: "TEXT" | "IMAGE" | "EMBEDDING"): ProductModelConfig | null {
  const name = (field: string) => `PRODUCT_KEYSET_${scope}_${field}`;
  const read = (field: string) => (env as Record<string, unknown>)[name(field)] as string | undefined;
  const [providerName, subProviderName] = (read("PROVIDER") ?? (read("BASE_URL") ? "OpenAI-compatible" : "")).split("/");
  const model = read("MODEL");
  if (!providerName && !model) return null;
  if (!providerName) throw new ConfigError([`${name("PROVIDER")}: required when ${name("MODEL")} is set (a provider, or ${name("BASE_URL")} for an OpenAI-compatible server)`]);
  if (!model) throw new ConfigError([`${name("MODEL")}: required when ${name("PROVIDER")} or ${name("BASE_URL")} is set`]);
  const provider = providerName as Provider;
  const rules = PROVIDERS[provider];
  const subProvider = subProviderName ?? (provider === "OpenAI-compatible" ? "Other" : rules.subProviders[0]);
  if (!(rules.subProviders as readonly string[]).includes(subProvider)) throw new ConfigError([`${name("PROVIDER")}: ${provider}'s sub-providers are ${rules.subProviders.join(", ")}`]);
  const endpoint = read("BASE_URL") ?? null;
  if (rules.needsEndpoint && !endpoint) throw new ConfigError([`${name("BASE_URL")}: required for ${provider}`]);
  if (endpoint && !rules.needsEndpoint) throw new ConfigError([`${name("BASE_URL")}: ${provider} is reached at its public API; for another server use OpenAI-compatible`]);
  const apiKey = read("API_KEY") ?? "";
  if (!apiKey && !rules.keyOptional) throw new ConfigError([`${name("API_KEY")}: required for ${provider}`]);
  return { provider, subProvider, endpoint: endpoint?.replace(/\/+$/, "") ?? null, model, apiKey };
}

function productKeysetConfig(env: Env): ProductKeysetConfig {
  return {
    text: productModelConfig(env, "TEXT"),
    image: productModelConfig(env, "IMAGE"),
    embedding: productModelConfig(env, "EMBEDDING"),
    offlineFallback: env.PRODUCT_KEYSET_OFFLINE_FALLBACK === "true",
    timeoutMs: env.PRODUCT_KEYSET_TIMEOUT_MS,
  };
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
  if (env.OIDC_ISSUER && !env.OIDC_CLIENT_ID) throw new ConfigError(["OIDC_CLIENT_ID: required when OIDC_ISSUER is set"]);
  if (env.OIDC_CLIENT_ID && !env.OIDC_ISSUER) throw new ConfigError(["OIDC_ISSUER: required when OIDC_CLIENT_ID is set"]);
  // Without a mail server the dev mailbox is the mailer, and it shows every sign-in and reset code (docs/decisions/080).
  if (env.DEPLOYMENT_ENV === "production" && !env.SMTP_URL) {
    throw new ConfigError([
      "SMTP_URL: required when DEPLOYMENT_ENV is production (e.g. smtp://user:pass@smtp.example.com:587). Without it the dev mailbox would be the mailer, and it shows every verification and password-reset code.",
    ]);
  }
  const payments = paymentsConfig(env);
  const productKeyset = productKeysetConfig(env);
  const publicUrl = (env.PUBLIC_URL ?? `http://${env.HOST}:${env.PORT}`).replace(/\/+$/, "");
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
    pdfExtractor: { extractor: env.PDF_EXTRACTOR, memoryMb: env.PDF_EXTRACTOR_MEMORY_MB },
    cookieSecure: env.COOKIE_SECURE ? env.COOKIE_SECURE === "true" : env.DEPLOYMENT_ENV === "production",
    productName: env.PRODUCT_NAME,
    adminUsernames: list(env.ADMIN_USERNAMES),
    egressAllowPrivateHosts: list(env.EGRESS_ALLOW_PRIVATE_HOSTS),
    egressTestHosts: testHosts(env.EGRESS_TEST_HOSTS, env.DEPLOYMENT_ENV),
    accountDeletionGraceMs: deletionGraceMs(env.DEPLOYMENT_ENV === "production", env.ACCOUNT_DELETION_GRACE_MS),
    assessmentOfferClosesAt: env.INTERVIEW_DEADLINE ? new Date(env.INTERVIEW_DEADLINE) : null,
    uploadDeadlineMs: env.UPLOAD_DEADLINE_MS,
    operations: {
      metricsToken: env.METRICS_TOKEN ?? null,
      maxProjectorLagSeconds: env.READINESS_MAX_PROJECTOR_LAG_SECONDS,
      backup: { intervalHours: env.BACKUP_INTERVAL_HOURS, dir: path.resolve(env.BACKUP_DIR ?? path.join(dataDir, "backups")), keep: env.BACKUP_KEEP },
      tracing: env.OTEL_EXPORTER_OTLP_ENDPOINT ? { endpoint: env.OTEL_EXPORTER_OTLP_ENDPOINT, serviceName: env.OTEL_SERVICE_NAME } : null,
      sourceCommit: env.SOURCE_COMMIT || null,
    },
    apiRateLimitPerMinute: env.API_RATE_LIMIT_PER_MINUTE,
    publicUrl,
    mailFrom: env.MAIL_FROM ?? `${env.PRODUCT_NAME} <no-reply@${new URL(publicUrl).hostname}>`,
    oidc:
      env.OIDC_ISSUER && env.OIDC_CLIENT_ID
        ? {
            issuer: env.OIDC_ISSUER,
            clientId: env.OIDC_CLIENT_ID,
            clientSecret: env.OIDC_CLIENT_SECRET ?? null,
            providerName: env.OIDC_PROVIDER_NAME,
            redirectUrl: env.OIDC_REDIRECT_URL ?? `${publicUrl}/auth/oidc/callback`,
          }
        : null,
    payments,
    productKeyset,
    adapters: {
      eventStore: env.EVENTSTORE_URL ? "eventstoredb" : "sqlite",
      readModels: env.MONGODB_URL ? "mongodb" : "sqlite",
      search: env.QDRANT_URL ? "qdrant" : "sqlite",
      blobs: env.S3_BUCKET ? "s3" : "local",
      integrationEvents: env.KAFKA_BROKERS ? "kafka" : "none",
      jobs: env.REDIS_URL ? "bullmq" : "embedded",
      workflows: env.TEMPORAL_ADDRESS ? "temporal" : "embedded",
      mail: env.SMTP_URL ? "smtp" : "dev-mailbox",
      payments: payments?.provider ?? "disabled",
    },
    raw: env,
  };
}

const list = (value: string) => value.split(",").map((s) => s.trim().toLowerCase()).filter(Boolean);

/** EGRESS_TEST_HOSTS: `name=address` pairs, names under `.test` only, IP addresses only, never in production. */
function testHosts(value: string, deploymentEnv: Env["DEPLOYMENT_ENV"]): Record<string, string[]> {
  const entries = list(value);
  if (entries.length === 0) return {};
  if (deploymentEnv === "production") throw new ConfigError(["EGRESS_TEST_HOSTS: a test-only setting, refused when DEPLOYMENT_ENV is production"]);
  const table: Record<string, string[]> = {};
  for (const entry of entries) {
    const [name, address, ...rest] = entry.split("=").map((s) => s.trim());
    if (rest.length > 0 || !name || !address || !/^([a-z0-9-]+\.)+test$/.test(name) || isIP(address) === 0) {
      throw new ConfigError([`EGRESS_TEST_HOSTS: "${entry}" is not name=address with a name under .test and an IP address`]);
    }
    (table[name] ??= []).push(address);
  }
  return table;
}

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
