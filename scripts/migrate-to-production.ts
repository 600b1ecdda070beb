// Moves an embedded installation (DATA_DIR) onto the production servers:
//   1. every event of the SQLite log into EventStoreDB, in log order, with the
//      same event ids, stream versions and recording times;
//   2. every blob under DATA_DIR/blobs into the S3 bucket;
//   3. the per-user subject keys of DATA_DIR/runtime.db into MongoDB, wrapped
//      as they are (the production app reads them there, docs/decisions/041);
//   4. every read model rebuilt into MongoDB from the copied log;
//   5. with QDRANT_URL, every chunk of DATA_DIR/search.db into Qdrant, then
//      every vector of each embedding model's space.
// Stop the app first. Running it again before the stack is in use is safe:
// appends are idempotent by event id, blobs already in the bucket (same size),
// keys already in MongoDB, chunks (by chunk id) and vectors (by space and chunk
// id) are not copied twice. The installation itself is only read.
//
//   EVENTSTORE_URL=esdb://... MONGODB_URL=mongodb://... S3_BUCKET=... [S3_ENDPOINT=...] [QDRANT_URL=http://...] \
//   DATA_DIR=./data APP_SECRET=... npm run migrate:production
//
// Personal data stays sealed: events are copied as stored, and the keys that
// open it are copied wrapped under the same APP_SECRET.
import "reflect-metadata";
import { existsSync } from "node:fs";
import path from "node:path";
import { MongoClient } from "mongodb";
import type { RecordedEvent } from "#application/ports/event-store";
import { loadConfig } from "#infrastructure/config/config";
import { LocalBlobStore } from "#infrastructure/embedded/local-blob-store";
import { rebuildProjections } from "#infrastructure/embedded/projection-runner";
import { openDatabase } from "#infrastructure/embedded/sqlite/open-database";
import { SqliteEventStore } from "#infrastructure/embedded/sqlite/sqlite-event-store";
import { SqliteSearchIndex } from "#infrastructure/embedded/sqlite/sqlite-search-index";
import { EventStoreDbEventStore } from "#infrastructure/production/eventstoredb-event-store";
import { MongoReadModelStore, readModelDatabase } from "#infrastructure/production/mongodb-read-model-store";
import { MongoSubjectKeyStore } from "#infrastructure/production/mongodb-subject-key-store";
import { QdrantSearchIndex } from "#infrastructure/production/qdrant-search-index";
import { S3BlobStore } from "#infrastructure/production/s3-blob-store";
import { PersonalDataEventStore } from "#infrastructure/security/personal-data-event-store";
import { SqliteSubjectKeyStore } from "#infrastructure/security/sqlite-subject-key-store";
import { allProjectors } from "#projections/index";

const BATCH = 500;

const config = loadConfig();
const env = config.raw;
const missing = [
  ["EVENTSTORE_URL", env.EVENTSTORE_URL],
  ["MONGODB_URL", env.MONGODB_URL],
  ["S3_BUCKET", env.S3_BUCKET],
].filter(([, value]) => !value);
if (missing.length > 0) {
  console.error(`Set ${missing.map(([name]) => name).join(", ")}: the servers to migrate to (see docker/.env.example).`);
  process.exit(1);
}

const file = (name: string) => path.join(config.dataDir, name);
const eventsDb = openDatabase(file("events.db"));
const runtimeDb = openDatabase(file("runtime.db"));
const source = new SqliteEventStore(eventsDb);
const target = await EventStoreDbEventStore.fromConnectionString(env.EVENTSTORE_URL!);
const mongo = await MongoClient.connect(env.MONGODB_URL!);
const readModels = new MongoReadModelStore(mongo);
const subjectKeys = new MongoSubjectKeyStore(readModelDatabase(mongo), config.appSecret);
const blobsFrom = new LocalBlobStore(file("blobs"));
const blobsTo = await S3BlobStore.create({ bucket: env.S3_BUCKET!, endpoint: env.S3_ENDPOINT, region: env.S3_REGION });

try {
  // 1. Events, in global order. Consecutive events of one stream go in one append.
  const started = Date.now();
  let copied = 0;
  let position = 0;
  for (;;) {
    const batch = await source.readAll(position, BATCH);
    if (batch.length === 0) break;
    let run: RecordedEvent[] = [];
    const flush = async () => {
      if (run.length === 0) return;
      const result = await target.importRecorded(run);
      const last = run[run.length - 1];
      if (result.nextExpectedVersion !== last.streamVersion) {
        throw new Error(`${last.streamId}: EventStoreDB is at version ${result.nextExpectedVersion}, the embedded log at ${last.streamVersion}`);
      }
      copied += run.length;
      run = [];
    };
    for (const event of batch) {
      if (run.length > 0 && run[0].streamId !== event.streamId) await flush();
      run.push(event);
    }
    await flush();
    position = batch[batch.length - 1].position;
    console.log(`events: ${copied} copied (embedded position ${position})`);
  }
  console.log(`events: ${copied} copied in ${((Date.now() - started) / 1000).toFixed(1)} s`);

  // 2. Blobs.
  let uploaded = 0;
  let skipped = 0;
  for (const info of await blobsFrom.list("")) {
    const existing = await blobsTo.head(info.key);
    if (existing && existing.size === info.size) {
      skipped += 1;
      continue;
    }
    const blob = await blobsFrom.get(info.key);
    if (!blob) continue;
    await blobsTo.put(info.key, blob.body, { contentType: blob.contentType, metadata: blob.metadata });
    uploaded += 1;
  }
  console.log(`blobs: ${uploaded} uploaded, ${skipped} already there`);

  // 3. Subject keys, copied wrapped; runtime.db keeps them (the installation stays usable).
  const keys = new SqliteSubjectKeyStore(runtimeDb, config.appSecret).exportWrapped();
  const stored = keys.length > 0 ? await subjectKeys.importWrapped(keys) : new Map<string, string | null>();
  const differing = keys.filter((k) => stored.get(k.subjectId) !== k.wrappedKey).map((k) => k.subjectId);
  console.log(`subject keys: ${keys.length - differing.length} in MongoDB`);
  if (differing.length > 0) {
    console.warn(`subject keys: MongoDB already holds other keys for ${differing.length} subjects (${differing.slice(0, 5).join(", ")}…); it keeps them`);
  }

  // 4. Read models, rebuilt from the copied log (personal data opened with the keys now in MongoDB).
  const { events, ms } = await rebuildProjections(new PersonalDataEventStore(target, subjectKeys), readModels, allProjectors);
  console.log(`read models: ${allProjectors.length} projections rebuilt in MongoDB (${readModels.databaseName}) from ${events} events in ${Math.round(ms)} ms`);

  // 5. Search chunks, with their vectors.
  if (env.QDRANT_URL && existsSync(file("search.db"))) {
    const searchDb = openDatabase(file("search.db"));
    try {
      const qdrant = new QdrantSearchIndex({ url: env.QDRANT_URL, apiKey: env.QDRANT_API_KEY, collection: env.QDRANT_COLLECTION });
      const embedded = new SqliteSearchIndex(searchDb);
      let chunks = 0;
      for (const batch of embedded.allChunks()) {
        await qdrant.upsert(batch);
        chunks += batch.length;
      }
      // After the chunks: upserting a chunk drops its vectors, and a vector needs its chunk there.
      const vectors = new Map<string, number>();
      for (const { space, vectors: batch } of embedded.allVectors()) {
        await qdrant.upsertVectors(space, batch);
        vectors.set(space, (vectors.get(space) ?? 0) + batch.length);
      }
      const spaces = [...vectors].map(([space, n]) => `${n} in ${space}`).join(", ");
      console.log(`search: ${chunks} chunks copied into Qdrant (${qdrant.collection}), vectors: ${spaces || "none"}`);
    } finally {
      searchDb.close();
    }
  } else if (!env.QDRANT_URL) {
    console.log("search: QDRANT_URL is not set; copy DATA_DIR/search.db into the app's data directory to keep the search index");
  }
} finally {
  await source.close();
  await target.close();
  await readModels.close();
  await mongo.close();
  eventsDb.close();
  runtimeDb.close();
}
