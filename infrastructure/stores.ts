import path from "node:path";
import type Database from "better-sqlite3";
import type { Logger } from "pino";
import type { BlobStore } from "#application/ports/blob-store";
import type { EventStore } from "#application/ports/event-store";
import type { SubjectKeyStore } from "#application/ports/personal-data";
import type { ReadModelStore } from "#application/ports/read-model-store";
import type { AppConfig } from "./config/config";
import { EventStoreDbEventStore } from "./production/eventstoredb-event-store";
import { MongoReadModelStore, readModelDatabase } from "./production/mongodb-read-model-store";
import { MongoSubjectKeyStore } from "./production/mongodb-subject-key-store";
import { S3BlobStore } from "./production/s3-blob-store";
import { PersonalDataEventStore } from "./security/personal-data-event-store";
import { SqliteSubjectKeyStore } from "./security/sqlite-subject-key-store";
import { LocalBlobStore } from "./embedded/local-blob-store";
import { openDatabase } from "./embedded/sqlite/open-database";
import { SqliteEventStore } from "./embedded/sqlite/sqlite-event-store";
import { SqliteReadModelStore } from "./embedded/sqlite/sqlite-read-model-store";

type StoreConfig = Pick<AppConfig, "dataDir" | "appSecret" | "adapters" | "raw">;

/**
 * The stores, each on the adapter its variable selects (ARCHITECTURE §4),
 * opened the same way by the app and by command-line tools (rebuild, audit,
 * worker). Embedded, the event log and the read models are separate SQLite
 * files: an append must never join a projector's open transaction.
 * `runtime.db` (sessions, rate limits, dev mailbox) and `workflows.db` (the
 * embedded runner) always live in DATA_DIR. The crypto-shredding subject keys
 * live beside the read models: in `runtime.db`, or in MongoDB with
 * `MONGODB_URL`, where every process of the stack (app, worker) shares them;
 * keys an installation had in `runtime.db` move there on start-up
 * (docs/decisions/041).
 */
export async function openStores(config: StoreConfig, options: { logger?: Logger } = {}) {
  const file = (name: string) => path.join(config.dataDir, name);
  const databases: Database.Database[] = [];
  const sqlite = (name: string) => {
    const db = openDatabase(file(name));
    databases.push(db);
    return db;
  };
  const runtimeDb = sqlite("runtime.db");
  const workflowsDb = sqlite("workflows.db");

  // One client for the read models and the subject keys.
  // Each production adapter's client library is imported only when its variable selects it (decision 253).
  const mongo = config.adapters.readModels === "mongodb" ? await (await import("mongodb")).MongoClient.connect(config.raw.MONGODB_URL!) : null;
  const readModels: ReadModelStore = mongo ? new MongoReadModelStore(mongo) : new SqliteReadModelStore(sqlite("read-models.db"));
  const localKeys = new SqliteSubjectKeyStore(runtimeDb, config.appSecret);
  try {
    localKeys.assertSecretOpensKeys();
  } catch (error) {
    for (const db of databases) db.close();
    throw error;
  }
  let subjectKeys: SubjectKeyStore = localKeys;
  if (mongo) {
    const sharedKeys = new MongoSubjectKeyStore(readModelDatabase(mongo), config.appSecret);
    const { moved, kept } = await localKeys.moveTo(sharedKeys);
    if (moved > 0) options.logger?.info({ moved }, "subject keys moved from runtime.db to MongoDB");
    if (kept.length > 0) {
      options.logger?.warn({ subjects: kept }, "runtime.db holds subject keys that differ from MongoDB's for the same subjects; they stay in runtime.db, unused");
    }
    subjectKeys = sharedKeys;
  }

  const log: EventStore =
    config.adapters.eventStore === "eventstoredb"
      ? await EventStoreDbEventStore.fromConnectionString(config.raw.EVENTSTORE_URL!)
      : new SqliteEventStore(sqlite("events.db"));
  // Personal data is sealed per user before it reaches the log (crypto-shredding).
  const eventStore: EventStore = new PersonalDataEventStore(log, subjectKeys);

  const blobs: BlobStore =
    config.adapters.blobs === "s3"
      ? await S3BlobStore.create({
          bucket: config.raw.S3_BUCKET!,
          endpoint: config.raw.S3_ENDPOINT,
          region: config.raw.S3_REGION,
          publicEndpoint: config.raw.S3_PUBLIC_ENDPOINT,
        })
      : new LocalBlobStore(file("blobs"));

  return {
    eventStore,
    readModels,
    blobs,
    subjectKeys,
    runtimeDb,
    workflowsDb,
    /** Every embedded SQLite database opened here (compacted after a purge). */
    sqliteDatabases: databases,
    async close() {
      await eventStore.close();
      await readModels.close();
      await mongo?.close();
      for (const db of databases) if (db.open) db.close();
    },
  };
}

export type Stores = Awaited<ReturnType<typeof openStores>>;
