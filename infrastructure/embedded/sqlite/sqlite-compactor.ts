import type Database from "better-sqlite3";
import type { DeletedDataCompactor } from "#application/ports/personal-data";

/**
 * The embedded stores after a purge (decision 081). `secure_delete` already
 * zeroes deleted rows in the pages it rewrites; what remains are the old
 * versions of those pages in the write-ahead log and the full-text index's
 * segments that still list the deleted terms. So: merge the full-text segments
 * (FTS5 'optimize'), then checkpoint every database with TRUNCATE, which copies
 * the WAL into the database and cuts the WAL file to zero bytes.
 */
export class SqliteCompactor implements DeletedDataCompactor {
  constructor(
    private readonly databases: () => Database.Database[],
    /** Full-text indexes to merge first (their segments are pages the checkpoint then writes). */
    private readonly fullTextIndexes: { mergeSegments(): void }[] = [],
  ) {}

  async compact(): Promise<void> {
    for (const index of this.fullTextIndexes) index.mergeSegments();
    for (const db of this.databases()) {
      if (db.open && !db.memory) db.pragma("wal_checkpoint(TRUNCATE)");
    }
  }
}
