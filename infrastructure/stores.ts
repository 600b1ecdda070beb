import path from "node:path";
import type Database from "better-sqlite3";
import type { BlobStore } from "#application/ports/blob-store";
import type { EventStore } from "#application/ports/event-store";
import type { ReadModelStore } from "#application/ports/read-model-store";
import type { AppConfig } from "./config/config";
import { EventStoreDbEventStore } from "./production/eventstoredb-event-store";
import { MongoReadModelStore } from "./production/mongodb-read-model-store";
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
 * `runtime.db` (sessions, rate limits, subject keys, dev mailbox) and
 * `workflows.db` (the embedded runner) always live in DATA_DIR.
 */
export async function openStores(config: StoreConfig) {
  const file = (name: string) => path.join(config.dataDir, name);
  const databases: Database.Database[] = [];
  const sqlite = (name: string) => {
    const db = openDatabase(file(name));
    databases.push(db);
    return db;
  };
  const runtimeDb = sqlite("runtime.db");
  const workflowsDb = sqlite("workflows.db");
  const subjectKeys = new SqliteSubjectKeyStore(runtimeDb, config.appSecret);

  const log: EventStore =
    config.adapters.eventStore === "eventstoredb"
      ? EventStoreDbEventStore.fromConnectionString(config.raw.EVENTSTORE_URL!)
      : new SqliteEventStore(sqlite("events.db"));
  // Personal data is sealed per user before it reaches the log (crypto-shredding).
  const eventStore: EventStore = new PersonalDataEventStore(log, subjectKeys);

  const readModels: ReadModelStore =
    config.adapters.readModels === "mongodb"
      ? await MongoReadModelStore.connect(config.raw.MONGODB_URL!)
      : new SqliteReadModelStore(sqlite("read-models.db"));

  const blobs: BlobStore =
    config.adapters.blobs === "s3"
      ? S3BlobStore.create({
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
    async close() {
      await eventStore.close();
      await readModels.close();
      for (const db of databases) if (db.open) db.close();
    },
  };
}

export type Stores = Awaited<ReturnType<typeof openStores>>;
