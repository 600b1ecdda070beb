import { describe, expect, it } from "vitest";
import { shouldStartAppTour } from "./tour-state";

describe("the app tour starts by itself", () => {
  it("for a new user who has not seen it", () => {
    expect(shouldStartAppTour({ usageTotal: 0, seen: false, shownThisSession: false })).toBe(true);
  });

  it("not for someone who already uploaded, created or asked something", () => {
    expect(shouldStartAppTour({ usageTotal: 1, seen: false, shownThisSession: false })).toBe(false);
  });

  it("not again once seen on this browser, nor twice in one session", () => {
    expect(shouldStartAppTour({ usageTotal: 0, seen: true, shownThisSession: false })).toBe(false);
    expect(shouldStartAppTour({ usageTotal: 0, seen: false, shownThisSession: true })).toBe(false);
  });
});
