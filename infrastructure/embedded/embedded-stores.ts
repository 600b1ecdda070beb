import path from "node:path";
import type Database from "better-sqlite3";
import type { EventStore } from "#application/ports/event-store";
import type { ReadModelStore } from "#application/ports/read-model-store";
import type { AppConfig } from "../config/config";
import { PersonalDataEventStore } from "../security/personal-data-event-store";
import { SqliteSubjectKeyStore } from "../security/sqlite-subject-key-store";
import { openDatabase } from "./sqlite/open-database";
import { SqliteEventStore } from "./sqlite/sqlite-event-store";
import { SqliteReadModelStore } from "./sqlite/sqlite-read-model-store";

/**
 * The embedded databases under DATA_DIR, opened the same way by the app and by
 * command-line tools (rebuild, audit). The event store and the read models are
 * separate files: an append must never join a projector's open transaction.
 */
export function openEmbeddedStores(config: Pick<AppConfig, "dataDir" | "appSecret">) {
  const file = (name: string) => path.join(config.dataDir, name);
  const eventsDb = openDatabase(file("events.db"));
  const readModelsDb = openDatabase(file("read-models.db"));
  const runtimeDb = openDatabase(file("runtime.db"));
  const workflowsDb = openDatabase(file("workflows.db"));
  const subjectKeys = new SqliteSubjectKeyStore(runtimeDb, config.appSecret);
  // Personal data is sealed per user before it reaches the log (crypto-shredding).
  const eventStore: EventStore = new PersonalDataEventStore(new SqliteEventStore(eventsDb), subjectKeys);
  const readModels: ReadModelStore = new SqliteReadModelStore(readModelsDb);
  const databases: Database.Database[] = [eventsDb, readModelsDb, runtimeDb, workflowsDb];
  return {
    eventStore,
    readModels,
    subjectKeys,
    runtimeDb,
    workflowsDb,
    blobRoot: file("blobs"),
    async close() {
      await eventStore.close();
      await readModels.close();
      for (const db of databases) if (db.open) db.close();
    },
  };
}
