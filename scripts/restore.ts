// `npm run restore -- <file>`: restores a backup (`npm run backup`) into an
// empty DATA_DIR, checks every file against the manifest's checksums, and
// rebuilds the read models where the backup cannot vouch for them (issue 32).
import "reflect-metadata";
import path from "node:path";
import { loadConfig } from "#infrastructure/config/config";
import { restoreBackup } from "#infrastructure/embedded/backup/embedded-backup";
import { CHECKPOINT_COLLECTION, type ProjectionCheckpoint, rebuildProjections } from "#infrastructure/embedded/projection-runner";
import { openStores } from "#infrastructure/stores";
import { allProjectors } from "#projections/index";

const file = process.argv[2];
if (!file) {
  console.error("Usage: APP_SECRET=<the secret the backup was taken under> DATA_DIR=<empty folder> npm run restore -- <file.tar.gz>");
  process.exit(2);
}
const dataDir = path.resolve(process.env.DATA_DIR ?? "./data");
const manifest = await restoreBackup(file, dataDir, process.env.APP_SECRET).catch((error: unknown) => {
  console.error(`Cannot restore: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
console.log(`Restored ${manifest.files.length} files up to event ${manifest.eventLogPosition} (backup of ${manifest.createdAt}) into ${dataDir}; every checksum matches.`);

// Loaded after the restore: without APP_SECRET the configuration reads the restored app-secret file.
const config = loadConfig({ ...process.env, DATA_DIR: dataDir });
const stores = await openStores({ ...config, adapters: { ...config.adapters, eventStore: "sqlite", readModels: "sqlite", blobs: "local" } });
try {
  const head = await stores.eventStore.headPosition();
  const checkpoints = stores.readModels.collection<ProjectionCheckpoint>(CHECKPOINT_COLLECTION);
  const positions = await Promise.all(allProjectors.map(async (p) => (await checkpoints.get(p.name))?.position ?? 0));
  const hadReadModels = manifest.files.some((f) => f.path === "read-models.db");
  // A read model ahead of the log would show what the restored log never recorded: rebuild from the log then.
  if (!hadReadModels || positions.some((position) => position > head)) {
    const rebuilt = await rebuildProjections(stores.eventStore, stores.readModels, allProjectors);
    console.log(`Rebuilt the read models from ${rebuilt.events} events.`);
  } else {
    console.log(`The read models are at or behind the log (${Math.min(...positions)}..${Math.max(...positions)} of ${head}); the projectors catch up when the app starts.`);
  }
} finally {
  await stores.close();
}
