import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import Database from "better-sqlite3";

/**
 * Opens (creating when missing) an embedded SQLite database with the settings
 * every embedded adapter relies on. ":memory:" gives a private in-memory database.
 */
export function openDatabase(file: string): Database.Database {
  const inMemory = file === ":memory:" || file === "";
  if (!inMemory) mkdirSync(dirname(file), { recursive: true });
  const db = new Database(file);
  // WAL lets readers (queries, another process such as a CLI) run beside the single writer.
  if (!inMemory) db.pragma("journal_mode = WAL");
  // NORMAL is durable across application crashes in WAL mode; only an OS crash can lose the last commits.
  db.pragma("synchronous = NORMAL");
  // Another process holding the write lock makes us wait instead of failing with SQLITE_BUSY. Only
  // where the write lock is the first lock taken: a transaction that reads before it writes must begin
  // IMMEDIATE, or another process's commit in between fails it at once (decision 250).
  db.pragma("busy_timeout = 5000");
  db.pragma("foreign_keys = ON");
  // Deleted rows are overwritten with zeros, not left in free pages: a purged account must not stay on disk (decision 081).
  db.pragma("secure_delete = ON");
  return db;
}

/**
 * Says, each time it is called, whether another connection (another process)
 * has committed to `db` since the last call, or since it was made. SQLite bumps
 * `data_version` for every commit made by another connection, never for this
 * one's own. It is polled every few ms, hence one prepared statement
 * (`db.pragma()` would prepare anew on every call).
 */
export function commitsElsewhere(db: Database.Database): () => boolean {
  const dataVersion = db.prepare<[], number>("PRAGMA data_version").pluck();
  let seen = dataVersion.get() as number;
  return () => {
    const now = dataVersion.get() as number;
    if (now === seen) return false;
    seen = now;
    return true;
  };
}
