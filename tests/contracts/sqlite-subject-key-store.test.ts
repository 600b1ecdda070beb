import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openDatabase } from "#infrastructure/embedded/sqlite/open-database";
import { SqliteSubjectKeyStore, type WrappedKeyImporter } from "#infrastructure/security/sqlite-subject-key-store";
import { type WrappedKeyRecord, WrappedSubjectKeyStore } from "#infrastructure/security/wrapped-subject-keys";
import { CONTRACT_APP_SECRET, subjectKeyStoreContract } from "./subject-key-store.contract";

/** Every open() is a new connection to one runtime.db, as another process would have. */
function runtimeDbFixture() {
  const dir = mkdtempSync(path.join(tmpdir(), "docuchat-keys-"));
  const file = path.join(dir, "runtime.db");
  const connections: Database.Database[] = [];
  const connect = () => {
    const db = openDatabase(file);
    connections.push(db);
    return db;
  };
  return {
    connect,
    open: async (appSecret: string) => new SqliteSubjectKeyStore(connect(), appSecret),
    cleanup: async () => {
      for (const db of connections) db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

subjectKeyStoreContract("SQLite (runtime.db)", async () => runtimeDbFixture());

/** A server store stand-in: wrapped records in a Map, insert-or-ignore like MongoDB's unique _id. */
class MapImporter implements WrappedKeyImporter {
  readonly records = new Map<string, WrappedKeyRecord>();
  failNext = false;

  async importWrapped(records: WrappedKeyRecord[]) {
    if (this.failNext) throw new Error("server unavailable");
    for (const record of records) if (!this.records.has(record.subjectId)) this.records.set(record.subjectId, record);
    return new Map(records.map((r) => [r.subjectId, this.records.get(r.subjectId)?.wrappedKey ?? null]));
  }

  /** A store reading these records, as the server store would. */
  store(appSecret = CONTRACT_APP_SECRET) {
    return new WrappedSubjectKeyStore(
      {
        find: async (id) => this.records.get(id)?.wrappedKey ?? null,
        insertIfAbsent: async (r) => void (this.records.has(r.subjectId) || this.records.set(r.subjectId, r)),
        remove: async (id) => void this.records.delete(id),
      },
      appSecret,
    );
  }
}

describe("SqliteSubjectKeyStore.moveTo (runtime.db keys onto a server store)", () => {
  let fixture: ReturnType<typeof runtimeDbFixture>;
  let local: SqliteSubjectKeyStore;
  let target: MapImporter;
  beforeEach(async () => {
    fixture = runtimeDbFixture();
    local = await fixture.open(CONTRACT_APP_SECRET);
    target = new MapImporter();
  });
  afterEach(() => fixture.cleanup());

  it("moves the keys as they are: the server store opens them, runtime.db no longer has them", async () => {
    const a = await local.keyFor("u-a", { create: true });
    const b = await local.keyFor("u-b", { create: true });
    expect(await local.moveTo(target)).toEqual({ moved: 2, kept: [] });
    expect(await target.store().keyFor("u-a", { create: false })).toEqual(a);
    expect(await target.store().keyFor("u-b", { create: false })).toEqual(b);
    expect(await (await fixture.open(CONTRACT_APP_SECRET)).keyFor("u-a", { create: false })).toBeNull();
    expect(await local.keyFor("u-a", { create: false })).toBeNull();
    // Nothing left to move; a key forgotten on the server stays forgotten.
    await target.store().forget("u-a");
    expect(await local.moveTo(target)).toEqual({ moved: 0, kept: [] });
    expect(target.records.has("u-a")).toBe(false);
  });

  it("keeps a key the server store holds a different one for, and moves the rest", async () => {
    const mine = await local.keyFor("u-a", { create: true });
    await local.keyFor("u-b", { create: true });
    const theirs = await target.store().keyFor("u-a", { create: true });
    expect(await local.moveTo(target)).toEqual({ moved: 1, kept: ["u-a"] });
    expect(await local.keyFor("u-a", { create: false })).toEqual(mine);
    expect(await target.store().keyFor("u-a", { create: false })).toEqual(theirs);
  });

  it("changes nothing in runtime.db when the server store fails", async () => {
    const key = await local.keyFor("u-a", { create: true });
    target.failNext = true;
    await expect(local.moveTo(target)).rejects.toThrow("server unavailable");
    const db = fixture.connect();
    expect(db.inTransaction).toBe(false);
    expect(await new SqliteSubjectKeyStore(db, CONTRACT_APP_SECRET).keyFor("u-a", { create: false })).toEqual(key);
  });
});

describe("SqliteSubjectKeyStore shared by the web and background processes", () => {
  it("stops serving a key the moment another process forgets it", async () => {
    const fixture = runtimeDbFixture();
    try {
      const web = new SqliteSubjectKeyStore(fixture.connect(), CONTRACT_APP_SECRET);
      const background = new SqliteSubjectKeyStore(fixture.connect(), CONTRACT_APP_SECRET);
      const key = await web.keyFor("user-1", { create: true });
      expect(await web.keyFor("user-2", { create: true })).not.toBeNull();
      expect(await web.keyFor("user-1", { create: false })).toEqual(key);
      await background.forget("user-1");
      expect(await web.keyFor("user-1", { create: false })).toBeNull();
      expect(await web.keyFor("user-2", { create: false })).not.toBeNull();
    } finally {
      await fixture.cleanup();
    }
  });
});
