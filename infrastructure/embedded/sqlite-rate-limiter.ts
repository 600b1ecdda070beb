import type Database from "better-sqlite3";
import type { Clock } from "#application/ports/clock";
import type { RateLimitDecision, RateLimiter, SecretHasher } from "#application/ports/sessions";

/**
 * Fixed-window counters in the embedded runtime database (survive restarts,
 * shared by processes). Keys name accounts and addresses, so the table holds
 * only their keyed hashes: nothing personal stays behind a purge (decision 081).
 */
export class SqliteRateLimiter implements RateLimiter {
  private readonly hitStmt: Database.Statement;

  constructor(
    private readonly db: Database.Database,
    private readonly clock: Clock,
    private readonly secrets: SecretHasher,
  ) {
    db.exec(`CREATE TABLE IF NOT EXISTS rate_limits (key TEXT PRIMARY KEY, window_start INTEGER NOT NULL, hits INTEGER NOT NULL)`);
    this.hitStmt = db.prepare(`
      INSERT INTO rate_limits (key, window_start, hits) VALUES (@key, @now, 1)
      ON CONFLICT(key) DO UPDATE SET
        window_start = CASE WHEN @now - window_start < @windowMs THEN window_start ELSE @now END,
        hits = CASE WHEN @now - window_start < @windowMs THEN hits + 1 ELSE 1 END
      RETURNING window_start, hits`);
  }

  async hit(name: string, limit: number, windowMs: number): Promise<RateLimitDecision> {
    const now = this.clock.now().getTime();
    // One statement, no read before it: it takes the write lock at once, so another process holding
    // the lock makes it wait (busy_timeout). A read-then-write transaction fails with SQLITE_BUSY when
    // another process commits in between (issue 42). SET reads the row as it was.
    const row = this.hitStmt.get({ key: this.key(name), now, windowMs }) as { window_start: number; hits: number };
    return decision(row.hits <= limit, row.window_start + windowMs - now);
  }

  async peek(name: string, limit: number, windowMs: number): Promise<RateLimitDecision> {
    const key = this.key(name);
    const now = this.clock.now().getTime();
    const current = this.current(key, windowMs, now);
    if (!current) return decision(true, 0);
    return decision(current.hits < limit, current.window_start + windowMs - now);
  }

  async count(name: string, windowMs: number): Promise<number> {
    return this.current(this.key(name), windowMs, this.clock.now().getTime())?.hits ?? 0;
  }

  async reset(name: string): Promise<void> {
    this.db.prepare(`DELETE FROM rate_limits WHERE key = ?`).run(this.key(name));
  }

  private key(name: string): string {
    return this.secrets.hash("rate-limit", name);
  }

  private current(key: string, windowMs: number, now: number) {
    const row = this.db.prepare(`SELECT window_start, hits FROM rate_limits WHERE key = ?`).get(key) as
      | { window_start: number; hits: number }
      | undefined;
    return row && now - row.window_start < windowMs ? row : null;
  }
}

const decision = (allowed: boolean, retryAfterMs: number): RateLimitDecision => ({
  allowed,
  retryAfterMs: allowed ? 0 : Math.max(0, retryAfterMs),
});
