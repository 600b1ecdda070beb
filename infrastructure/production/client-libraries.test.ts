import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { createTestRuntime } from "../../tests/support/test-runtime";

/** The packages in node_modules this process has loaded so far. */
function loadedPackages(): Set<string> {
  const files = Object.keys(createRequire(import.meta.url).cache);
  return new Set(files.map((file) => /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(file)?.[1]).filter((name): name is string => Boolean(name)));
}

// Fast start (issue 42, decision 253): importing them took about 40 % of the server bundle's load, in each process.
const PRODUCTION_CLIENTS = [
  "@temporalio/client",
  "@eventstore/db-client",
  "bullmq",
  "ioredis",
  "mongodb",
  "kafkajs",
  "@qdrant/js-client-rest",
  "@aws-sdk/client-s3",
  "@aws-sdk/s3-request-presigner",
  "razorpay",
];
// Stripe's SDK loads as an ES module, which leaves no trace in the require cache this test reads.

describe("a start on the embedded defaults", () => {
  it("loads none of the production adapters' client libraries, which are imported only when their variable selects them", async () => {
    const { cleanup } = await createTestRuntime();
    try {
      const loaded = loadedPackages();
      expect(loaded.has("better-sqlite3")).toBe(true);
      expect(PRODUCTION_CLIENTS.filter((name) => loaded.has(name))).toEqual([]);
    } finally {
      await cleanup();
    }
  });
});
