import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { createReadStream, existsSync } from "node:fs";
import { cp, mkdir, mkdtemp, readdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import Database from "better-sqlite3";

const run = promisify(execFile);

/**
 * The SQLite files of DATA_DIR, in the order they are copied: the read models
 * (and the runner's state) before the event log, so the log in a backup always
 * holds every event the read models in it reflect; on restore the projectors
 * only move forward from their checkpoints to the log's end.
 */
export const BACKED_UP_DATABASES = ["read-models.db", "search.db", "workflows.db", "runtime.db", "events.db"] as const;
/** The generated APP_SECRET (when not given in the environment): the subject keys in runtime.db are sealed with it. */
const SECRET_FILE = "app-secret";
/** In DATA_DIR: when the last backup of it succeeded (the backup-age gauge reads it); no backup copies it. */
export const LAST_BACKUP_FILE = "last-backup.json";
const MANIFEST = "manifest.json";
export const BACKUP_FORMAT = 1;

export interface BackupManifest {
  format: number;
  createdAt: string;
  /** The event log's last position in this backup: everything up to it is restored. */
  eventLogPosition: number;
  files: { path: string; bytes: number; sha256: string }[];
}

async function sha256(file: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

async function filesUnder(root: string, dir = root): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) found.push(...(await filesUnder(root, full)));
    else if (entry.isFile()) found.push(path.relative(root, full).split(path.sep).join("/"));
  }
  return found.sort();
}

/** One database through SQLite's online backup, in a single step: one read transaction, so one consistent state. */
async function copyDatabase(source: string, target: string): Promise<void> {
  const db = new Database(source, { fileMustExist: true });
  try {
    // Every page in the one step after the first: nothing written meanwhile can make the copy restart or tear.
    await db.backup(target, { progress: () => 0x7fffffff });
  } finally {
    db.close();
  }
}

/**
 * Writes a consistent, gzip-compressed tar of an embedded installation while
 * it serves: every SQLite database through the online backup API, then the
 * blobs, and a manifest with the event log's position and each file's SHA-256.
 */
export async function takeBackup(dataDir: string, file: string): Promise<BackupManifest> {
  const staging = await mkdtemp(path.join(os.tmpdir(), "docuchat-backup-"));
  try {
    for (const name of BACKED_UP_DATABASES) {
      if (existsSync(path.join(dataDir, name))) await copyDatabase(path.join(dataDir, name), path.join(staging, name));
    }
    if (!existsSync(path.join(staging, "events.db"))) throw new Error(`${dataDir} holds no events.db: not an embedded installation`);
    // Blobs after the log: a blob an event in the backup names was written before that event.
    if (existsSync(path.join(dataDir, "blobs"))) await cp(path.join(dataDir, "blobs"), path.join(staging, "blobs"), { recursive: true });
    if (existsSync(path.join(dataDir, SECRET_FILE))) await cp(path.join(dataDir, SECRET_FILE), path.join(staging, SECRET_FILE));
    const log = new Database(path.join(staging, "events.db"), { readonly: true });
    const position = (log.prepare("SELECT COALESCE(MAX(position), 0) AS head FROM events").get() as { head: number }).head;
    log.close();
    const files = [];
    for (const relative of await filesUnder(staging)) {
      const full = path.join(staging, relative);
      files.push({ path: relative, bytes: (await stat(full)).size, sha256: await sha256(full) });
    }
    const manifest: BackupManifest = { format: BACKUP_FORMAT, createdAt: new Date().toISOString(), eventLogPosition: position, files };
    await writeFile(path.join(staging, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`, { mode: 0o600 });

    const target = path.resolve(file);
    await mkdir(path.dirname(target), { recursive: true });
    // Written beside and renamed: a scheduled backup interrupted halfway never leaves a file that looks whole.
    const partial = `${target}.partial`;
    await run("tar", ["-czf", partial, "-C", staging, "."]);
    await rename(partial, target);
    await writeFile(path.join(dataDir, LAST_BACKUP_FILE), `${JSON.stringify({ createdAt: manifest.createdAt, eventLogPosition: position })}\n`);
    return manifest;
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

/**
 * Restores a backup into an empty (or new) data folder: unpacks it aside,
 * checks every file against the manifest, then moves the files in. Nothing is
 * written to `dataDir` unless every checksum matches.
 */
export async function restoreBackup(file: string, dataDir: string): Promise<BackupManifest> {
  const target = path.resolve(dataDir);
  if (existsSync(target) && (await readdir(target)).length > 0) throw new Error(`${target} is not empty: restore into an empty data folder`);
  await mkdir(target, { recursive: true });
  const unpacked = await mkdtemp(path.join(path.dirname(target), ".docuchat-restore-"));
  try {
    await run("tar", ["-xzf", path.resolve(file), "-C", unpacked]);
    const manifest = JSON.parse(await readFile(path.join(unpacked, MANIFEST), "utf8")) as BackupManifest;
    if (manifest.format !== BACKUP_FORMAT) throw new Error(`backup format ${manifest.format} is not one this version restores (${BACKUP_FORMAT})`);
    const listed = new Set(manifest.files.map((f) => f.path));
    for (const entry of manifest.files) {
      const full = path.join(unpacked, entry.path);
      if (!existsSync(full)) throw new Error(`the backup lacks ${entry.path}`);
      if ((await sha256(full)) !== entry.sha256) throw new Error(`${entry.path} does not match its checksum: the backup is damaged`);
    }
    const extra = (await filesUnder(unpacked)).filter((f) => f !== MANIFEST && !listed.has(f));
    if (extra.length > 0) throw new Error(`the backup holds files its manifest does not list: ${extra.slice(0, 3).join(", ")}`);
    for (const entry of await readdir(unpacked)) {
      if (entry !== MANIFEST) await rename(path.join(unpacked, entry), path.join(target, entry));
    }
    return manifest;
  } finally {
    await rm(unpacked, { recursive: true, force: true });
  }
}

/** Scheduled backups: `docuchat-<time>.tar.gz` in `dir`, the newest `keep` kept. */
export async function takeScheduledBackup(dataDir: string, dir: string, keep: number, now = new Date()): Promise<{ file: string; removed: string[] }> {
  const file = path.join(dir, `docuchat-${now.toISOString().replace(/[:.]/g, "-")}.tar.gz`);
  await takeBackup(dataDir, file);
  const backups = (await readdir(dir)).filter((name) => /^docuchat-.*\.tar\.gz$/.test(name)).sort();
  const removed = backups.slice(0, Math.max(0, backups.length - keep));
  for (const name of removed) await rm(path.join(dir, name), { force: true });
  return { file, removed };
}
