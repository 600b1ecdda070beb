import type Database from "better-sqlite3";
import type { ProcessLease, ProcessLeases } from "#application/ports/process-leases";

/** How often a living process renews its lease; the sweeper waits several of these before calling it gone. */
export const LEASE_RENEWAL_MS = 5_000;

/**
 * Leases in the runtime database, shared by the processes of an installation
 * (decision 240). Renewal counts, not timestamps: a clock step must not make
 * every living process look gone, so only the sweeper's monotonic clock judges
 * how long a count has stood still.
 */
export class SqliteProcessLeases implements ProcessLeases {
  private renewal: ReturnType<typeof setInterval> | null = null;

  constructor(
    private readonly db: Database.Database,
    readonly processId: string,
  ) {
    db.exec(`CREATE TABLE IF NOT EXISTS process_leases (process_id TEXT PRIMARY KEY, renewals INTEGER NOT NULL)`);
  }

  /** Takes this process's lease and renews it until `release`. */
  hold(): void {
    // An upsert: a process judged gone (its event loop stalled past the timeout) that still lives takes its lease back.
    const renew = this.db.prepare(
      `INSERT INTO process_leases (process_id, renewals) VALUES (?, 0) ON CONFLICT(process_id) DO UPDATE SET renewals = renewals + 1`,
    );
    renew.run(this.processId);
    this.renewal = setInterval(() => renew.run(this.processId), LEASE_RENEWAL_MS);
    this.renewal.unref();
  }

  /** A clean stop: the process's answers are ended at the next sweep, not after the lease times out. */
  release(): void {
    if (this.renewal) clearInterval(this.renewal);
    this.renewal = null;
    if (this.db.open) this.db.prepare(`DELETE FROM process_leases WHERE process_id = ?`).run(this.processId);
  }

  async held(): Promise<ProcessLease[]> {
    return this.db
      .prepare<[], { process_id: string; renewals: number }>(`SELECT process_id, renewals FROM process_leases`)
      .all()
      .map((row) => ({ processId: row.process_id, renewals: row.renewals }));
  }

  async forget(processIds: string[]): Promise<void> {
    const drop = this.db.prepare(`DELETE FROM process_leases WHERE process_id = ?`);
    this.db.transaction(() => processIds.forEach((id) => drop.run(id)))();
  }
}
