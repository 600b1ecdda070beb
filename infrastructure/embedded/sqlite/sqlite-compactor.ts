import type Database from "better-sqlite3";
import type { DeletedDataCompactor } from "#application/ports/personal-data";

/**
 * The embedded stores after a purge (decision 081). `secure_delete` already
 * zeroes deleted rows in the pages it rewrites, the search index's postings
 * included (plain rows since decision 158, no FTS5 segments to merge); what
 * remains are the old versions of those pages in the write-ahead log. So:
 * checkpoint every database with TRUNCATE, which copies the WAL into the
 * database and cuts the WAL file to zero bytes.
 */
export class SqliteCompactor implements DeletedDataCompactor {
  constructor(private readonly databases: () => Database.Database[]) {}

  async compact(): Promise<void> {
    for (const db of this.databases()) {
      if (db.open && !db.memory) db.pragma("wal_checkpoint(TRUNCATE)");
    }
  }
}
