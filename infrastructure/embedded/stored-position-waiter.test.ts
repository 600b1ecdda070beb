import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { NewEvent } from "#application/ports/event-store";
import type { Projector } from "#application/ports/projection";
import { ProjectionRunner } from "./projection-runner";
import { openDatabase } from "./sqlite/open-database";
import { SqliteEventStore } from "./sqlite/sqlite-event-store";
import { SqliteReadModelStore } from "./sqlite/sqlite-read-model-store";
import { StoredPositionWaiter } from "./stored-position-waiter";

const event = (id: string): NewEvent => ({ eventId: id, type: "NoteWritten", schemaVersion: 1, data: { text: id }, metadata: { correlationId: "t", actorId: "t" } });

/** Counts notes; `held` keeps it from projecting until released, as a busy background process would. */
function notes() {
  let release: () => void = () => undefined;
  let held: Promise<void> | null = null;
  const projector: Projector = {
    name: "notes",
    collections: ["notes"],
    async handle(recorded, store) {
      if (held) await held;
      await store.collection<{ id: string; text: string }>("notes").upsert({ id: recorded.eventId, text: String((recorded.data as { text: string }).text) });
    },
  };
  return {
    projector,
    hold: () => (held = new Promise<void>((resolve) => (release = resolve))),
    release: () => {
      held = null;
      release();
    },
  };
}

describe("StoredPositionWaiter (read-your-writes in a web process)", () => {
  let dir: string;
  const closers: (() => unknown)[] = [];

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "stored-position-"));
  });

  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** One process's connections to the shared files. */
  function processStores() {
    const eventsDb = openDatabase(join(dir, "events.db"));
    const readDb = openDatabase(join(dir, "read-models.db"));
    const events = new SqliteEventStore(eventsDb, { changeCheckMs: 5 });
    closers.push(() => readDb.close(), () => eventsDb.close(), () => events.close());
    return { events, readModels: new SqliteReadModelStore(readDb) };
  }

  it("resolves once the projector in the other process has stored its checkpoint there, and the page then reads the write", async () => {
    const background = processStores();
    const web = processStores();
    const { projector, hold, release } = notes();
    const runner = new ProjectionRunner(background.events, background.readModels, [projector]);
    await runner.start();
    closers.push(() => runner.stop());
    const waiter = new StoredPositionWaiter(web.readModels, [projector.name], { pollMs: 2 });

    hold();
    const { position } = await web.events.append("note-1", [event("first")], "no_stream");
    expect(await waiter.waitForPosition(position, 100)).toBe(false);
    release();
    expect(await waiter.waitForPosition(position, 5_000)).toBe(true);
    expect(await web.readModels.collection<{ id: string; text: string }>("notes").get("first")).toEqual({ id: "first", text: "first" });
  });

  it("waits for every named checkpoint, one never stored counting as position 0", async () => {
    const web = processStores();
    const waiter = new StoredPositionWaiter(web.readModels, ["notes", "reactor:mailer"], { pollMs: 2 });
    await web.readModels.collection<{ id: string; position: number }>("projection_checkpoints").upsert({ id: "notes", position: 7 });
    expect(await waiter.waitForPosition(7, 50)).toBe(false);
    await web.readModels.collection<{ id: string; position: number }>("projection_checkpoints").upsert({ id: "reactor:mailer", position: 9 });
    expect(await waiter.waitForPosition(7, 50)).toBe(true);
  });
});
