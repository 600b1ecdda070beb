import { describe, expect, it } from "vitest";
import { DeciderSpecification } from "#domain/shared/decider-specification";
import { type CounterLimits, usageDay, usageMonth, usageMonthKey } from "./plans";
import { type UsageEvent, usageDecider } from "./usage";

const now = new Date("2026-03-31T12:00:00Z");
const spec = DeciderSpecification.for(usageDecider);
const pages: CounterLimits = { daily: 200, monthly: 200 };
const reserved = (key: string, amount: number, day = "2026-03-31", limits = pages, counter: "pages" | "messages" = "pages"): UsageEvent => ({
  type: "UsageReserved",
  data: { counter, key, amount, day, limits, reservedAt: now.toISOString() },
});
const released = (key: string): UsageEvent => ({ type: "UsageReleased", data: { counter: "pages", key, releasedAt: now.toISOString() } });
const reserve = (key: string, amount: number, limits = pages, day = "2026-03-31") => ({ type: "ReserveUsage" as const, counter: "pages" as const, key, amount, day, limits, now });

describe("a month's usage", () => {
  it("holds a document's measured pages while they fit under the plan's limits", () => {
    spec.given([reserved("a", 150)]).when(reserve("b", 50)).then([reserved("b", 50)]);
  });

  it("refuses pages past the limit with the spec's message naming what is left", () => {
    spec.given([reserved("a", 150)]).when(reserve("b", 51)).thenThrows("PAGE_LIMIT", "Upload exceeds the total available page limit. You have 50 pages remaining.");
  });

  it("replaces what a key held instead of counting it twice, and records nothing for the same amount again", () => {
    spec.given([reserved("a", 150)]).when(reserve("a", 200)).then([reserved("a", 200)]);
    spec.given([reserved("a", 150)]).when(reserve("a", 150)).thenNothing();
  });

  it("counts a day's limit only over that day, and the month's over every day", () => {
    const limits: CounterLimits = { daily: 100, monthly: 500 };
    spec.given([reserved("a", 100, "2026-03-30", limits)]).when(reserve("b", 100, limits)).then([reserved("b", 100, "2026-03-31", limits)]);
    spec.given([reserved("a", 90, "2026-03-31", limits)]).when(reserve("b", 11, limits)).thenThrows("PAGE_LIMIT", "Upload exceeds the total available page limit. You have 10 pages remaining.");
    spec.given([reserved("a", 450, "2026-03-01", limits)]).when(reserve("b", 51, limits)).thenThrows("PAGE_LIMIT");
  });

  it("names the day or the month when a message is refused", () => {
    const limits: CounterLimits = { daily: 1, monthly: 500 };
    spec
      .given([reserved("q1", 1, "2026-03-31", limits, "messages")])
      .when({ type: "ReserveUsage", counter: "messages", key: "q2", amount: 1, day: "2026-03-31", limits, now })
      .thenThrows("MESSAGE_LIMIT", "You have used the 1 messages of your plan today.");
  });

  it("keeps counters apart and holds anything on a plan without limits", () => {
    spec.given([reserved("q1", 1, "2026-03-31", pages, "messages")]).when(reserve("a", 200)).then([reserved("a", 200)]);
    const none: CounterLimits = { daily: null, monthly: null };
    spec.given([reserved("a", 5000, "2026-03-31", none)]).when(reserve("b", 5000, none)).then([reserved("b", 5000, "2026-03-31", none)]);
  });

  it("gives a released key's amount back, once", () => {
    spec.given([reserved("a", 200)]).when({ type: "ReleaseUsage", counter: "pages", key: "a", now }).then([released("a")]);
    spec.given([reserved("a", 200), released("a")]).when({ type: "ReleaseUsage", counter: "pages", key: "a", now }).thenNothing();
    spec.given([reserved("a", 200), released("a")]).when(reserve("b", 200)).then([reserved("b", 200)]);
  });

  it("is kept per calendar month and day in India Standard Time", () => {
    expect(usageMonth(new Date("2026-03-31T18:29:00Z"))).toBe("2026-03");
    expect(usageMonth(new Date("2026-03-31T18:30:00Z"))).toBe("2026-04");
    expect(usageDay(new Date("2026-03-31T18:30:00Z"))).toBe("2026-04-01");
    expect(usageMonthKey(new Date("2026-03-31T18:30:00Z"))).toBe("2026:4");
  });
});
