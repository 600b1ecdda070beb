import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import pino from "pino";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { RequestContext } from "#application/shared/request-context";
import { LibraryQueries } from "#application/library/library-queries";
import { WorkspaceQueries } from "#application/workspace/workspace-queries";
import { WorkspaceService } from "#application/workspace/workspace-service";
import { loadConfig } from "#infrastructure/config/config";
import { createRuntime } from "#infrastructure/container";
import { scheduleBackups } from "#infrastructure/embedded/backup/backup-schedule";
import { BACKED_UP_DATABASES, restoreBackup, takeBackup, takeScheduledBackup } from "#infrastructure/embedded/backup/embedded-backup";
import { ScryptPasswordHasher } from "#infrastructure/security/scrypt-password-hasher";
import { settle, uploadTextDocument } from "../support/library-fixtures";
import { createTestRuntime } from "../support/test-runtime";

const owner = "owner-1";
const ctx: RequestContext = { requestId: "req", clientAddress: "127.0.0.1", actorId: owner };
const SECRET = "test-secret-test-secret-test-secret!";
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function folder(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "docuchat-backup-test-"));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** The log's rows up to `position`, exactly as stored. */
function logRows(dataDir: string, position: number) {
  const db = new Database(path.join(dataDir, "events.db"), { readonly: true });
  try {
    return db.prepare("SELECT * FROM events WHERE position <= ? ORDER BY position").all(position);
  } finally {
    db.close();
  }
}

describe("backing up an embedded installation while it serves, and restoring it", () => {
  it("restores a snapshot whose log equals the original's up to the manifest's position, and whose app serves what that position covers", async () => {
    // No plan limit stops the load of new workspaces.
    const unlimited = { daily: null, monthly: null };
    const env = await createTestRuntime({ allowances: { limits: async () => ({ pages: unlimited, uploads: unlimited, messages: unlimited, workspaces: unlimited }) } as never });
    cleanups.push(() => env.cleanup());
    const documentId = await uploadTextDocument(env.runtime, owner, "rivers.txt", "The Nile is the longest river in Africa.");
    const workspaces = env.runtime.container.get(WorkspaceService);

    // Commands keep arriving while the backup is taken.
    let writing = true;
    const created: string[] = [];
    const load = (async () => {
      while (writing) {
        const { workspaceId } = await workspaces.create(owner, { name: `Load ${created.length}`, type: "Conversation", documentIds: [documentId] }, ctx);
        created.push(workspaceId);
        // The embedded stores answer synchronously: pause between writes, or this loop would starve every timer (the backup's too).
        await new Promise((r) => setTimeout(r, 50));
      }
    })();
    while (created.length < 3) await new Promise((r) => setTimeout(r, 5));
    const file = path.join(folder(), "snapshot.tar.gz");
    const manifest = await takeBackup(env.dataDir, file, SECRET);
    const createdBefore = created.length;
    while (created.length < createdBefore + 3) await new Promise((r) => setTimeout(r, 5));
    writing = false;
    await load;
    await settle(env.runtime);

    expect(manifest.eventLogPosition).toBeGreaterThan(0);
    expect(manifest.files.map((f) => f.path)).toEqual(expect.arrayContaining(["events.db", "read-models.db", "search.db", "workflows.db", "runtime.db"]));
    expect(manifest.files.some((f) => f.path.startsWith("blobs/"))).toBe(true);
    const restoredDir = path.join(folder(), "data");
    await restoreBackup(file, restoredDir, SECRET);
    // The original went on past the backup; the restored log is its prefix, row for row.
    const original = logRows(env.dataDir, Number.MAX_SAFE_INTEGER);
    const restored = logRows(restoredDir, Number.MAX_SAFE_INTEGER);
    expect(original.length).toBeGreaterThan(restored.length);
    expect(restored).toEqual(logRows(env.dataDir, manifest.eventLogPosition));
    expect(restored.length).toBe(manifest.eventLogPosition);
    const runtime = await createRuntime(loadConfig({ DATA_DIR: restoredDir, APP_SECRET: SECRET }), {
      logger: pino({ level: "silent" }),
      passwordHasher: new ScryptPasswordHasher({ N: 2 ** 10, r: 8, p: 1 }),
      builtInEmbeddings: false,
    });
    cleanups.push(() => runtime.stop());
    await settle(runtime);
    const covered = new Set(
      (restored as { type: string; stream_id: string }[]).filter((row) => row.type === "WorkspaceCreated").map((row) => row.stream_id.replace(/^workspace-/, "")),
    );
    expect(covered.size).toBeGreaterThanOrEqual(3);
    const served = await runtime.container.get(WorkspaceQueries).list(owner, { limit: 1000 });
    expect(new Set(served.workspaces.map((w) => w.id))).toEqual(covered);
    const { blob } = await runtime.container.get(LibraryQueries).openSource(owner, documentId);
    const chunks: Buffer[] = [];
    for await (const chunk of blob.body) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).toString()).toContain("The Nile");
  }, 90_000);

  it("refuses a damaged backup and a data folder that is not empty, writing nothing", async () => {
    const env = await createTestRuntime();
    cleanups.push(() => env.cleanup());
    const file = path.join(folder(), "snapshot.tar.gz");
    await takeBackup(env.dataDir, file, SECRET);
    await expect(restoreBackup(file, env.dataDir, SECRET)).rejects.toThrow(/not empty/);

    // Flip one byte inside the compressed archive's events.db by repacking it with a changed file.
    const unpacked = folder();
    execFileSync("tar", ["-xzf", file, "-C", unpacked]);
    const db = new Database(path.join(unpacked, "events.db"));
    db.exec("CREATE TABLE tampered (x)");
    db.close();
    const damaged = path.join(folder(), "damaged.tar.gz");
    execFileSync("tar", ["-czf", damaged, "-C", unpacked, "."]);
    const target = path.join(folder(), "data");
    await expect(restoreBackup(damaged, target, SECRET)).rejects.toThrow(/events\.db does not match its checksum/);
    expect(readdirSync(target)).toEqual([]);
  });

  it("keeps the newest scheduled backups and deletes older ones", async () => {
    const env = await createTestRuntime();
    cleanups.push(() => env.cleanup());
    const dir = folder();
    for (let i = 0; i < 3; i++) await takeScheduledBackup(env.dataDir, { dir, keep: 2, appSecret: SECRET }, new Date(Date.UTC(2026, 0, 1, i)));
    expect(readdirSync(dir).sort()).toEqual(["docuchat-2026-01-01T01-00-00-000Z.tar.gz", "docuchat-2026-01-01T02-00-00-000Z.tar.gz"]);
  });
  it("holds, for every event in it, the subject key that opens its personal data and the chunks of its documents, whatever was written between two copies", async () => {
    const env = await createTestRuntime();
    cleanups.push(() => env.cleanup());
    // Between any two databases the backup copies, another owner uploads a document: a new subject key, events, chunks.
    const copy = Database.prototype.backup;
    const spy = vi.spyOn(Database.prototype, "backup").mockImplementation(async function (this: Database.Database, ...args: Parameters<typeof copy>) {
      const result = await copy.apply(this, args);
      await uploadTextDocument(env.runtime, `owner-${this.name.split("/").at(-1)}`, "tides.txt", "Spring tides follow the new and the full moon.");
      return result;
    });
    cleanups.push(() => spy.mockRestore());
    const file = path.join(folder(), "snapshot.tar.gz");
    await takeBackup(env.dataDir, file, SECRET);
    expect(spy).toHaveBeenCalledTimes(BACKED_UP_DATABASES.length);
    spy.mockRestore();
    const restoredDir = path.join(folder(), "data");
    await restoreBackup(file, restoredDir, SECRET);

    const open = (name: string) => new Database(path.join(restoredDir, name), { readonly: true });
    const [events, runtime, search] = [open("events.db"), open("runtime.db"), open("search.db")];
    try {
      const sealedFor = events.prepare(`SELECT DISTINCT json_extract(metadata, '$.subjectId') FROM events WHERE data LIKE '%"$sealed"%'`).pluck().all();
      const keys = new Set(runtime.prepare("SELECT subject_id FROM subject_keys").pluck().all());
      expect(sealedFor.length).toBeGreaterThan(0);
      expect(sealedFor.filter((subject) => !keys.has(subject))).toEqual([]);
      const indexed = events.prepare(`SELECT substr(stream_id, 10) FROM events WHERE type = 'DocumentIndexed'`).pluck().all() as string[];
      const withChunks = new Set(search.prepare("SELECT DISTINCT document_id FROM chunks").pluck().all());
      expect(indexed.length).toBeGreaterThan(0);
      expect(indexed.filter((documentId) => !withChunks.has(documentId))).toEqual([]);
    } finally {
      for (const db of [events, runtime, search]) db.close();
    }
  }, 90_000);

  it("writes an archive only its owner reads, without the app secret, and restores only under the secret it was taken under", async () => {
    const env = await createTestRuntime();
    cleanups.push(() => env.cleanup());
    // An installation running on a generated secret: the one copy of it is this file.
    writeFileSync(path.join(env.dataDir, "app-secret"), SECRET, { mode: 0o600 });
    const file = path.join(folder(), "snapshot.tar.gz");
    await takeBackup(env.dataDir, file, SECRET);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const entries = execFileSync("tar", ["-tvzf", file], { encoding: "utf8" }).trim().split("\n");
    expect(entries.filter((entry) => entry.endsWith("app-secret"))).toEqual([]);
    expect(entries.filter((entry) => !entry.startsWith("d") && !entry.startsWith("-rw-------"))).toEqual([]);

    const target = path.join(folder(), "data");
    await expect(restoreBackup(file, target, undefined)).rejects.toThrow(/set APP_SECRET to the secret of the installation that took this backup \(the contents of its DATA_DIR\/app-secret file\)/);
    await expect(restoreBackup(file, target, "another-secret-another-secret-another")).rejects.toThrow(/APP_SECRET is not the secret this backup was taken under.*no one could sign in/);
    expect(readdirSync(target)).toEqual([]);
    await restoreBackup(file, target, SECRET);
    // The restored installation starts on the secret it ran on, from its own file as before.
    expect(readFileSync(path.join(target, "app-secret"), "utf8")).toBe(SECRET);
    expect(statSync(path.join(target, "app-secret")).mode & 0o777).toBe(0o600);
    expect(loadConfig({ DATA_DIR: target }).appSecret).toBe(SECRET);
  });

  it("removes what a backup cut short by a crash left behind, at the next backup and when the schedule starts", async () => {
    const env = await createTestRuntime();
    cleanups.push(() => env.cleanup());
    const gone = spawnSync("true").pid!;
    const dir = folder();
    const leave = () => {
      mkdirSync(path.join(dir, `.docuchat-backup-${gone}-a1b2c3`, "blobs"), { recursive: true });
      writeFileSync(path.join(dir, `.docuchat-backup-${gone}-a1b2c3`, "events.db"), "half a copy");
      writeFileSync(path.join(dir, `docuchat-2026-01-01T00-00-00-000Z.tar.gz.docuchat-${gone}.partial`), "half an archive");
    };
    leave();
    await takeScheduledBackup(env.dataDir, { dir, keep: 7, appSecret: SECRET }, new Date(Date.UTC(2026, 0, 2)));
    expect(readdirSync(dir)).toEqual(["docuchat-2026-01-02T00-00-00-000Z.tar.gz"]);

    leave();
    const schedule = scheduleBackups(env.dataDir, { intervalHours: 24, dir, keep: 7, appSecret: SECRET }, pino({ level: "silent" }));
    cleanups.push(() => schedule.stop());
    await vi.waitFor(() => expect(readdirSync(dir)).toEqual(["docuchat-2026-01-02T00-00-00-000Z.tar.gz"]));
  });

  it("an archive unpacked by hand, started under another secret, refuses to start and says why", async () => {
    const env = await createTestRuntime();
    cleanups.push(() => env.cleanup());
    // A document's name is personal data: its owner's key is in runtime.db, wrapped under the secret.
    await uploadTextDocument(env.runtime, owner, "rivers.txt", "The Nile is the longest river in Africa.");
    const file = path.join(folder(), "snapshot.tar.gz");
    await takeBackup(env.dataDir, file, SECRET);
    const unpacked = folder();
    execFileSync("tar", ["-xzf", file, "-C", unpacked]);

    const start = (secret: string) => createRuntime(loadConfig({ DATA_DIR: unpacked, APP_SECRET: secret }), { role: "background", logger: pino({ level: "silent" }), builtInEmbeddings: false });
    await expect(start("another-secret-another-secret-another!")).rejects.toThrow(/APP_SECRET is not the secret this data folder was written under/);
    const runtime = await start(SECRET);
    await runtime.stop();
  });
});

