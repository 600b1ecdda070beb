// `npm run backup -- <file>`: a consistent, compressed snapshot of an embedded
// installation (DATA_DIR), taken while the app serves (issue 32). The
// production stack is backed up with each server's own tool (README).
import { loadConfig } from "#infrastructure/config/config";
import { takeBackup } from "#infrastructure/embedded/backup/embedded-backup";

const file = process.argv[2];
if (!file) {
  console.error("Usage: npm run backup -- <file.tar.gz>");
  process.exit(2);
}
const config = loadConfig();
const { eventStore, readModels, search, blobs } = config.adapters;
const servers = Object.entries({ eventStore, readModels, search, blobs }).filter(([, adapter]) => adapter !== "sqlite" && adapter !== "local");
if (servers.length > 0) {
  console.error(`Not an embedded installation (${servers.map(([port, adapter]) => `${port}: ${adapter}`).join(", ")}): back those servers up with their own tools (README, "Backing up").`);
  process.exit(1);
}
const started = Date.now();
const manifest = await takeBackup(config.dataDir, file, config.appSecret);
const bytes = manifest.files.reduce((sum, f) => sum + f.bytes, 0);
const secret = manifest.secret?.generated ? `the generated secret in ${config.dataDir}/app-secret` : "APP_SECRET";
console.log(`Backed up ${manifest.files.length} files (${(bytes / 1e6).toFixed(1)} MB before compression) up to event ${manifest.eventLogPosition} into ${file} in ${Date.now() - started} ms.`);
// The archive does not hold it (decision 251): it is the one thing a restore needs from elsewhere.
console.log(`A restore needs ${secret}, which the archive does not hold: keep a copy apart from the backups.`);
