import { describe, expect, it } from "vitest";
import type { DomainEvent } from "#domain/shared/decider";
import { RecentAggregates } from "./recent-aggregates";

type Noted = DomainEvent<"Noted", { n: number }>;
const folded = (version: number) => ({ state: version, version, events: Array.from({ length: version + 1 }, (_, n): Noted => ({ type: "Noted", data: { n } })) });

describe("recently used aggregates", () => {
  it("keeps at most its budget of events, dropping the least recently used streams first", () => {
    const recent = new RecentAggregates<Noted, number>(6);
    recent.remember("a", folded(1));
    recent.remember("b", folded(1));
    recent.remember("c", folded(1));
    recent.get("a");
    recent.remember("d", folded(1));
    expect(["a", "b", "c", "d"].filter((id) => recent.get(id))).toEqual(["a", "c", "d"]);
  });

  it("does not replace a state with one folded from an older version", () => {
    const recent = new RecentAggregates<Noted, number>();
    recent.remember("a", folded(3));
    recent.remember("a", folded(2));
    expect(recent.get("a")?.version).toBe(3);
    recent.remember("a", folded(4));
    expect(recent.get("a")?.version).toBe(4);
  });

  it("keeps nothing of a stream longer than its whole budget", () => {
    const recent = new RecentAggregates<Noted, number>(3);
    recent.remember("a", folded(1));
    recent.remember("long", folded(5));
    expect(recent.get("long")).toBeUndefined();
    expect(recent.get("a")).toBeDefined();
  });
});
