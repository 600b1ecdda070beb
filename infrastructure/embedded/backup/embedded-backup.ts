import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { createReadStream, existsSync } from "node:fs";
import { chmod, cp, mkdir, mkdtemp, readdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import Database from "better-sqlite3";
import { HmacSecretHasher } from "#infrastructure/security/hmac-secret-hasher";

const run = promisify(execFile);

/**
 * The SQLite files of DATA_DIR, in the order they are copied: one cut at the
 * event log (decision 251). The read models and the runner's state are copied
 * before it, so they hold nothing the log lacks: the projectors and reactors
 * move forward from their checkpoints, and workflows resume as after a crash
 * (an activity journalled as done had appended its events first). The subject
 * keys (runtime.db) and the chunks (search.db) are copied after it, so every
 * key and chunk that an event in the log relies on was written before that
 * event and is in the backup.
 */
export const BACKED_UP_DATABASES = ["read-models.db", "workflows.db", "events.db", "runtime.db", "search.db"] as const;
/** The generated APP_SECRET (when not given in the environment): never in a backup, put back by a restore under it. */
const SECRET_FILE = "app-secret";
/** In DATA_DIR: when the last backup of it succeeded (the backup-age gauge reads it); no backup copies it. */
export const LAST_BACKUP_FILE = "last-backup.json";
const MANIFEST = "manifest.json";
export const BACKUP_FORMAT = 2;
/** Format 1 held the generated secret in the archive and no check of the secret. */
const RESTORABLE_FORMATS = [1, BACKUP_FORMAT];
/** Staging folders and unfinished archives carry the writing process's id, so a later backup knows whose they are. */
const STAGING = /^\.docuchat-backup-(\d+)-/;
const PARTIAL = /\.docuchat-(\d+)\.partial$/;
/** What this process is writing now: never a leftover. */
const inProgress = new Set<string>();

export interface BackupManifest {
  format: number;
  createdAt: string;
  /** The event log's last position in this backup: everything up to it is restored. */
  eventLogPosition: number;
  /**
   * The APP_SECRET the backup was taken under, as a keyed hash (it opens the
   * subject keys in runtime.db and checks sessions and tokens); `generated`:
   * the installation ran on a generated `app-secret` file. Absent in format 1.
   */
  secret?: { check: string; generated: boolean };
  files: { path: string; bytes: number; sha256: string }[];
}

const secretCheck = (appSecret: string) => new HmacSecretHasher(appSecret).hash("backup", "the secret this backup was taken under");

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
  // A checkpoint or a recovery in another process makes the read wait, not fail (decision 250).
  db.pragma("busy_timeout = 5000");
  try {
    // Every page in the one step after the first: nothing written meanwhile can make the copy restart or tear.
    await db.backup(target, { progress: () => 0x7fffffff });
  } finally {
    db.close();
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Removes the staging folders and unfinished archives that a backup
 * interrupted by a crash or a kill left in `dir`. Its process is gone, or it
 * is this process and no backup of this process is writing them. A container
 * restarted under the same process id would otherwise keep them for good.
 */
export async function removeBackupLeftovers(dir: string): Promise<string[]> {
  if (!existsSync(dir)) return [];
  const removed: string[] = [];
  for (const name of await readdir(dir)) {
    const pid = Number((STAGING.exec(name) ?? PARTIAL.exec(name))?.[1] ?? Number.NaN);
    const full = path.join(dir, name);
    if (Number.isNaN(pid) || inProgress.has(full) || (pid !== process.pid && alive(pid))) continue;
    await rm(full, { recursive: true, force: true });
    removed.push(name);
  }
  return removed;
}

/**
 * Writes a consistent, gzip-compressed tar of an embedded installation while
 * it serves: every SQLite database through the online backup API, then the
 * blobs, and a manifest with the event log's position, a check of the app
 * secret and each file's SHA-256. The archive and every file in it are the
 * owner's alone (0600). The app secret is never in it (decision 251). It is
 * staged beside `file`, and what an interrupted backup left there goes first.
 */
export async function takeBackup(dataDir: string, file: string, appSecret: string): Promise<BackupManifest> {
  const target = path.resolve(file);
  const dir = path.dirname(target);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  await removeBackupLeftovers(dir);
  const staging = await mkdtemp(path.join(dir, `.docuchat-backup-${process.pid}-`));
  // Written beside and renamed: a backup interrupted halfway never leaves a file that looks whole.
  const partial = `${target}.docuchat-${process.pid}.partial`;
  inProgress.add(staging).add(partial);
  try {
    for (const name of BACKED_UP_DATABASES) {
      if (existsSync(path.join(dataDir, name))) await copyDatabase(path.join(dataDir, name), path.join(staging, name));
    }
    if (!existsSync(path.join(staging, "events.db"))) throw new Error(`${dataDir} holds no events.db: not an embedded installation`);
    // Blobs after the log: a blob an event in the backup names was written before that event.
    if (existsSync(path.join(dataDir, "blobs"))) await cp(path.join(dataDir, "blobs"), path.join(staging, "blobs"), { recursive: true });
    const log = new Database(path.join(staging, "events.db"), { readonly: true });
    const position = (log.prepare("SELECT COALESCE(MAX(position), 0) AS head FROM events").get() as { head: number }).head;
    log.close();
    const files = [];
    for (const relative of await filesUnder(staging)) {
      const full = path.join(staging, relative);
      await chmod(full, 0o600);
      files.push({ path: relative, bytes: (await stat(full)).size, sha256: await sha256(full) });
    }
    const secretFile = path.join(dataDir, SECRET_FILE);
    const generated = existsSync(secretFile) && (await readFile(secretFile, "utf8")).trim() === appSecret;
    const manifest: BackupManifest = { format: BACKUP_FORMAT, createdAt: new Date().toISOString(), eventLogPosition: position, secret: { check: secretCheck(appSecret), generated }, files };
    await writeFile(path.join(staging, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`, { mode: 0o600 });

    // Created 0600 before tar writes into it: the archive is never readable by others, not even while written.
    await writeFile(partial, "", { mode: 0o600, flag: "wx" });
    await run("tar", ["-czf", partial, "-C", staging, "."]);
    await rename(partial, target);
    await writeFile(path.join(dataDir, LAST_BACKUP_FILE), `${JSON.stringify({ createdAt: manifest.createdAt, eventLogPosition: position })}\n`);
    return manifest;
  } finally {
    await rm(staging, { recursive: true, force: true });
    await rm(partial, { force: true });
    inProgress.delete(staging);
    inProgress.delete(partial);
  }
}

/**
 * Restores a backup into an empty (or new) data folder: unpacks it aside,
 * checks every file against the manifest and `appSecret` against the secret
 * the backup was taken under, then moves the files in. Nothing is written to
 * `dataDir` unless all of that holds. A backup of an installation that ran on
 * a generated secret gets it back as its `app-secret` file.
 */
export async function restoreBackup(file: string, dataDir: string, appSecret: string | undefined): Promise<BackupManifest> {
  const target = path.resolve(dataDir);
  if (existsSync(target) && (await readdir(target)).length > 0) throw new Error(`${target} is not empty: restore into an empty data folder`);
  await mkdir(target, { recursive: true });
  const unpacked = await mkdtemp(path.join(path.dirname(target), ".docuchat-restore-"));
  try {
    await run("tar", ["-xzf", path.resolve(file), "-C", unpacked]);
    const manifest = JSON.parse(await readFile(path.join(unpacked, MANIFEST), "utf8")) as BackupManifest;
    if (!RESTORABLE_FORMATS.includes(manifest.format)) throw new Error(`backup format ${manifest.format} is not one this version restores (${RESTORABLE_FORMATS.join(", ")})`);
    const listed = new Set(manifest.files.map((f) => f.path));
    for (const entry of manifest.files) {
      const full = path.join(unpacked, entry.path);
      if (!existsSync(full)) throw new Error(`the backup lacks ${entry.path}`);
      if ((await sha256(full)) !== entry.sha256) throw new Error(`${entry.path} does not match its checksum: the backup is damaged`);
    }
    const extra = (await filesUnder(unpacked)).filter((f) => f !== MANIFEST && !listed.has(f));
    if (extra.length > 0) throw new Error(`the backup holds files its manifest does not list: ${extra.slice(0, 3).join(", ")}`);
    if (manifest.secret) {
      const kept = manifest.secret.generated ? "the contents of its DATA_DIR/app-secret file" : "its APP_SECRET";
      if (!appSecret) throw new Error(`set APP_SECRET to the secret of the installation that took this backup (${kept}); the backup does not hold it`);
      if (secretCheck(appSecret) !== manifest.secret.check) {
        throw new Error(
          `APP_SECRET is not the secret this backup was taken under (${kept}): with it no one could sign in, and the personal data in the log and the provider keys could not be read`,
        );
      }
      if (manifest.secret.generated) await writeFile(path.join(unpacked, SECRET_FILE), appSecret, { mode: 0o600 });
    }
    for (const entry of await readdir(unpacked)) {
      if (entry !== MANIFEST) await rename(path.join(unpacked, entry), path.join(target, entry));
    }
    return manifest;
  } finally {
    await rm(unpacked, { recursive: true, force: true });
  }
}

/** Scheduled backups: `docuchat-<time>.tar.gz` in `dir`, the newest `keep` kept. */
export async function takeScheduledBackup(
  dataDir: string,
  options: { dir: string; keep: number; appSecret: string },
  now = new Date(),
): Promise<{ file: string; removed: string[] }> {
  const { dir, keep, appSecret } = options;
  const file = path.join(dir, `docuchat-${now.toISOString().replace(/[:.]/g, "-")}.tar.gz`);
  await takeBackup(dataDir, file, appSecret);
  const backups = (await readdir(dir)).filter((name) => /^docuchat-.*\.tar\.gz$/.test(name)).sort();
  const removed = backups.slice(0, Math.max(0, backups.length - keep));
  for (const name of removed) await rm(path.join(dir, name), { force: true });
  return { file, removed };
}
