import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import type Database from "better-sqlite3";
import type { SubjectKeyStore } from "#application/ports/personal-data";

/**
 * Subject keys in the embedded runtime database, themselves wrapped (AES-256-GCM)
 * under a key-encryption key derived from the app secret, so a copy of the
 * database alone does not decrypt the log. Forgetting deletes the row.
 */
export class SqliteSubjectKeyStore implements SubjectKeyStore {
  private readonly kek: Buffer;
  private readonly cache = new Map<string, Buffer>();

  constructor(
    private readonly db: Database.Database,
    appSecret: string,
  ) {
    this.kek = Buffer.from(hkdfSync("sha256", appSecret, "docuchat", "subject-key-encryption", 32));
    db.exec(`CREATE TABLE IF NOT EXISTS subject_keys (
      subject_id TEXT PRIMARY KEY, wrapped_key TEXT NOT NULL, created_at TEXT NOT NULL)`);
  }

  async keyFor(subjectId: string, options: { create: boolean }): Promise<Buffer | null> {
    const cached = this.cache.get(subjectId);
    if (cached) return cached;
    const row = this.db.prepare(`SELECT wrapped_key FROM subject_keys WHERE subject_id = ?`).get(subjectId) as
      | { wrapped_key: string }
      | undefined;
    if (row) return this.remember(subjectId, this.unwrap(row.wrapped_key));
    if (!options.create) return null;
    const key = randomBytes(32);
    // INSERT OR IGNORE + re-read: two concurrent first uses end up with one key.
    this.db
      .prepare(`INSERT OR IGNORE INTO subject_keys (subject_id, wrapped_key, created_at) VALUES (?, ?, ?)`)
      .run(subjectId, this.wrap(key), new Date().toISOString());
    const stored = this.db.prepare(`SELECT wrapped_key FROM subject_keys WHERE subject_id = ?`).get(subjectId) as {
      wrapped_key: string;
    };
    return this.remember(subjectId, this.unwrap(stored.wrapped_key));
  }

  async forget(subjectId: string): Promise<void> {
    this.cache.delete(subjectId);
    this.db.prepare(`DELETE FROM subject_keys WHERE subject_id = ?`).run(subjectId);
  }

  private remember(subjectId: string, key: Buffer) {
    this.cache.set(subjectId, key);
    return key;
  }

  private wrap(key: Buffer): string {
    return sealWith(this.kek, key);
  }

  private unwrap(wrapped: string): Buffer {
    return openWith(this.kek, wrapped);
  }
}

/** AES-256-GCM: "v1.<iv>.<ciphertext>.<tag>" in base64url. */
export function sealWith(key: Buffer, plaintext: Buffer): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  const body = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return ["v1", iv, body, cipher.getAuthTag()].map((p) => (typeof p === "string" ? p : p.toString("base64url"))).join(".");
}

export function openWith(key: Buffer, sealed: string): Buffer {
  const [version, iv, body, tag] = sealed.split(".");
  if (version !== "v1" || !iv || body === undefined || !tag) throw new Error("Unknown sealed value format");
  const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"));
  decipher.setAuthTag(Buffer.from(tag, "base64url"));
  return Buffer.concat([decipher.update(Buffer.from(body, "base64url")), decipher.final()]);
}
