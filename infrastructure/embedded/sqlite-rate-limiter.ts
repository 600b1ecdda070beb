import type Database from "better-sqlite3";
import type { Clock } from "#application/ports/clock";
import type { RateLimitDecision, RateLimiter, SecretHasher } from "#application/ports/sessions";

/**
 * Fixed-window counters in the embedded runtime database (survive restarts,
 * shared by processes). Keys name accounts and addresses, so the table holds
 * only their keyed hashes: nothing personal stays behind a purge (decision 081).
 */
export class SqliteRateLimiter implements RateLimiter {
  constructor(
    private readonly db: Database.Database,
    private readonly clock: Clock,
    private readonly secrets: SecretHasher,
  ) {
    db.exec(`CREATE TABLE IF NOT EXISTS rate_limits (key TEXT PRIMARY KEY, window_start INTEGER NOT NULL, hits INTEGER NOT NULL)`);
  }

  async hit(name: string, limit: number, windowMs: number): Promise<RateLimitDecision> {
    const key = this.key(name);
    const now = this.clock.now().getTime();
    const row = this.db.transaction(() => {
      const current = this.current(key, windowMs, now);
      const next = current ? { start: current.window_start, hits: current.hits + 1 } : { start: now, hits: 1 };
      this.db
        .prepare(`INSERT INTO rate_limits (key, window_start, hits) VALUES (?, ?, ?)
                  ON CONFLICT(key) DO UPDATE SET window_start = excluded.window_start, hits = excluded.hits`)
        .run(key, next.start, next.hits);
      return next;
    })();
    return decision(row.hits <= limit, row.start + windowMs - now);
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
