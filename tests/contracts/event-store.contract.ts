import { randomUUID } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { EventStore, NewEvent, RecordedEvent, Subscription } from "#application/ports/event-store";
import { WrongExpectedVersionError } from "#application/ports/event-store";

export interface EventStoreFixture {
  store: EventStore;
  cleanup(): Promise<void>;
}

/** Shared guarantees of every EventStore adapter (ARCHITECTURE §3, §4). */
export function eventStoreContract(name: string, makeStore: () => Promise<EventStoreFixture>): void {
  describe(`EventStore contract: ${name}`, () => {
    let fixture: EventStoreFixture;
    let store: EventStore;
    // Unique per test so adapters backed by a shared server do not see each other's streams.
    let run: string;
    const stream = (label: string) => `${label}-${run}`;

    beforeEach(async () => {
      fixture = await makeStore();
      store = fixture.store;
      run = randomUUID().slice(0, 8);
    });
    afterEach(async () => {
      await fixture.cleanup();
    });

    const event = (type = "CounterIncremented", data: Record<string, unknown> = {}): NewEvent => ({
      eventId: randomUUID(),
      type,
      schemaVersion: 1,
      data,
      metadata: { correlationId: randomUUID(), actorId: "user-1" },
    });

    async function collect(fromPosition: number, count: number): Promise<{ events: RecordedEvent[]; subscription: Subscription }> {
      const events: RecordedEvent[] = [];
      let done!: () => void;
      const reached = new Promise<void>((resolve) => (done = resolve));
      const subscription = store.subscribeToAll({
        fromPosition,
        onEvent: async (e) => {
          events.push(e);
          if (events.length >= count) done();
        },
      });
      await Promise.race([reached, new Promise((_, reject) => setTimeout(() => reject(new Error(`only ${events.length}/${count} events delivered`)), 10_000))]);
      return { events, subscription };
    }

    describe("appending", () => {
      it("creates a stream when it must not exist yet, numbering events from version 0", async () => {
        const id = stream("counter");
        const result = await store.append(id, [event(), event()], "no_stream");
        expect(result.nextExpectedVersion).toBe(1);
        expect(result.position).toBeGreaterThan(0);
        const read = await store.readStream(id);
        expect(read.map((e) => e.streamVersion)).toEqual([0, 1]);
        expect(read.every((e) => e.streamId === id)).toBe(true);
        expect(read[1].position).toBe(result.position);
      });

      it("refuses no_stream when the stream already exists, reporting its actual version", async () => {
        const id = stream("counter");
        await store.append(id, [event(), event()], "no_stream");
        const error = await store.append(id, [event()], "no_stream").catch((e: unknown) => e);
        expect(error).toBeInstanceOf(WrongExpectedVersionError);
        expect((error as WrongExpectedVersionError).actual).toBe(1);
        expect((error as WrongExpectedVersionError).streamId).toBe(id);
      });

      it("refuses a stale expected version and appends nothing", async () => {
        const id = stream("counter");
        await store.append(id, [event(), event(), event()], "no_stream");
        const error = await store.append(id, [event()], 0).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(WrongExpectedVersionError);
        expect((error as WrongExpectedVersionError).actual).toBe(2);
        expect((error as WrongExpectedVersionError).expected).toBe(0);
        expect(await store.readStream(id)).toHaveLength(3);
      });

      it("appends at the exact current version", async () => {
        const id = stream("counter");
        await store.append(id, [event()], "no_stream");
        const result = await store.append(id, [event()], 0);
        expect(result.nextExpectedVersion).toBe(1);
      });

      it("'any' appends whatever the stream's state", async () => {
        const id = stream("counter");
        expect((await store.append(id, [event()], "any")).nextExpectedVersion).toBe(0);
        expect((await store.append(id, [event()], "any")).nextExpectedVersion).toBe(1);
      });

      it("'stream_exists' refuses a missing stream and accepts an existing one", async () => {
        const id = stream("counter");
        const error = await store.append(id, [event()], "stream_exists").catch((e: unknown) => e);
        expect(error).toBeInstanceOf(WrongExpectedVersionError);
        expect((error as WrongExpectedVersionError).actual).toBe(-1);
        await store.append(id, [event()], "no_stream");
        expect((await store.append(id, [event()], "stream_exists")).nextExpectedVersion).toBe(1);
      });

      it("lets exactly one of several concurrent writers with the same expected version win", async () => {
        const id = stream("counter");
        await store.append(id, [event()], "no_stream");
        const outcomes = await Promise.allSettled(Array.from({ length: 5 }, () => store.append(id, [event()], 0)));
        const won = outcomes.filter((o) => o.status === "fulfilled");
        const lost = outcomes.filter((o): o is PromiseRejectedResult => o.status === "rejected");
        expect(won).toHaveLength(1);
        expect(lost).toHaveLength(4);
        for (const o of lost) expect(o.reason).toBeInstanceOf(WrongExpectedVersionError);
        expect(await store.readStream(id)).toHaveLength(2);
      });

      it("treats re-appending the same event ids as a retry: same result, nothing duplicated", async () => {
        const id = stream("counter");
        await store.append(id, [event()], "no_stream");
        const batch = [event(), event()];
        const first = await store.append(id, batch, 0);
        await store.append(stream("other"), [event()], "no_stream");
        const retry = await store.append(id, batch, 0);
        expect(retry).toEqual(first);
        expect(await store.readStream(id)).toHaveLength(3);
      });

      it("refuses a batch that only partly repeats an earlier append", async () => {
        const id = stream("counter");
        const earlier = event();
        await store.append(id, [earlier], "no_stream");
        await expect(store.append(id, [earlier, event()], "any")).rejects.toThrow();
        expect(await store.readStream(id)).toHaveLength(1);
      });
    });

    describe("reading", () => {
      it("reads a stream in version order, optionally from a version", async () => {
        const id = stream("counter");
        await store.append(id, [event("A"), event("B")], "no_stream");
        await store.append(stream("other"), [event("X")], "no_stream");
        await store.append(id, [event("C")], 1);
        expect((await store.readStream(id)).map((e) => e.type)).toEqual(["A", "B", "C"]);
        expect((await store.readStream(id, { fromVersion: 1 })).map((e) => e.type)).toEqual(["B", "C"]);
        expect(await store.readStream(stream("missing"))).toEqual([]);
      });

      it("reads the whole log in strictly increasing position order across streams, up to a limit", async () => {
        const start = await store.headPosition();
        await store.append(stream("a"), [event("A1")], "no_stream");
        await store.append(stream("b"), [event("B1"), event("B2")], "no_stream");
        await store.append(stream("a"), [event("A2")], 0);
        const all = await store.readAll(start, 100);
        expect(all.map((e) => e.type)).toEqual(["A1", "B1", "B2", "A2"]);
        for (let i = 1; i < all.length; i++) expect(all[i].position).toBeGreaterThan(all[i - 1].position);
        expect((await store.readAll(start, 2)).map((e) => e.type)).toEqual(["A1", "B1"]);
        expect((await store.readAll(all[1].position, 2)).map((e) => e.type)).toEqual(["B2", "A2"]);
      });

      it("reports the head position: the position of the last committed event", async () => {
        const before = await store.headPosition();
        expect(before).toBeGreaterThanOrEqual(0);
        const result = await store.append(stream("counter"), [event(), event()], "no_stream");
        expect(await store.headPosition()).toBe(result.position);
        expect(result.position).toBeGreaterThan(before);
      });

      it("returns data and metadata exactly as appended, with when it was recorded", async () => {
        const id = stream("document");
        const data = {
          title: "Ünïcødé “quotes” 📄",
          pages: 12,
          ratio: 0.125,
          ready: false,
          tags: ["a", "b"],
          nested: { deep: { list: [1, { x: null }] } },
          nothing: null,
        };
        const appended: NewEvent = {
          eventId: randomUUID(),
          type: "DocumentUploaded",
          schemaVersion: 3,
          data,
          metadata: {
            correlationId: "corr-1",
            causationId: "cause-1",
            actorId: "user-7",
            impersonatorId: "admin-1",
            subjectId: "user-7",
          },
        };
        await store.append(id, [appended], "no_stream");
        const [read] = await store.readStream(id);
        expect(read.eventId).toBe(appended.eventId);
        expect(read.type).toBe("DocumentUploaded");
        expect(read.schemaVersion).toBe(3);
        expect(read.data).toEqual(data);
        expect(read.metadata).toEqual(appended.metadata);
        expect(Number.isNaN(Date.parse(read.recordedAt))).toBe(false);
      });
    });

    describe("subscribing to the whole log", () => {
      it("delivers history first, then live events, in position order", async () => {
        const start = await store.headPosition();
        await store.append(stream("a"), [event("H1"), event("H2")], "no_stream");
        const events: RecordedEvent[] = [];
        let done!: () => void;
        const reached = new Promise<void>((resolve) => (done = resolve));
        const subscription = store.subscribeToAll({
          fromPosition: start,
          onEvent: async (e) => {
            events.push(e);
            if (events.length === 5) done();
          },
        });
        await store.append(stream("b"), [event("L1")], "no_stream");
        await store.append(stream("a"), [event("L2"), event("L3")], 1);
        await reached;
        await subscription.stop();
        expect(events.map((e) => e.type)).toEqual(["H1", "H2", "L1", "L2", "L3"]);
        for (let i = 1; i < events.length; i++) expect(events[i].position).toBeGreaterThan(events[i - 1].position);
      });

      it("starts strictly after a checkpoint in the middle of the log", async () => {
        const start = await store.headPosition();
        await store.append(stream("a"), [event("E1"), event("E2"), event("E3")], "no_stream");
        const [, second] = await store.readAll(start, 3);
        const { events, subscription } = await collect(second.position, 1);
        await subscription.stop();
        expect(events.map((e) => e.type)).toEqual(["E3"]);
      });

      it("waits for one event's handler before delivering the next", async () => {
        const start = await store.headPosition();
        await store.append(stream("a"), [event(), event(), event()], "no_stream");
        let active = 0;
        let maxActive = 0;
        let seen = 0;
        let done!: () => void;
        const reached = new Promise<void>((resolve) => (done = resolve));
        const subscription = store.subscribeToAll({
          fromPosition: start,
          onEvent: async () => {
            active++;
            maxActive = Math.max(maxActive, active);
            await new Promise((r) => setTimeout(r, 5));
            active--;
            if (++seen === 3) done();
          },
        });
        await reached;
        await subscription.stop();
        expect(maxActive).toBe(1);
      });

      it("stops delivering once stopped, after the handler in flight has finished", async () => {
        const start = await store.headPosition();
        await store.append(stream("a"), [event("E1")], "no_stream");
        let finished = false;
        const { events, subscription } = await collect(start, 1);
        await subscription.stop();
        await store.append(stream("a"), [event("E2")], 0);
        await new Promise((r) => setTimeout(r, 600));
        expect(events.map((e) => e.type)).toEqual(["E1"]);

        // stop() resolves only after a slow handler completes.
        let entered!: () => void;
        const handlerStarted = new Promise<void>((resolve) => (entered = resolve));
        const slow = store.subscribeToAll({
          fromPosition: start,
          onEvent: async () => {
            entered();
            await new Promise((r) => setTimeout(r, 100));
            finished = true;
          },
        });
        await handlerStarted;
        await slow.stop();
        expect(finished).toBe(true);
      });

      it("reports a failing handler through onError and delivers nothing more", async () => {
        const start = await store.headPosition();
        await store.append(stream("a"), [event("E1"), event("E2")], "no_stream");
        const delivered: string[] = [];
        const failure = new Promise<unknown>((resolve) => {
          store.subscribeToAll({
            fromPosition: start,
            onEvent: async (e) => {
              delivered.push(e.type);
              throw new Error("poison");
            },
            onError: resolve,
          });
        });
        expect(((await failure) as Error).message).toBe("poison");
        await store.append(stream("a"), [event("E3")], 1);
        await new Promise((r) => setTimeout(r, 300));
        expect(delivered).toEqual(["E1"]);
      });
    });
  });
}
