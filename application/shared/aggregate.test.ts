import { DomainError } from "#domain/shared/domain-error";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { WrongExpectedVersionError } from "#application/ports/event-store";
import type { Decider, DomainEvent } from "#domain/shared/decider";
import { type AggregateDefinition, eventData } from "#domain/shared/event-schemas";
import { conversationAggregate } from "#domain/conversation/conversation-events";
import { documentAggregate } from "#domain/library/document-events";
import { openDatabase } from "#infrastructure/embedded/sqlite/open-database";
import { SqliteEventStore } from "#infrastructure/embedded/sqlite/sqlite-event-store";
import { PersonalDataEventStore } from "#infrastructure/security/personal-data-event-store";
import { SqliteSubjectKeyStore } from "#infrastructure/security/sqlite-subject-key-store";
import { Aggregate } from "./aggregate";

/** A tally: `Add` records how much was added and the new total (version 2 of `Added`; version 1 had no total). */
type TallyEvent = DomainEvent<"Added", { amount: number; total: number }>;
type TallyCommand = { type: "Add"; amount: number };
const tally: Decider<TallyCommand, TallyEvent, number> = {
  initialState: () => 0,
  decide: (command, total) => (command.amount === 0 ? [] : [{ type: "Added", data: { amount: command.amount, total: total + command.amount } }]),
  evolve: (_total, event) => event.data.total,
};
const tallies: AggregateDefinition<TallyCommand, TallyEvent, number> = {
  decider: tally,
  streamId: (id) => `tally-${id}`,
  events: {
    Added: {
      version: 2,
      data: eventData({ amount: z.number().int(), total: z.number().int() }),
      // Version 1 stored only the amount, and only ever one Added per stream.
      upcasters: { 1: (data) => ({ ...data, total: data.amount }) },
    },
  },
};

let lastId = 0;
const ids = { next: () => `id-${++lastId}` };
const metadata = { correlationId: "test", actorId: "alice", subjectId: "alice" };

let cleanup: () => void = () => undefined;
afterEach(() => cleanup());

function setup() {
  const dir = mkdtempSync(path.join(tmpdir(), "aggregate-"));
  const eventsDb = openDatabase(path.join(dir, "events.db"));
  const keysDb = openDatabase(path.join(dir, "keys.db"));
  const keys = new SqliteSubjectKeyStore(keysDb, "aggregate-test-secret-aggregate-test!");
  const raw = new SqliteEventStore(eventsDb);
  const store = new PersonalDataEventStore(raw, keys);
  const others: ReturnType<typeof openDatabase>[] = [];
  cleanup = () => {
    for (const db of [eventsDb, keysDb, ...others]) db.close();
    rmSync(dir, { recursive: true, force: true });
  };
  /** The same events file through its own connection and store: what another process sees and writes. */
  const otherProcess = () => {
    const db = openDatabase(path.join(dir, "events.db"));
    others.push(db);
    return new SqliteEventStore(db);
  };
  return { raw, store, keys, otherProcess };
}

const stored = (data: Record<string, unknown>, schemaVersion = 2) => ({ eventId: `raw-${Math.random()}`, type: "Added", schemaVersion, data, metadata });

describe("the aggregate helper", () => {
  it("decides on the folded stream and appends at the next version, with the schema's version", async () => {
    const { store } = setup();
    const aggregate = new Aggregate(store, ids, tallies);
    await aggregate.handle("t1", { type: "Add", amount: 2 }, { metadata });
    const result = await aggregate.handle("t1", { type: "Add", amount: 3 }, { metadata });
    expect(result).toMatchObject({ state: 5, streamVersion: 1, events: [{ data: { amount: 3, total: 5 } }] });
    expect(await aggregate.load("t1")).toMatchObject({ state: 5, version: 1 });
    expect((await store.readStream("tally-t1")).map((e) => e.schemaVersion)).toEqual([2, 2]);
  });

  it("lifts an event stored in an older version through its upcaster", async () => {
    const { store } = setup();
    await store.append("tally-old", [stored({ amount: 4 }, 1)], "no_stream");
    const aggregate = new Aggregate(store, ids, tallies);
    expect((await aggregate.load("old")).events).toEqual([{ type: "Added", data: { amount: 4, total: 4 } }]);
    expect((await aggregate.handle("old", { type: "Add", amount: 1 }, { metadata })).state).toBe(5);
  });

  it("refuses to read a stored event that does not match its schema", async () => {
    const { store } = setup();
    await store.append("tally-bad", [stored({ amount: "four", total: 4 })], "no_stream");
    await expect(new Aggregate(store, ids, tallies).load("bad")).rejects.toMatchObject({ code: "INVALID_EVENT" });
  });

  it("refuses to append an event its decider got wrong, and appends nothing", async () => {
    const { store } = setup();
    const sloppy = new Aggregate(store, ids, { ...tallies, decider: { ...tally, decide: (c: TallyCommand) => [{ type: "Added", data: { amount: c.amount, total: 0.5 } }] as TallyEvent[] } });
    await expect(sloppy.handle("t1", { type: "Add", amount: 1 }, { metadata })).rejects.toMatchObject({ code: "INVALID_EVENT" });
    expect(await store.readStream("tally-t1")).toEqual([]);
  });

  it("decides again when another writer appended since the state was loaded, a bounded number of times", async () => {
    const { store } = setup();
    const aggregate = new Aggregate(store, ids, tallies);
    await aggregate.handle("t1", { type: "Add", amount: 1 }, { metadata });
    const stale = await aggregate.load("t1");
    await aggregate.handle("t1", { type: "Add", amount: 10 }, { metadata });
    expect((await aggregate.handle("t1", { type: "Add", amount: 100 }, { metadata, loaded: stale })).state).toBe(111);
    // Lost every race: the user is told to try again (409), not an internal error.
    await expect(aggregate.handle("t1", { type: "Add", amount: 1 }, { metadata, loaded: stale, maxAttempts: 1 })).rejects.toMatchObject({
      code: "CONCURRENT_CHANGE",
      message: "Someone else changed this; try again.",
    });
  });

  it("refuses every command while an admin impersonates, except one marked as allowed", async () => {
    const { store } = setup();
    const aggregate = new Aggregate(store, ids, tallies);
    const impersonated = { ...metadata, impersonatorId: "admin-1" };
    await expect(aggregate.handle("t1", { type: "Add", amount: 1 }, { metadata: impersonated })).rejects.toMatchObject({ code: "IMPERSONATION_READ_ONLY" });
    expect(await store.readStream("tally-t1")).toEqual([]);
    await aggregate.handle("t1", { type: "Add", amount: 1 }, { metadata: impersonated, allowDuringImpersonation: true });
    expect((await store.readStream("tally-t1"))[0].metadata.impersonatorId).toBe("admin-1");
  });

  it("still reads a stream whose personal data was shredded", async () => {
    const { store, keys } = setup();
    const documents = new Aggregate(store, ids, documentAggregate);
    const settings = { ocr: false, ragType: null, embedding: null, maxDepth: null };
    const register = { type: "RegisterDocument" as const, documentId: "d1", ownerId: "alice", source: "file" as const, name: "tides.pdf", sourceUrl: null, declaredType: "application/pdf", declaredSize: 10, declaredPageCount: 1, settings, now: new Date() };
    await documents.handle("d1", register, { metadata });
    await keys.forget("alice");
    const { state, events } = await documents.load("d1");
    expect(events[0]).toMatchObject({ type: "DocumentRegistered", data: { ownerId: "alice", personal: null } });
    expect(state).toMatchObject({ exists: true, ownerId: "alice" });
  });

  it("reads a question stored before images and answer languages existed", async () => {
    const { store } = setup();
    const at = "2026-01-01T00:00:00.000Z";
    await store.append(
      "conversation-c1",
      [
        { eventId: "s", type: "ConversationStarted", schemaVersion: 1, data: { conversationId: "c1", workspaceId: "w1", ownerId: "alice", startedAt: at, personal: { title: "" } }, metadata },
        { eventId: "q", type: "QuestionAsked", schemaVersion: 1, data: { messageId: "q1", personal: { text: "Why tides?", selectedText: null }, askedAt: at }, metadata },
      ],
      "no_stream",
    );
    const { events } = await new Aggregate(store, ids, conversationAggregate).load("c1");
    expect(events[1]).toMatchObject({ type: "QuestionAsked", data: { mediaIds: [], language: "English", personal: { text: "Why tides?" } } });
  });

  describe("remembering the state it appended", () => {
    it("decides the next command on the state it appended, without reading the stream again", async () => {
      const { store } = setup();
      const aggregate = new Aggregate(store, ids, tallies);
      const reads = vi.spyOn(store, "readStream");
      await aggregate.handle("t1", { type: "Add", amount: 2 }, { metadata });
      await aggregate.handle("t1", { type: "Add", amount: 3 }, { metadata });
      const third = await aggregate.handle("t1", { type: "Add", amount: 4 }, { metadata });
      expect(third).toMatchObject({ state: 9, streamVersion: 2, after: { version: 2, events: [{ data: { total: 2 } }, { data: { total: 5 } }, { data: { total: 9 } }] } });
      expect(reads).toHaveBeenCalledTimes(1);
    });

    it("shares what it remembers with every helper of the same store and aggregate", async () => {
      const { store } = setup();
      await new Aggregate(store, ids, tallies).handle("t1", { type: "Add", amount: 2 }, { metadata });
      const reads = vi.spyOn(store, "readStream");
      expect((await new Aggregate(store, ids, tallies).handle("t1", { type: "Add", amount: 3 }, { metadata })).state).toBe(5);
      expect(reads).not.toHaveBeenCalled();
    });

    it("when another process appended since, the append conflicts and the command decides again on a fresh read", async () => {
      const { raw, otherProcess } = setup();
      const here = new Aggregate(raw, ids, tallies);
      const there = new Aggregate(otherProcess(), ids, tallies);
      await here.handle("t1", { type: "Add", amount: 1 }, { metadata });
      await there.handle("t1", { type: "Add", amount: 10 }, { metadata });
      const append = vi.spyOn(raw, "append");
      // One attempt allowed: overtaking a remembered state is not a lost race, so it does not use it up.
      const result = await here.handle("t1", { type: "Add", amount: 100 }, { metadata, maxAttempts: 1 });
      expect(result).toMatchObject({ state: 111, streamVersion: 2 });
      expect(append.mock.calls.map(([, , expected]) => expected)).toEqual([0, 1]);
      await expect(append.mock.results[0].value).rejects.toBeInstanceOf(WrongExpectedVersionError);
      expect((await raw.readStream("tally-t1")).map((e) => e.data.total)).toEqual([1, 11, 111]);
      // And what it remembers now is the fresh state.
      expect((await here.handle("t1", { type: "Add", amount: 1000 }, { metadata })).state).toBe(1111);
    });

    it("a refusal decided on a remembered state is checked against the stream as it is now", async () => {
      const { raw, otherProcess } = setup();
      // Spending refuses more than the tally holds: a stale remembered total would refuse what the stream allows.
      const spending: AggregateDefinition<TallyCommand, TallyEvent, number> = {
        ...tallies,
        decider: {
          ...tally,
          decide: (command, total) => {
            if (command.amount < 0 && total + command.amount < 0) throw new DomainError("VALIDATION", "Not enough to spend.");
            return tally.decide(command, total);
          },
        },
      };
      const here = new Aggregate(raw, ids, spending);
      await here.handle("t2", { type: "Add", amount: 1 }, { metadata });
      await new Aggregate(otherProcess(), ids, spending).handle("t2", { type: "Add", amount: 10 }, { metadata });
      expect((await here.handle("t2", { type: "Add", amount: -5 }, { metadata })).state).toBe(6);
      await expect(here.handle("t2", { type: "Add", amount: -50 }, { metadata })).rejects.toBeInstanceOf(DomainError);
    });

    it("loads from the stream, never from what it remembers, so a reader sees another process's writes", async () => {
      const { raw, otherProcess } = setup();
      const here = new Aggregate(raw, ids, tallies);
      await here.handle("t1", { type: "Add", amount: 1 }, { metadata });
      await new Aggregate(otherProcess(), ids, tallies).handle("t1", { type: "Add", amount: 10 }, { metadata });
      expect(await here.load("t1")).toMatchObject({ state: 11, version: 1 });
    });

    it("remembers events as read through their upcasters", async () => {
      const { store } = setup();
      await store.append("tally-old", [stored({ amount: 4 }, 1)], "no_stream");
      const aggregate = new Aggregate(store, ids, tallies);
      await aggregate.handle("old", { type: "Add", amount: 1 }, { metadata });
      const result = await aggregate.handle("old", { type: "Add", amount: 2 }, { metadata });
      expect(result.after.events.map((e) => e.data)).toEqual([{ amount: 4, total: 4 }, { amount: 1, total: 5 }, { amount: 2, total: 7 }]);
    });

    it("forgets a stream whose append was answered as the retry of an earlier one", async () => {
      const { store } = setup();
      const aggregate = new Aggregate(store, ids, tallies);
      const once = { metadata, eventIds: () => "payment-1" };
      await aggregate.handle("t1", { type: "Add", amount: 5 }, once);
      const reread = await aggregate.load("t1");
      // The same event id again, decided on a state that already holds it: the store answers the first append.
      const replay = await aggregate.handle("t1", { type: "Add", amount: 5 }, { ...once, loaded: reread });
      expect(replay.streamVersion).toBe(0);
      const reads = vi.spyOn(store, "readStream");
      expect((await aggregate.handle("t1", { type: "Add", amount: 1 }, { metadata })).state).toBe(6);
      expect(reads).toHaveBeenCalledTimes(1);
    });
  });
});
