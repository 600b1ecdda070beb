import { afterEach, describe, expect, it } from "vitest";
import type { NewEvent, RecordedEvent } from "#application/ports/event-store";
import type { Reactor } from "#application/ports/reactor";
import { DomainError } from "#domain/shared/domain-error";
import { createReactorRunner } from "./reactor-runner";
import { openDatabase } from "./sqlite/open-database";
import { SqliteEventStore } from "./sqlite/sqlite-event-store";
import { SqliteReadModelStore } from "./sqlite/sqlite-read-model-store";

const event = (id: string, type: string): NewEvent => ({ eventId: id, type, schemaVersion: 1, data: {}, metadata: { correlationId: "t", actorId: "t" } });

/** Starts "shipments" for orders; a cancelled order is refused by the domain; the first failure of order-2 is a flaky network. */
function shipping() {
  const shipped: string[] = [];
  let flaky = true;
  const reactor: Reactor = {
    name: "shipping",
    eventTypes: ["OrderPlaced"],
    async react(recorded: RecordedEvent) {
      if (recorded.streamId === "order-cancelled") throw new DomainError("ORDER_CANCELLED", "This order was cancelled.");
      if (recorded.streamId === "order-2" && flaky) {
        flaky = false;
        throw new Error("connection reset");
      }
      shipped.push(recorded.streamId);
    },
  };
  return { reactor, shipped };
}

const dbs: { close(): void }[] = [];
afterEach(() => dbs.splice(0).forEach((db) => db.close()));

function stores() {
  const eventsDb = openDatabase(":memory:");
  const readDb = openDatabase(":memory:");
  dbs.push(eventsDb, readDb);
  return { events: new SqliteEventStore(eventsDb, { pollIntervalMs: 10 }), readModels: new SqliteReadModelStore(readDb) };
}

describe("event reactors", () => {
  it("react to their events once each, pass over a refusal by the domain, and retry a failure until it succeeds", async () => {
    const { events, readModels } = stores();
    const { reactor, shipped } = shipping();
    const runner = createReactorRunner(events, readModels, [reactor], undefined, { retryBaseMs: 5, retryMaxMs: 20 });
    await runner.start();
    await events.append("order-1", [event("a", "OrderPlaced"), event("b", "OrderPaid")], "no_stream");
    await events.append("order-cancelled", [event("c", "OrderPlaced")], "no_stream");
    const { position } = await events.append("order-2", [event("d", "OrderPlaced")], "no_stream");
    expect(await runner.waitForPosition(position, 5_000)).toBe(true);
    expect(shipped).toEqual(["order-1", "order-2"]);
    await runner.stop();
  });

  it("resume after a restart from their stored checkpoint, without reacting to an event twice", async () => {
    const { events, readModels } = stores();
    const first = shipping();
    const runner = createReactorRunner(events, readModels, [first.reactor]);
    await runner.start();
    const { position } = await events.append("order-1", [event("a", "OrderPlaced")], "no_stream");
    await runner.waitForPosition(position, 5_000);
    await runner.stop();

    const second = shipping();
    const restarted = createReactorRunner(events, readModels, [second.reactor]);
    await restarted.start();
    const next = await events.append("order-3", [event("e", "OrderPlaced")], "no_stream");
    expect(await restarted.waitForPosition(next.position, 5_000)).toBe(true);
    expect(second.shipped).toEqual(["order-3"]);
    await restarted.stop();
  });
});
