/**
 * Crypto-shredding (ARCHITECTURE §7): personal data in events is encrypted with
 * a key per data subject (user), kept outside the log. Forgetting the key makes
 * that data unreadable everywhere it was copied in the log, without rewriting
 * any event.
 */
export interface SubjectKeyStore {
  /** The subject's key, created on first use; null once forgotten. */
  keyFor(subjectId: string, options: { create: boolean }): Promise<Buffer | null>;
  /** Destroys the key for good. Idempotent. */
  forget(subjectId: string): Promise<void>;
}

/**
 * After a purge, makes the stores drop the deleted bytes for good: embedded
 * SQLite merges its full-text segments and truncates its write-ahead logs
 * (deleted rows are already overwritten: `secure_delete`). Servers (MongoDB,
 * Qdrant, S3) reclaim space on their own schedule (README, decision 081).
 */
export interface DeletedDataCompactor {
  compact(): Promise<void>;
}

/** What `data.personal` reads as once its subject has been forgotten. */
export const ERASED_PERSONAL_DATA = null;
