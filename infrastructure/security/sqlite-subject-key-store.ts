import type Database from "better-sqlite3";
import { commitsElsewhere } from "#infrastructure/embedded/sqlite/open-database";
import { type WrappedKeyRecord, type WrappedKeyRecords, WrappedSubjectKeyStore, type WrappedSubjectKeyStoreOptions } from "./wrapped-subject-keys";

/** Where keys move to when an installation's runtime.db keys go to a server store. */
export interface WrappedKeyImporter {
  /** Inserts each record unless its subject has a key already, then says what is stored for each subject (null: none). */
  importWrapped(records: WrappedKeyRecord[]): Promise<Map<string, string | null>>;
}

/**
 * Subject keys in the embedded runtime database (table `subject_keys`),
 * wrapped under the app secret (see WrappedSubjectKeyStore). The web processes
 * and the background process share the file (ARCHITECTURE §4 "Processes"):
 * cached keys are dropped whenever another connection has committed to it
 * (`PRAGMA data_version`), so a key forgotten by the purge in the background
 * process opens nothing in a web process from that moment on — an auditor
 * replaying the account right after the purge sees "(personal data erased)".
 */
export class SqliteSubjectKeyStore extends WrappedSubjectKeyStore {
  private readonly changedElsewhere: () => boolean;

  constructor(
    private readonly db: Database.Database,
    appSecret: string,
    options: WrappedSubjectKeyStoreOptions = {},
  ) {
    db.exec(`CREATE TABLE IF NOT EXISTS subject_keys (
      subject_id TEXT PRIMARY KEY, wrapped_key TEXT NOT NULL, created_at TEXT NOT NULL)`);
    super(sqliteRecords(db), appSecret, options);
    this.changedElsewhere = commitsElsewhere(db);
  }

  /** True when another connection committed to runtime.db since the last ask (this connection's own commits do not count). */
  protected override recordsChangedElsewhere(): boolean {
    return this.changedElsewhere();
  }

  /**
   * Refuses a runtime.db whose keys were wrapped under another app secret: started so, the app would
   * report ready while no one could sign in and no personal data could be read (issue 42, decision 248).
   */
  assertSecretOpensKeys(): void {
    const wrapped = this.db.prepare("SELECT wrapped_key FROM subject_keys LIMIT 1").pluck().get() as string | undefined;
    if (wrapped === undefined || this.opens(wrapped)) return;
    throw new Error(
      "APP_SECRET is not the secret this data folder was written under: its personal data could not be read and no one could sign in. " +
        "Start it with the secret of the installation it comes from (a backup is restored with `npm run restore`, which checks the secret first).",
    );
  }

  /** Every key as stored (wrapped), for copying to a server store. */
  exportWrapped(): WrappedKeyRecord[] {
    const rows = this.db.prepare("SELECT subject_id, wrapped_key, created_at FROM subject_keys ORDER BY subject_id").all() as {
      subject_id: string;
      wrapped_key: string;
      created_at: string;
    }[];
    return rows.map((row) => ({ subjectId: row.subject_id, wrappedKey: row.wrapped_key, createdAt: row.created_at }));
  }

  /**
   * Moves every key to `target` as it is stored (same app secret, same
   * wrapping) and deletes it here once `target` holds it — or holds nothing
   * for it any more (forgotten there meanwhile). A subject `target` has a
   * different key for stays here, listed in `kept`. It all happens under
   * runtime.db's write lock, so processes starting together move each key
   * once and a key is never copied back after being forgotten in `target`.
   */
  async moveTo(target: WrappedKeyImporter): Promise<{ moved: number; kept: string[] }> {
    this.db.exec("BEGIN IMMEDIATE");
    try {
      const records = this.exportWrapped();
      const stored = records.length === 0 ? new Map<string, string | null>() : await target.importWrapped(records);
      const remove = this.db.prepare("DELETE FROM subject_keys WHERE subject_id = ?");
      const kept: string[] = [];
      for (const { subjectId, wrappedKey } of records) {
        const there = stored.get(subjectId) ?? null;
        if (there === null || there === wrappedKey) remove.run(subjectId);
        else kept.push(subjectId);
      }
      this.db.exec("COMMIT");
      this.clearCache();
      return { moved: records.length - kept.length, kept };
    } catch (error) {
      if (this.db.inTransaction) this.db.exec("ROLLBACK");
      throw error;
    }
  }
}

function sqliteRecords(db: Database.Database): WrappedKeyRecords {
  const find = db.prepare("SELECT wrapped_key FROM subject_keys WHERE subject_id = ?").pluck();
  const insert = db.prepare("INSERT OR IGNORE INTO subject_keys (subject_id, wrapped_key, created_at) VALUES (?, ?, ?)");
  const remove = db.prepare("DELETE FROM subject_keys WHERE subject_id = ?");
  return {
    find: async (subjectId) => (find.get(subjectId) as string | undefined) ?? null,
    insertIfAbsent: async ({ subjectId, wrappedKey, createdAt }) => void insert.run(subjectId, wrappedKey, createdAt),
    remove: async (subjectId) => void remove.run(subjectId),
  };
}
