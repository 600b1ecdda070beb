import type Database from "better-sqlite3";
import type { SessionRecord, SessionStore } from "#application/ports/sessions";

/** Sessions in the embedded runtime database (operational state, not events). */
export class SqliteSessionStore implements SessionStore {
  constructor(private readonly db: Database.Database) {
    db.exec(`CREATE TABLE IF NOT EXISTS sessions (
      ref TEXT PRIMARY KEY,
      user_id TEXT NOT NULL,
      created_at TEXT NOT NULL,
      expires_at TEXT NOT NULL,
      impersonator_id TEXT,
      revoked_at TEXT
    );
    CREATE INDEX IF NOT EXISTS sessions_user ON sessions(user_id);`);
    // Added with impersonation sessions (decision 101); older databases gain the column.
    const columns = db.prepare(`PRAGMA table_info(sessions)`).all() as { name: string }[];
    if (!columns.some((column) => column.name === "impersonation_id")) db.exec(`ALTER TABLE sessions ADD COLUMN impersonation_id TEXT`);
  }

  async create(record: SessionRecord): Promise<void> {
    this.db
      .prepare(`INSERT INTO sessions (ref, user_id, created_at, expires_at, impersonator_id, impersonation_id) VALUES (?, ?, ?, ?, ?, ?)`)
      .run(record.ref, record.userId, record.createdAt, record.expiresAt, record.impersonatorId, record.impersonationId ?? null);
  }

  /** Every signed-in request looks its session up: prepared once (after the table exists), not per request. */
  private findLive?: Database.Statement;

  async find(ref: string, now: Date): Promise<SessionRecord | null> {
    this.findLive ??= this.db.prepare(
      `SELECT ref, user_id, created_at, expires_at, impersonator_id, impersonation_id FROM sessions
       WHERE ref = ? AND revoked_at IS NULL AND expires_at > ?`,
    );
    const row = this.findLive.get(ref, now.toISOString()) as
      | { ref: string; user_id: string; created_at: string; expires_at: string; impersonator_id: string | null; impersonation_id: string | null }
      | undefined;
    if (!row) return null;
    return {
      ref: row.ref,
      userId: row.user_id,
      createdAt: row.created_at,
      expiresAt: row.expires_at,
      impersonatorId: row.impersonator_id,
      impersonationId: row.impersonation_id,
    };
  }

  async revoke(ref: string): Promise<void> {
    this.db.prepare(`UPDATE sessions SET revoked_at = ? WHERE ref = ? AND revoked_at IS NULL`).run(new Date().toISOString(), ref);
  }

  async revokeAllForUser(userId: string): Promise<string[]> {
    const refs = this.db
      .prepare(`SELECT ref FROM sessions WHERE user_id = ? AND revoked_at IS NULL`)
      .pluck()
      .all(userId) as string[];
    this.db.prepare(`UPDATE sessions SET revoked_at = ? WHERE user_id = ? AND revoked_at IS NULL`).run(new Date().toISOString(), userId);
    return refs;
  }

  async deleteAllForUser(userId: string): Promise<number> {
    return this.db.prepare(`DELETE FROM sessions WHERE user_id = ?`).run(userId).changes;
  }
}
