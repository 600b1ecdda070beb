import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import pino from "pino";
import { afterEach, describe, expect, it } from "vitest";
import type { RequestContext } from "#application/shared/request-context";
import { LibraryQueries } from "#application/library/library-queries";
import { WorkspaceQueries } from "#application/workspace/workspace-queries";
import { WorkspaceService } from "#application/workspace/workspace-service";
import { loadConfig } from "#infrastructure/config/config";
import { createRuntime } from "#infrastructure/container";
import { restoreBackup, takeBackup, takeScheduledBackup } from "#infrastructure/embedded/backup/embedded-backup";
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
    const manifest = await takeBackup(env.dataDir, file);
    const createdBefore = created.length;
    while (created.length < createdBefore + 3) await new Promise((r) => setTimeout(r, 5));
    writing = false;
    await load;
    await settle(env.runtime);

    expect(manifest.eventLogPosition).toBeGreaterThan(0);
    expect(manifest.files.map((f) => f.path)).toEqual(expect.arrayContaining(["events.db", "read-models.db", "search.db", "workflows.db", "runtime.db"]));
    expect(manifest.files.some((f) => f.path.startsWith("blobs/"))).toBe(true);
    const restoredDir = path.join(folder(), "data");
    await restoreBackup(file, restoredDir);
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
    await takeBackup(env.dataDir, file);
    await expect(restoreBackup(file, env.dataDir)).rejects.toThrow(/not empty/);

    // Flip one byte inside the compressed archive's events.db by repacking it with a changed file.
    const unpacked = folder();
    const { execFileSync } = await import("node:child_process");
    execFileSync("tar", ["-xzf", file, "-C", unpacked]);
    const db = new Database(path.join(unpacked, "events.db"));
    db.exec("CREATE TABLE tampered (x)");
    db.close();
    const damaged = path.join(folder(), "damaged.tar.gz");
    execFileSync("tar", ["-czf", damaged, "-C", unpacked, "."]);
    const target = path.join(folder(), "data");
    await expect(restoreBackup(damaged, target)).rejects.toThrow(/events\.db does not match its checksum/);
    const { readdirSync } = await import("node:fs");
    expect(readdirSync(target)).toEqual([]);
  });

  it("keeps the newest scheduled backups and deletes older ones", async () => {
    const env = await createTestRuntime();
    cleanups.push(() => env.cleanup());
    const dir = folder();
    for (let i = 0; i < 3; i++) await takeScheduledBackup(env.dataDir, dir, 2, new Date(Date.UTC(2026, 0, 1, i)));
    const { readdirSync } = await import("node:fs");
    expect(readdirSync(dir).sort()).toEqual(["docuchat-2026-01-01T01-00-00-000Z.tar.gz", "docuchat-2026-01-01T02-00-00-000Z.tar.gz"]);
  });
});
