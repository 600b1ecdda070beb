// Rebuilds every read model from position 0 of the event log.
// Stop the app first: a running app would keep projecting into the same tables.
import "reflect-metadata";
import { loadConfig } from "#infrastructure/config/config";
import { openEmbeddedStores } from "#infrastructure/embedded/embedded-stores";
import { rebuildProjections } from "#infrastructure/embedded/projection-runner";
import { allProjectors } from "#projections/index";

const config = loadConfig();
const stores = openEmbeddedStores(config);
const { events, ms } = await rebuildProjections(stores.eventStore, stores.readModels, allProjectors);
console.log(`Rebuilt ${allProjectors.length} projections from ${events} events in ${ms} ms (${config.dataDir}).`);
await stores.close();
