import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openDatabase } from "#infrastructure/embedded/sqlite/open-database";
import { SqliteReadModelStore } from "#infrastructure/embedded/sqlite/sqlite-read-model-store";
import { readModelStoreContract } from "./read-model-store.contract";

readModelStoreContract("SQLite", async () => {
  const dir = mkdtempSync(join(tmpdir(), "docuchat-rm-"));
  const db = openDatabase(join(dir, "read-models.db"));
  const store = new SqliteReadModelStore(db);
  return {
    store,
    cleanup: async () => {
      await store.close();
      db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});

describe("SqliteReadModelStore", () => {
  it("refuses collection names that are not lower-case identifiers", () => {
    const store = new SqliteReadModelStore(openDatabase(":memory:"));
    expect(() => store.collection("users; DROP TABLE x")).toThrow();
    expect(() => store.collection("Users")).toThrow();
  });

  it("answers equality and range queries from the expression index", async () => {
    const db = openDatabase(":memory:");
    const store = new SqliteReadModelStore(db);
    const users = store.collection<{ id: string; email: string }>("users");
    await users.ensureIndex(["email"], { unique: true });
    await users.upsert({ id: "u1", email: "a@example.com" });
    const plan = db
      .prepare("EXPLAIN QUERY PLAN SELECT doc FROM rm_users WHERE json_extract(doc, '$.email') = ? AND json_type(doc, '$.email') = 'text'")
      .all("a@example.com") as { detail: string }[];
    expect(plan.map((p) => p.detail).join(" ")).toMatch(/USING INDEX rm_users__email__unique/);
    db.close();
  });
});
