import { describe, expect, it } from "vitest";
import { formatBillingDate, percentUsed, usageRows } from "./usage";

describe("usage as the screens show it", () => {
  it("gives the percentage used as used / limit × 100, one decimal, and none for an unlimited counter", () => {
    expect(percentUsed(170, 200)).toBe(85);
    expect(percentUsed(1, 3)).toBe(33.3);
    expect(percentUsed(250, 200)).toBe(125);
    expect(percentUsed(5, null)).toBeNull();
  });

  it("lists every counter of a period in the screens' order", () => {
    const period = (used: number, limit: number | null) => ({ daily: { used, limit, remaining: 0 }, monthly: { used: used * 2, limit, remaining: 0 } });
    const rows = usageRows({ pages: period(10, 200), uploads: period(1, 100), messages: period(0, 500), workspaces: period(2, null) }, "monthly");
    expect(rows.map((r) => [r.label, r.used, r.limit, r.percent])).toEqual([
      ["Document pages", 20, 200, 10],
      ["Document uploads", 2, 100, 2],
      ["Messages", 0, 500, 0],
      ["Workspaces", 4, null, null],
    ]);
  });

  it("shows dates as dd/MM/yyyy hh:mm:ss a in India Standard Time", () => {
    expect(formatBillingDate("2026-03-31T18:30:05.000Z")).toBe("01/04/2026, 12:00:05 am");
    expect(formatBillingDate("2026-03-31T18:30:05.000Z", false)).toBe("01/04/2026");
  });
});
