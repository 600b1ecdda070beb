// Rebuilds every read model from position 0 of the event log, on whichever
// adapters the environment selects. Stop the app first: a running app would
// keep projecting into the same read models.
import "reflect-metadata";
import { loadConfig } from "#infrastructure/config/config";
import { rebuildProjections } from "#infrastructure/embedded/projection-runner";
import { openStores } from "#infrastructure/stores";
import { allProjectors } from "#projections/index";

const config = loadConfig();
const stores = await openStores(config);
const { events, ms } = await rebuildProjections(stores.eventStore, stores.readModels, allProjectors);
console.log(`Rebuilt ${allProjectors.length} projections from ${events} events in ${ms} ms.`);
await stores.close();
