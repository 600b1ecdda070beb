import { readdirSync, readFileSync } from "node:fs";
import type Database from "better-sqlite3";
import type { ExtractionLocks } from "#application/ports/extraction-locks";

/** Inherited by every process the holder starts (tools, extraction processes, and theirs): how its orphans are found. */
export const HOLDER_VARIABLE = "DOCUCHAT_EXTRACTION_HOLDER";

/** A process as a lock names it, `pid:start time`, so a pid the system gave again is not taken for it; null once it has ended. */
export function processIdentity(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // Field 3 is the state (Z: ended, not yet reaped), field 22 the start time.
    return fields[0] === "Z" ? null : `${pid}:${fields[19]}`;
  } catch {
    return null;
  }
}

/** The living processes whose environment names `holder`. */
function startedBy(holder: string): number[] {
  const mark = `${HOLDER_VARIABLE}=${holder}`;
  const found: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/environ`, "utf8").split("\0").includes(mark) && processIdentity(Number(entry))) found.push(Number(entry));
    } catch {
      // Ended while we looked, or not ours to read.
    }
  }
  return found;
}

/**
 * Extraction locks in the runtime database (decision 246), for the processes of one machine, which
 * share it. A lock names the process that took it. It is free when that process has ended and so has
 * every process it started (found by the variable they inherit from it). A holder that is gone leaves
 * only orphans, whose work no one will read: they are killed, and the lock is taken once they have ended.
 */
export class SqliteExtractionLocks implements ExtractionLocks {
  private readonly holder: string;
  private readonly heldHere = new Set<string>();

  constructor(
    private readonly db: Database.Database,
    private readonly pollMs = 250,
  ) {
    db.exec(`CREATE TABLE IF NOT EXISTS extraction_locks (document_id TEXT PRIMARY KEY, holder TEXT NOT NULL)`);
    this.holder = processIdentity(process.pid) ?? `${process.pid}:`;
    // Every process started from now on carries it, the extraction threads' tools included (threads copy the environment).
    process.env[HOLDER_VARIABLE] = this.holder;
  }

  async holding<T>(documentId: string, work: () => Promise<T>): Promise<T> {
    const read = this.db.prepare<[string], { holder: string }>(`SELECT holder FROM extraction_locks WHERE document_id = ?`);
    const take = this.db.prepare(`INSERT INTO extraction_locks (document_id, holder) VALUES (?, ?) ON CONFLICT(document_id) DO UPDATE SET holder = excluded.holder`);
    const tryTaking = this.db
      .transaction(() => {
        const current = read.get(documentId)?.holder;
        if (current && current !== this.holder && this.stillRuns(current)) return false;
        take.run(documentId, this.holder);
        return true;
      })
      .immediate.bind(null);
    while (this.heldHere.has(documentId) || !tryTaking()) await new Promise((resolve) => setTimeout(resolve, this.pollMs));
    this.heldHere.add(documentId);
    try {
      return await work();
    } finally {
      this.heldHere.delete(documentId);
      if (this.db.open) this.db.prepare(`DELETE FROM extraction_locks WHERE document_id = ? AND holder = ?`).run(documentId, this.holder);
    }
  }

  /** Whether the holder, or a process it started, still runs; orphans of a holder that is gone are killed on the way. */
  private stillRuns(holder: string): boolean {
    if (processIdentity(Number(holder.split(":")[0])) === holder) return true;
    const orphans = startedBy(holder);
    for (const pid of orphans) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        // Ended meanwhile.
      }
    }
    return orphans.length > 0;
  }
}
