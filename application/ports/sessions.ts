/**
 * Server-side sessions (ARCHITECTURE §8): revocable, looked up by a hash of
 * the cookie's random token so a leaked table does not hand out sessions.
 */
export interface SessionRecord {
  /** sha-256 of the token in the cookie; also the session's reference in events. */
  ref: string;
  userId: string;
  createdAt: string;
  expiresAt: string;
  /** Set while an admin acts as this user. */
  impersonatorId: string | null;
  /** The impersonation an admin's impersonation session belongs to (absent on ordinary sessions). */
  impersonationId?: string | null;
}

export interface SessionStore {
  create(record: SessionRecord): Promise<void>;
  /** The live session (not revoked, not expired at `now`), or null. */
  find(ref: string, now: Date): Promise<SessionRecord | null>;
  revoke(ref: string): Promise<void>;
  /** Revokes every session of a user; returns the revoked refs. */
  revokeAllForUser(userId: string): Promise<string[]>;
  /** Deletes every session row of a user, revoked or not (a purge); returns how many. */
  deleteAllForUser(userId: string): Promise<number>;
}

export interface RateLimitDecision {
  allowed: boolean;
  retryAfterMs: number;
}

/** Fixed-window counters keyed by purpose and subject (account, client address). */
export interface RateLimiter {
  /** Counts one hit and says whether it is within the limit. */
  hit(key: string, limit: number, windowMs: number): Promise<RateLimitDecision>;
  /** Says whether the next hit would be allowed, without counting. */
  peek(key: string, limit: number, windowMs: number): Promise<RateLimitDecision>;
  /** Hits counted in the key's current window (0 when none). */
  count(key: string, windowMs: number): Promise<number>;
  reset(key: string): Promise<void>;
}

export interface PasswordHasher {
  hash(password: string): Promise<string>;
  verify(password: string, encoded: string): Promise<boolean>;
}

/** Keyed hashing (HMAC under the app secret) for codes, session refs and reservation keys. */
export interface SecretHasher {
  hash(purpose: string, value: string): string;
}
