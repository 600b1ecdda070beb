import { describe } from "vitest";
import { MongoReadModelStore } from "#infrastructure/production/mongodb-read-model-store";
import { serverFor, useServer } from "../support/server-availability";
import { readModelStoreContract } from "./read-model-store.contract";

/** The read-model contract of the SQLite adapter, run against MongoDB (MONGODB_URL or Testcontainers; a replica set, for transactions). */
const plan = await serverFor("mongodb");

describe.skipIf(plan.skip !== undefined)(`MongoDB (${plan.skip ?? plan.source})`, () => {
  const server = plan.skip === undefined ? useServer(plan) : null;
  readModelStoreContract("MongoDB", async () => {
    if (!server) throw new Error("unreachable: the suite is skipped without a server");
    // The contract prefixes its collections per test, so one database serves every test.
    const store = await MongoReadModelStore.connect(server().url, { database: "docuchat_contract" });
    return { store, cleanup: () => store.close() };
  });
});
