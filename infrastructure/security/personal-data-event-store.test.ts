import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import type { NewEvent } from "#application/ports/event-store";
import { eventStoreContract } from "../../tests/contracts/event-store.contract";
import { openDatabase } from "#infrastructure/embedded/sqlite/open-database";
import { SqliteEventStore } from "#infrastructure/embedded/sqlite/sqlite-event-store";
import { PersonalDataEventStore } from "./personal-data-event-store";
import { SqliteSubjectKeyStore } from "./sqlite-subject-key-store";

const SECRET = "test-secret-test-secret-test-secret!";

function setup() {
  const dir = mkdtempSync(path.join(tmpdir(), "pd-"));
  const eventsDb = openDatabase(path.join(dir, "events.db"));
  const keysDb = openDatabase(path.join(dir, "runtime.db"));
  const keys = new SqliteSubjectKeyStore(keysDb, SECRET);
  const store = new PersonalDataEventStore(new SqliteEventStore(eventsDb), keys);
  return {
    dir,
    store,
    keys,
    eventsDb,
    async cleanup() {
      await store.close();
      eventsDb.close();
      keysDb.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

// The decorator is an event store like any other.
eventStoreContract("personal-data protecting store over SQLite", async () => {
  const env = setup();
  return { store: env.store, cleanup: env.cleanup };
});

const registered = (eventId: string, subjectId: string): NewEvent => ({
  eventId,
  type: "UserRegistered",
  schemaVersion: 1,
  data: { userId: subjectId, personal: { username: "alice", email: "alice@example.com" }, registeredAt: "2026-01-01T00:00:00Z" },
  metadata: { correlationId: "c", actorId: subjectId, subjectId },
});

describe("personal data in events", () => {
  let env: ReturnType<typeof setup>;
  afterEach(async () => env.cleanup());

  it("is stored sealed and read back in clear while the subject's key exists", async () => {
    env = setup();
    await env.store.append("user-u1", [registered("e1", "u1")], "no_stream");
    const raw = env.eventsDb.prepare("SELECT data FROM events").pluck().get() as string;
    expect(raw).not.toContain("alice");
    const [event] = await env.store.readStream("user-u1");
    expect(event.data.personal).toEqual({ username: "alice", email: "alice@example.com" });
  });

  it("reads as null everywhere once the subject is forgotten, while the rest of the history stays", async () => {
    env = setup();
    await env.store.append("user-u1", [registered("e1", "u1")], "no_stream");
    await env.store.append("user-u2", [registered("e2", "u2")], "no_stream");
    await env.keys.forget("u1");
    const all = await env.store.readAll(0, 10);
    expect(all.map((e) => e.data.personal)).toEqual([null, { username: "alice", email: "alice@example.com" }]);
    expect(all[0]).toMatchObject({ type: "UserRegistered", data: { userId: "u1", registeredAt: "2026-01-01T00:00:00Z" } });
  });

  it("cannot be opened with the database alone: subject keys are wrapped under the app secret", async () => {
    env = setup();
    await env.store.append("user-u1", [registered("e1", "u1")], "no_stream");
    const other = new SqliteSubjectKeyStore(new Database(path.join(env.dir, "runtime.db")), "another-secret-another-secret-12345");
    await expect(other.keyFor("u1", { create: false })).rejects.toThrow();
  });
});
