import { hkdfSync, randomBytes } from "node:crypto";
import type { SubjectKeyStore } from "#application/ports/personal-data";
import { openWith, sealWith } from "./sealing";

/** One subject's key as stored: wrapped, never in clear. */
export interface WrappedKeyRecord {
  subjectId: string;
  /** The key sealed (AES-256-GCM) under the key-encryption key. */
  wrappedKey: string;
  /** ISO 8601. */
  createdAt: string;
}

/** Where a SubjectKeyStore keeps its wrapped keys: one record per subject, written once. */
export interface WrappedKeyRecords {
  find(subjectId: string): Promise<string | null>;
  /** Stores the record unless the subject has a key already; then the stored one stays (insert-or-ignore). */
  insertIfAbsent(record: WrappedKeyRecord): Promise<void>;
  remove(subjectId: string): Promise<void>;
}

export interface WrappedSubjectKeyStoreOptions {
  /**
   * How long a key read from the records is reused without reading again.
   * A key forgotten by another process is still served here for up to this
   * long; a store alone in its process may cache forever.
   */
  cacheMs?: number;
}

/**
 * Crypto-shredding keys (docs/decisions/006, 041): 32 random bytes per subject,
 * wrapped under a key-encryption key derived (HKDF-SHA-256) from the app
 * secret, so a copy of the records alone opens nothing. The one wrapping and
 * creation logic for every storage: SQLite's runtime.db, MongoDB.
 *
 * First use is insert-or-ignore then read back, so concurrent first uses (in
 * one process or many) all end up with the key that was stored first.
 * Forgetting removes the record.
 */
export class WrappedSubjectKeyStore implements SubjectKeyStore {
  private readonly kek: Buffer;
  private readonly cache = new Map<string, { key: Buffer; until: number }>();
  private readonly cacheMs: number;

  constructor(
    private readonly records: WrappedKeyRecords,
    appSecret: string,
    options: WrappedSubjectKeyStoreOptions = {},
  ) {
    this.kek = Buffer.from(hkdfSync("sha256", appSecret, "docuchat", "subject-key-encryption", 32));
    this.cacheMs = options.cacheMs ?? Number.POSITIVE_INFINITY;
  }

  async keyFor(subjectId: string, options: { create: boolean }): Promise<Buffer | null> {
    if (this.recordsChangedElsewhere()) this.cache.clear();
    const cached = this.cache.get(subjectId);
    if (cached && cached.until > Date.now()) return cached.key;
    const wrapped = await this.records.find(subjectId);
    if (wrapped !== null) return this.remember(subjectId, wrapped);
    if (!options.create) return null;
    await this.records.insertIfAbsent({ subjectId, wrappedKey: sealWith(this.kek, randomBytes(32)), createdAt: new Date().toISOString() });
    const stored = await this.records.find(subjectId);
    // Only a forget racing this very first use gets here.
    if (stored === null) throw new Error(`The key of subject ${subjectId} was forgotten while it was being created`);
    return this.remember(subjectId, stored);
  }

  /**
   * Whether the app secret opens `wrapped`, a key as stored: a data folder written under another
   * secret (a backup unpacked by hand, a changed APP_SECRET) opens none of its keys.
   */
  protected opens(wrapped: string): boolean {
    try {
      openWith(this.kek, wrapped);
      return true;
    } catch {
      return false;
    }
  }

  async forget(subjectId: string): Promise<void> {
    this.cache.delete(subjectId);
    await this.records.remove(subjectId);
  }

  /**
   * Whether another process may have changed the records since this was last
   * asked; when it says so, every cached key is read again. A storage that
   * cannot tell says no and relies on `cacheMs`.
   */
  protected recordsChangedElsewhere(): boolean {
    return false;
  }

  /** Drops every cached key (records changed behind this store's back). */
  protected clearCache(): void {
    this.cache.clear();
  }

  private remember(subjectId: string, wrapped: string): Buffer {
    const key = openWith(this.kek, wrapped);
    this.cache.set(subjectId, { key, until: Date.now() + this.cacheMs });
    return key;
  }
}
