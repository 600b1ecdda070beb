import { existsSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { TOKENS } from "#application/tokens";
import { SqliteSearchIndex } from "./embedded/sqlite/sqlite-search-index";
import { QdrantSearchIndex } from "./production/qdrant-search-index";
import { createTestRuntime } from "../tests/support/test-runtime";

describe("runtime wiring", () => {
  it("binds the Qdrant search index when QDRANT_URL is set (no search.db), and starts without reaching Qdrant", async () => {
    // Nothing listens on port 9: the index connects on first use, not at start-up.
    const { runtime, dataDir, cleanup } = await createTestRuntime({ env: { QDRANT_URL: "http://127.0.0.1:9", QDRANT_COLLECTION: "wired_chunks" } });
    try {
      const index = runtime.get<QdrantSearchIndex>(TOKENS.SearchIndex);
      expect(index).toBeInstanceOf(QdrantSearchIndex);
      expect(index.collection).toBe("wired_chunks");
      expect(existsSync(path.join(dataDir, "search.db"))).toBe(false);
    } finally {
      await cleanup();
    }
  });

  it("keeps the embedded search index otherwise", async () => {
    const { runtime, dataDir, cleanup } = await createTestRuntime();
    try {
      expect(runtime.get(TOKENS.SearchIndex)).toBeInstanceOf(SqliteSearchIndex);
      expect(existsSync(path.join(dataDir, "search.db"))).toBe(true);
    } finally {
      await cleanup();
    }
  });
});
