/** The part of configuration the application layer reads (bound to TOKENS.Config). */
export interface AppSettings {
  productName: string;
  adminUsernames: string[];
  isProduction: boolean;
  /** Grace period before a scheduled account deletion purges (ms). */
  accountDeletionGraceMs: number;
  /** When the candidate assessment's offer closes; null: no closing date. */
  assessmentOfferClosesAt: Date | null;
  /** How long a registered upload waits for its file before it fails (ms). */
  uploadDeadlineMs: number;
  /** Requests per minute per personal access token (decision 220). */
  apiRateLimitPerMinute: number;
}
