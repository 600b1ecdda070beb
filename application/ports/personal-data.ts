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

/** What `data.personal` reads as once its subject has been forgotten. */
export const ERASED_PERSONAL_DATA = null;
