import { randomUUID } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Collection, ReadModelStore } from "#application/ports/read-model-store";

export interface ReadModelStoreFixture {
  store: ReadModelStore;
  cleanup(): Promise<void>;
}

interface Person {
  id: string;
  name: string;
  age?: number;
  active?: boolean;
  team?: string | null;
}

const PEOPLE: Person[] = [
  { id: "p1", name: "Ada Lovelace", age: 36, active: true, team: "red" },
  { id: "p2", name: "Alan Turing", age: 41, active: false, team: "blue" },
  { id: "p3", name: "Grace Hopper", age: 85, active: true, team: null },
  { id: "p4", name: "Émile Borel", age: 85, active: true },
  { id: "p5", name: "Barbara Liskov", age: 30, active: false, team: "red" },
];

/** Shared guarantees of every ReadModelStore adapter (ARCHITECTURE §3, §4). */
export function readModelStoreContract(name: string, makeStore: () => Promise<ReadModelStoreFixture>): void {
  describe(`ReadModelStore contract: ${name}`, () => {
    let fixture: ReadModelStoreFixture;
    let store: ReadModelStore;
    // Unique per test so adapters backed by a shared server start from empty collections.
    let prefix: string;
    let people: Collection<Person>;

    beforeEach(async () => {
      fixture = await makeStore();
      store = fixture.store;
      prefix = `t${randomUUID().replace(/-/g, "").slice(0, 8)}_`;
      people = store.collection<Person>(`${prefix}people`);
    });
    afterEach(async () => {
      await store.dropCollections(prefix);
      await fixture.cleanup();
    });

    const ids = (docs: { id: string }[]) => docs.map((d) => d.id);
    const seed = async () => {
      for (const person of PEOPLE) await people.upsert(person);
    };

    describe("documents", () => {
      it("stores a document and gives it back by id", async () => {
        await people.upsert(PEOPLE[0]);
        expect(await people.get("p1")).toEqual(PEOPLE[0]);
        expect(await people.get("missing")).toBeNull();
      });

      it("upsert replaces the whole document", async () => {
        await people.upsert(PEOPLE[0]);
        await people.upsert({ id: "p1", name: "Countess Lovelace" });
        expect(await people.get("p1")).toEqual({ id: "p1", name: "Countess Lovelace" });
      });

      it("patch merges top-level fields into an existing document and ignores a missing one", async () => {
        await people.upsert(PEOPLE[0]);
        await people.patch("p1", { age: 37, team: "green" });
        expect(await people.get("p1")).toEqual({ ...PEOPLE[0], age: 37, team: "green" });
        await people.patch("missing", { age: 1 });
        expect(await people.get("missing")).toBeNull();
      });

      it("delete removes one document; deleteMany removes the matching ones and says how many", async () => {
        await seed();
        await people.delete("p1");
        expect(await people.get("p1")).toBeNull();
        expect(await people.deleteMany({ active: false })).toBe(2);
        expect(ids(await people.find())).toEqual(["p3", "p4"]);
      });
    });

    describe("finding", () => {
      beforeEach(seed);

      it("matches equality on strings, numbers, booleans and null (null also matches a missing field)", async () => {
        expect(ids(await people.find({ team: "red" }))).toEqual(["p1", "p5"]);
        expect(ids(await people.find({ age: 85 }))).toEqual(["p3", "p4"]);
        expect(ids(await people.find({ active: false }))).toEqual(["p2", "p5"]);
        expect(ids(await people.find({ team: null }))).toEqual(["p3", "p4"]);
        expect(ids(await people.find({ id: "p2" }))).toEqual(["p2"]);
        expect(ids(await people.find({ team: { $eq: "blue" } }))).toEqual(["p2"]);
      });

      it("does not confuse types: the number 1 is not true and '85' is not 85", async () => {
        expect(await people.find({ active: 1 })).toEqual([]);
        expect(await people.find({ age: "85" })).toEqual([]);
        expect(ids(await people.find({ active: { $gt: false } }))).toEqual(["p1", "p3", "p4"]);
        expect(await people.find({ active: { $gt: 0 } })).toEqual([]);
      });

      it("$ne also matches documents without the field", async () => {
        expect(ids(await people.find({ team: { $ne: "red" } }))).toEqual(["p2", "p3", "p4"]);
        expect(ids(await people.find({ active: { $ne: true } }))).toEqual(["p2", "p5"]);
        expect(ids(await people.find({ team: { $ne: null } }))).toEqual(["p1", "p2", "p5"]);
      });

      it("$in matches any of the listed values; an empty list matches nothing", async () => {
        expect(ids(await people.find({ team: { $in: ["blue", "red"] } }))).toEqual(["p1", "p2", "p5"]);
        expect(ids(await people.find({ team: { $in: ["blue", null] } }))).toEqual(["p2", "p3", "p4"]);
        expect(ids(await people.find({ id: { $in: ["p4", "p1"] } }))).toEqual(["p1", "p4"]);
        expect(await people.find({ team: { $in: [] } })).toEqual([]);
      });

      it("compares ranges with $gt, $gte, $lt, $lte, combined with AND", async () => {
        expect(ids(await people.find({ age: { $gt: 41 } }))).toEqual(["p3", "p4"]);
        expect(ids(await people.find({ age: { $gte: 41 } }))).toEqual(["p2", "p3", "p4"]);
        expect(ids(await people.find({ age: { $lt: 36 } }))).toEqual(["p5"]);
        expect(ids(await people.find({ age: { $lte: 36 } }))).toEqual(["p1", "p5"]);
        expect(ids(await people.find({ age: { $gt: 30, $lt: 85 } }))).toEqual(["p1", "p2"]);
        expect(ids(await people.find({ name: { $gte: "B", $lt: "H" } }))).toEqual(["p5", "p3"].sort());
      });

      it("$exists tells present fields (even null) from missing ones", async () => {
        expect(ids(await people.find({ team: { $exists: true } }))).toEqual(["p1", "p2", "p3", "p5"]);
        expect(ids(await people.find({ team: { $exists: false } }))).toEqual(["p4"]);
      });

      it("$icontains finds by part of a name, ignoring case (accented letters too)", async () => {
        expect(ids(await people.find({ name: { $icontains: "LOVE" } }))).toEqual(["p1"]);
        expect(ids(await people.find({ name: { $icontains: "ar" } }))).toEqual(["p5"]);
        expect(ids(await people.find({ name: { $icontains: "émile" } }))).toEqual(["p4"]);
        expect(ids(await people.find({ name: { $icontains: "a" }, active: true }))).toEqual(["p1", "p3"]);
      });

      it("treats filter values as data, never as query syntax", async () => {
        expect(await people.find({ name: "x' OR '1'='1" })).toEqual([]);
        expect(await people.find({ name: { $icontains: "%" } })).toEqual([]);
        expect(await people.find({ name: { $icontains: "_" } })).toEqual([]);
      });

      it("rejects field names that are not plain identifiers", async () => {
        const hostile = { "name') OR 1=1 --": "x" } as unknown as Partial<Record<keyof Person, string>>;
        await expect(people.find(hostile)).rejects.toThrow();
      });

      it("sorts by one or more fields, then pages with limit and offset", async () => {
        const byAgeDescThenName = await people.find({}, {
          sort: [
            { field: "age", direction: "desc" },
            { field: "name", direction: "asc" },
          ],
        });
        // Strings sort by code point ("É" after "G"), as MongoDB's default collation does.
        expect(ids(byAgeDescThenName)).toEqual(["p3", "p4", "p2", "p1", "p5"]);
        const page = await people.find({}, { sort: [{ field: "age", direction: "asc" }], limit: 2, offset: 1 });
        expect(ids(page)).toEqual(["p1", "p2"]);
        expect(ids(await people.find({}, { sort: [{ field: "name", direction: "asc" }], offset: 3 }))).toHaveLength(2);
      });

      it("findOne gives the first match or null; count counts matches", async () => {
        expect((await people.findOne({ team: "blue" }))?.id).toBe("p2");
        expect(await people.findOne({ team: "purple" })).toBeNull();
        expect(await people.count()).toBe(5);
        expect(await people.count({ active: true })).toBe(3);
      });
    });

    describe("indexes", () => {
      it("ensureIndex is idempotent and a unique index refuses a second document with the same value", async () => {
        await people.ensureIndex(["team"]);
        await people.ensureIndex(["team"]);
        await people.ensureIndex(["name"], { unique: true });
        await people.ensureIndex(["name"], { unique: true });
        await people.upsert({ id: "p1", name: "Ada" });
        await expect(people.upsert({ id: "p2", name: "Ada" })).rejects.toThrow();
        await people.upsert({ id: "p1", name: "Ada", age: 36 });
        expect(await people.count()).toBe(1);
        expect(ids(await people.find({ name: "Ada" }))).toEqual(["p1"]);
      });
    });

    describe("transactions", () => {
      it("commits the writes of a transaction together", async () => {
        const teams = store.collection<{ id: string; size: number }>(`${prefix}teams`);
        const result = await store.transaction(async () => {
          await people.upsert(PEOPLE[0]);
          await teams.upsert({ id: "red", size: 1 });
          return "done";
        });
        expect(result).toBe("done");
        expect(await people.get("p1")).not.toBeNull();
        expect(await teams.get("red")).toEqual({ id: "red", size: 1 });
      });

      it("rolls back every write of a transaction that throws", async () => {
        const teams = store.collection<{ id: string; size: number }>(`${prefix}teams`);
        await teams.upsert({ id: "red", size: 1 });
        await expect(
          store.transaction(async () => {
            await people.upsert(PEOPLE[0]);
            await teams.patch("red", { size: 2 });
            throw new Error("projector failed");
          }),
        ).rejects.toThrow("projector failed");
        expect(await people.get("p1")).toBeNull();
        expect(await teams.get("red")).toEqual({ id: "red", size: 1 });
      });

      it("runs a nested transaction inside the outer one", async () => {
        await expect(
          store.transaction(async () => {
            await store.transaction(async () => {
              await people.upsert(PEOPLE[0]);
            });
            throw new Error("outer failed");
          }),
        ).rejects.toThrow("outer failed");
        expect(await people.get("p1")).toBeNull();
      });

      it("keeps writes made outside a transaction from slipping into it", async () => {
        let release!: () => void;
        const gate = new Promise<void>((resolve) => (release = resolve));
        const tx = store
          .transaction(async () => {
            await people.upsert(PEOPLE[0]);
            await gate;
            throw new Error("rolled back");
          })
          .catch(() => "rolled back");
        const outside = people.upsert(PEOPLE[1]);
        release();
        expect(await tx).toBe("rolled back");
        await outside;
        expect(ids(await people.find())).toEqual(["p2"]);
      });
    });

    describe("collections", () => {
      it("lists collections and drops those whose name starts with a prefix", async () => {
        await store.collection<Person>(`${prefix}a_one`).upsert(PEOPLE[0]);
        await store.collection<Person>(`${prefix}a_two`).upsert(PEOPLE[0]);
        await store.collection<Person>(`${prefix}b_one`).upsert(PEOPLE[0]);
        const mine = (names: string[]) => names.filter((n) => n.startsWith(prefix)).sort();
        expect(mine(await store.listCollections())).toEqual([`${prefix}a_one`, `${prefix}a_two`, `${prefix}b_one`]);
        await store.dropCollections(`${prefix}a_`);
        expect(mine(await store.listCollections())).toEqual([`${prefix}b_one`]);
        // A dropped collection can be used again and starts empty.
        expect(await store.collection<Person>(`${prefix}a_one`).count()).toBe(0);
      });
    });
  });
}
