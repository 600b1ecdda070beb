import { describe, expect, it } from "vitest";
import { esdbEventId } from "./eventstoredb-event-store";
import { compileMongoFilter } from "./mongodb-read-model-store";

/**
 * The pure parts of the server adapters, checked without their servers. The
 * adapters themselves pass (or honestly skip) the shared contract suites in
 * tests/contracts/*.production.test.ts.
 */
describe("MongoDB filter compilation", () => {
  it("maps the port's filter language onto MongoDB operators, id onto _id", () => {
    expect(compileMongoFilter({})).toEqual({});
    expect(compileMongoFilter({ id: "p1" })).toEqual({ _id: { $eq: "p1" } });
    expect(compileMongoFilter({ team: null, age: { $gt: 30, $lt: 85 } })).toEqual({
      $and: [{ team: { $eq: null } }, { age: { $gt: 30 } }, { age: { $lt: 85 } }],
    });
    expect(compileMongoFilter({ team: { $in: ["a", null] }, active: { $ne: true }, x: { $exists: false } })).toEqual({
      $and: [{ team: { $in: ["a", null] } }, { active: { $ne: true } }, { x: { $exists: false } }],
    });
  });

  it("keeps values as data: an operator-looking string is compared, regex characters are escaped", () => {
    expect(compileMongoFilter({ name: "$gt" })).toEqual({ name: { $eq: "$gt" } });
    expect(compileMongoFilter({ name: { $icontains: "a.b*(c)" } })).toEqual({ name: { $regex: "a\\.b\\*\\(c\\)", $options: "i" } });
  });

  it("matches nothing when ordering against null (as the SQLite adapter)", () => {
    expect(compileMongoFilter({ age: { $gte: null } })).toEqual({ age: { $in: [] } });
  });

  it("refuses field names that are not plain identifiers ($where, dotted paths, injection)", () => {
    for (const field of ["$where", "a.b", "name') OR 1=1 --", ""]) {
      expect(() => compileMongoFilter({ [field]: "x" })).toThrow(/Invalid field name/);
    }
    expect(() => compileMongoFilter({ age: { $regex: "x" } as never })).toThrow(/Unsupported filter operator/);
  });
});

describe("EventStoreDB event ids", () => {
  it("keeps UUIDs and maps other application ids to a stable UUIDv5", () => {
    const uuid = "0192f3c4-5b6a-7c8d-9e0f-123456789abc";
    expect(esdbEventId(uuid)).toBe(uuid);
    expect(esdbEventId(uuid.toUpperCase())).toBe(uuid);
    const derived = esdbEventId("account-deletion-u1-step-2");
    expect(derived).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(esdbEventId("account-deletion-u1-step-2")).toBe(derived);
    expect(esdbEventId("account-deletion-u1-step-3")).not.toBe(derived);
  });
});
