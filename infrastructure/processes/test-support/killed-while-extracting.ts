/**
 * Child process of tests/integration/extraction-lock.test.ts, which SIGKILLs it: a background
 * process extracting a document (its lock taken in the data folder's runtime.db) with a tool of
 * its own that outlives it, as one started without a parent-death signal would.
 */
import { spawn } from "node:child_process";
import path from "node:path";
import { openDatabase } from "#infrastructure/embedded/sqlite/open-database";
import { SqliteExtractionLocks } from "#infrastructure/processes/extraction-locks";

const [dataDir, documentId] = process.argv.slice(2);
const locks = new SqliteExtractionLocks(openDatabase(path.join(dataDir!, "runtime.db")));
await locks.holding(documentId!, async () => {
  const tool = spawn("sleep", ["600"], { stdio: "ignore", detached: true });
  console.log(`extracting with ${tool.pid}`);
  await new Promise(() => undefined);
});
