// Rebuilds every read model from position 0 of the event log.
// Stop the app first: a running app would keep projecting into the same tables.
import "reflect-metadata";
import path from "node:path";
import { loadConfig } from "#infrastructure/config/config";
import { openDatabase } from "#infrastructure/embedded/sqlite/open-database";
import { SqliteEventStore } from "#infrastructure/embedded/sqlite/sqlite-event-store";
import { SqliteReadModelStore } from "#infrastructure/embedded/sqlite/sqlite-read-model-store";
import { rebuildProjections } from "#infrastructure/embedded/projection-runner";
import { allProjectors } from "#projections/index";

const config = loadConfig();
const eventStore = new SqliteEventStore(openDatabase(path.join(config.dataDir, "events.db")));
const readModels = new SqliteReadModelStore(openDatabase(path.join(config.dataDir, "read-models.db")));
const { events, ms } = await rebuildProjections(eventStore, readModels, allProjectors);
console.log(`Rebuilt ${allProjectors.length} projections from ${events} events in ${ms} ms (${config.dataDir}).`);
await eventStore.close();
await readModels.close();
