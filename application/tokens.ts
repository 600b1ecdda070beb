/**
 * Inversify tokens. esbuild emits no decorator metadata, so every constructor
 * parameter names its token explicitly with @inject(TOKENS.X).
 */
export const TOKENS = {
  Config: Symbol.for("Config"),
  Logger: Symbol.for("Logger"),
  Clock: Symbol.for("Clock"),
  Ids: Symbol.for("Ids"),
  EventStore: Symbol.for("EventStore"),
  SubjectKeys: Symbol.for("SubjectKeys"),
  DeletedDataCompactor: Symbol.for("DeletedDataCompactor"),
  ReadModelStore: Symbol.for("ReadModelStore"),
  BlobStore: Symbol.for("BlobStore"),
  Projectors: Symbol.for("Projectors"),
  ProjectionRunner: Symbol.for("ProjectionRunner"),
  /** What operators count (application/ports/metrics.ts). */
  Metrics: Symbol.for("Metrics"),
  Tracing: Symbol.for("Tracing"),
  ProjectionWaiter: Symbol.for("ProjectionWaiter"),
  WorkflowEngine: Symbol.for("WorkflowEngine"),
  JobQueue: Symbol.for("JobQueue"),
  Mailer: Symbol.for("Mailer"),
  DevMailbox: Symbol.for("DevMailbox"),
  /** An ExternalIdentityProvider; not bound when OpenID sign-in is not configured. */
  ExternalIdentityProvider: Symbol.for("ExternalIdentityProvider"),
  SessionStore: Symbol.for("SessionStore"),
  PasswordHasher: Symbol.for("PasswordHasher"),
  SecretHasher: Symbol.for("SecretHasher"),
  RateLimiter: Symbol.for("RateLimiter"),
  TextExtractor: Symbol.for("TextExtractor"),
  Egress: Symbol.for("Egress"),
  WebsiteCrawler: Symbol.for("WebsiteCrawler"),
  VideoSource: Symbol.for("VideoSource"),
  Transcriber: Symbol.for("Transcriber"),
  /** Compiles LaTeX in a sandbox (resume); refuses when the sandbox cannot start. */
  LatexCompiler: Symbol.for("LatexCompiler"),
  PlaybackEncoder: Symbol.for("PlaybackEncoder"),
  SpeechSynthesizer: Symbol.for("SpeechSynthesizer"),
  SpeechTokens: Symbol.for("SpeechTokens"),
  SearchIndex: Symbol.for("SearchIndex"),
  /** The offline extractive model (the evaluation measures it directly). */
  BuiltInModel: Symbol.for("BuiltInModel"),
  /** The product's own keyset: the operator's models, else the offline ones (application/ports/product-keyset.ts). */
  ProductKeyset: Symbol.for("ProductKeyset"),
  KeyCipher: Symbol.for("KeyCipher"),
  ModelProviders: Symbol.for("ModelProviders"),
  /** Plan limits (application/shared/allowance-policy.ts), answered by billing from the subscription. */
  AllowancePolicy: Symbol.for("AllowancePolicy"),
  /** Usage counters every context reserves on (application/shared/allowance-policy.ts), kept by billing. */
  UsageMeter: Symbol.for("UsageMeter"),
  /** Which answering processes live (application/ports/process-leases.ts). */
  ProcessLeases: Symbol.for("ProcessLeases"),
  ExtractionLocks: Symbol.for("ExtractionLocks"),
} as const;
