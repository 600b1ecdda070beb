import { describe } from "vitest";
import { EventStoreDbEventStore } from "#infrastructure/production/eventstoredb-event-store";
import { serverFor, useServer } from "../support/server-availability";
import { eventStoreContract } from "./event-store.contract";

/** The event store contract of the SQLite adapter, run against EventStoreDB (EVENTSTORE_URL or Testcontainers). */
const plan = await serverFor("eventstoredb");

describe.skipIf(plan.skip !== undefined)(`EventStoreDB (${plan.skip ?? plan.source})`, () => {
  const server = plan.skip === undefined ? useServer(plan) : null;
  eventStoreContract("EventStoreDB", async () => {
    if (!server) throw new Error("unreachable: the suite is skipped without a server");
    const store = await EventStoreDbEventStore.fromConnectionString(server().url);
    return { store, cleanup: () => store.close() };
  });
});
