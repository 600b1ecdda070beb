import type { Collection, Db } from "mongodb";
import type { WrappedKeyImporter } from "#infrastructure/security/sqlite-subject-key-store";
import {
  type WrappedKeyRecord,
  type WrappedKeyRecords,
  WrappedSubjectKeyStore,
  type WrappedSubjectKeyStoreOptions,
} from "#infrastructure/security/wrapped-subject-keys";

/**
 * The collection, in the read models' database. Its name starts with "_",
 * outside the read-model store's names (lower-case letter first), so no
 * projection can claim it and no rebuild or prefix drop can remove it: these
 * keys are not rebuilt from the log, losing them loses personal data.
 */
export const SUBJECT_KEYS_COLLECTION = "_subject_keys";

/** How long a process reuses a key it read (another process may forget it meanwhile). */
const DEFAULT_CACHE_MS = 10_000;
const BATCH = 500;

interface SubjectKeyDocument {
  /** The subject id: unique, so concurrent first uses insert one key. */
  _id: string;
  wrappedKey: string;
  createdAt: Date;
}

/**
 * Subject keys on MongoDB (docs/decisions/041), used when the read models are
 * there (`MONGODB_URL`): every process of the stack (app, worker) sees the
 * same keys, and forgetting in one is seen by all (after at most `cacheMs`).
 * Wrapped exactly like the embedded store's (WrappedSubjectKeyStore), so keys
 * move between them as they are.
 */
export class MongoSubjectKeyStore extends WrappedSubjectKeyStore implements WrappedKeyImporter {
  private readonly keys: Collection<SubjectKeyDocument>;

  constructor(db: Db, appSecret: string, options: WrappedSubjectKeyStoreOptions = {}) {
    const keys = db.collection<SubjectKeyDocument>(SUBJECT_KEYS_COLLECTION);
    super(mongoRecords(keys), appSecret, { cacheMs: options.cacheMs ?? DEFAULT_CACHE_MS });
    this.keys = keys;
  }

  async importWrapped(records: WrappedKeyRecord[]): Promise<Map<string, string | null>> {
    const stored = new Map<string, string | null>();
    for (let i = 0; i < records.length; i += BATCH) {
      const batch = records.slice(i, i + BATCH);
      try {
        await this.keys.insertMany(
          batch.map((r) => ({ _id: r.subjectId, wrappedKey: r.wrappedKey, createdAt: new Date(r.createdAt) })),
          { ordered: false },
        );
      } catch (error) {
        if (!onlyDuplicates(error)) throw error;
      }
      const ids = batch.map((r) => r.subjectId);
      for (const id of ids) stored.set(id, null);
      for await (const doc of this.keys.find({ _id: { $in: ids } }, { projection: { wrappedKey: 1 } })) stored.set(doc._id, doc.wrappedKey);
    }
    return stored;
  }
}

function mongoRecords(keys: Collection<SubjectKeyDocument>): WrappedKeyRecords {
  return {
    async find(subjectId) {
      const doc = await keys.findOne({ _id: subjectId }, { projection: { wrappedKey: 1 } });
      return doc?.wrappedKey ?? null;
    },
    async insertIfAbsent({ subjectId, wrappedKey, createdAt }) {
      try {
        await keys.insertOne({ _id: subjectId, wrappedKey, createdAt: new Date(createdAt) });
      } catch (error) {
        // E11000: the subject has a key already (another first use won); the stored one stays.
        if (!onlyDuplicates(error)) throw error;
      }
    },
    async remove(subjectId) {
      await keys.deleteOne({ _id: subjectId });
    },
  };
}

/** A duplicate-key error (E11000), or a bulk write whose every failure is one. */
function onlyDuplicates(error: unknown): boolean {
  const e = error as { code?: number; writeErrors?: { code?: number }[] | { code?: number } };
  if (e?.writeErrors !== undefined) {
    const list = Array.isArray(e.writeErrors) ? e.writeErrors : [e.writeErrors];
    return list.length > 0 && list.every((w) => w.code === 11000);
  }
  return e?.code === 11000;
}
