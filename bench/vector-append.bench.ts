/**
 * What appending a batch of vectors to a document costs in the embedded
 * search index (decision 170), as a document embeds in the background: bytes
 * written to the WAL and time per batch, early and late in a large document,
 * beside a bare table holding one row per vector (the layout before decision
 * 170) written with the same batches in the same run. Not a test.
 *
 *   npx tsx bench/vector-append.bench.ts
 *
 * One document of 2,000 chunks with 512-d vectors (4 MB of vectors), embedded
 * in batches of 64 (the embedding indexer's batch).
 */
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { openDatabase } from "#infrastructure/embedded/sqlite/open-database";
import { SqliteSearchIndex } from "#infrastructure/embedded/sqlite/sqlite-search-index";

const CHUNKS = 2_000;
const DIMENSIONS = 512;
const BATCH = 64;

const dir = mkdtempSync(join(tmpdir(), "docuchat-vector-append-bench-"));
try {
  const file = join(dir, "search.db");
  const db = openDatabase(file);
  db.pragma("wal_autocheckpoint = 0");
  const index = new SqliteSearchIndex(db);
  db.exec("CREATE TABLE bare_vectors (id INTEGER PRIMARY KEY, document_id TEXT NOT NULL, vector BLOB NOT NULL)");
  const bareInsert = db.prepare("INSERT INTO bare_vectors (document_id, vector) VALUES (?, ?)");
  const bareAppend = db.transaction((vectors: number[][]) => {
    for (const v of vectors) bareInsert.run("doc", Buffer.from(Float32Array.from(v).buffer));
  });

  const chunks = Array.from({ length: CHUNKS }, (_, i) => ({
    chunkId: `doc:${i}`,
    documentId: "doc",
    ownerId: "owner",
    pageNumber: 1 + Math.floor(i / 2),
    ordinal: i,
    text: `chunk ${i}`,
    blockIds: [],
  }));
  await index.upsert(chunks);

  /** WAL bytes and milliseconds one write costs, the WAL emptied before it. */
  const cost = (write: () => unknown) => {
    db.pragma("wal_checkpoint(TRUNCATE)");
    const started = performance.now();
    write();
    const ms = performance.now() - started;
    return { bytes: statSync(`${file}-wal`).size, ms };
  };

  const rows: { batch: number; ours: { bytes: number; ms: number }; bare: { bytes: number; ms: number } }[] = [];
  for (let start = 0, batch = 1; start < CHUNKS; start += BATCH, batch++) {
    const vectors = chunks.slice(start, start + BATCH).map(() => Array.from({ length: DIMENSIONS }, () => Math.random() * 2 - 1));
    // upsertVectors is synchronous underneath (better-sqlite3); the promise only wraps it.
    const ours = cost(() => index.upsertVectors("bench/m", vectors.map((vector, i) => ({ chunkId: `doc:${start + i}`, documentId: "doc", vector }))));
    const bare = cost(() => bareAppend(vectors));
    rows.push({ batch, ours, bare });
  }
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} KB`;
  console.log(`one document, ${CHUNKS} chunks × ${DIMENSIONS}-d vectors (${kb(CHUNKS * DIMENSIONS * 4)}), batches of ${BATCH}`);
  for (const { batch, ours, bare } of rows.filter((_, i) => i < 3 || i >= rows.length - 3)) {
    console.log(
      `  batch ${String(batch).padStart(2)}: segments ${kb(ours.bytes).padStart(7)} ${ours.ms.toFixed(2).padStart(6)} ms` +
        `   row per vector ${kb(bare.bytes).padStart(7)} ${bare.ms.toFixed(2).padStart(6)} ms   (WAL bytes ${(ours.bytes / bare.bytes).toFixed(2)}×)`,
    );
  }
  const median = (values: number[]) => values.sort((x, y) => x - y)[Math.floor(values.length / 2)];
  const oursMs = median(rows.map((r) => r.ours.ms));
  const bareMs = median(rows.map((r) => r.bare.ms));
  console.log(`  median time per batch: segments ${oursMs.toFixed(2)} ms, row per vector ${bareMs.toFixed(2)} ms (${(oursMs / bareMs).toFixed(2)}×)`);
  const most = rows.reduce((a, b) => (b.ours.bytes > a.ours.bytes ? b : a));
  console.log(`  largest batch write: ${kb(most.ours.bytes)} (batch ${most.batch}), beside ${kb(most.bare.bytes)} for one row per vector`);
  console.log(`load average (1, 5, 15 min): ${loadavg().map((l) => l.toFixed(2)).join(", ")}`);
  db.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
