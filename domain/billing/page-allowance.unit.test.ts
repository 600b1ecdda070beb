import { describe, expect, it } from "vitest";
import { DeciderSpecification } from "#domain/shared/decider-specification";
import { allowanceMonth, type PageAllowanceEvent, pageAllowanceDecider } from "./page-allowance";

const now = new Date("2026-03-31T23:59:00Z");
const spec = DeciderSpecification.for(pageAllowanceDecider);
const reserved = (documentId: string, pages: number, limit: number | null = 200): PageAllowanceEvent => ({
  type: "PagesReserved",
  data: { documentId, pages, limit, reservedAt: now.toISOString() },
});
const released = (documentId: string): PageAllowanceEvent => ({ type: "PagesReleased", data: { documentId, releasedAt: now.toISOString() } });

describe("a month's page allowance", () => {
  it("holds a document's measured pages while they fit under the plan's limit", () => {
    spec.given([reserved("a", 150)]).when({ type: "ReservePages", documentId: "b", pages: 50, limit: 200, now }).then([reserved("b", 50)]);
  });

  it("refuses pages past the limit with the spec's message naming what is left", () => {
    spec
      .given([reserved("a", 150)])
      .when({ type: "ReservePages", documentId: "b", pages: 51, limit: 200, now })
      .thenThrows("PAGE_LIMIT", "Upload exceeds the total available page limit. You have 50 pages remaining.");
  });

  it("replaces what a document held instead of counting it twice, and records nothing for the same count again", () => {
    spec.given([reserved("a", 150)]).when({ type: "ReservePages", documentId: "a", pages: 200, limit: 200, now }).then([reserved("a", 200)]);
    spec.given([reserved("a", 150)]).when({ type: "ReservePages", documentId: "a", pages: 150, limit: 200, now }).thenNothing();
  });

  it("holds any count on a plan without a page limit", () => {
    spec.given([reserved("a", 5000, null)]).when({ type: "ReservePages", documentId: "b", pages: 5000, limit: null, now }).then([reserved("b", 5000, null)]);
  });

  it("gives a released document's pages back, once", () => {
    spec.given([reserved("a", 200)]).when({ type: "ReleasePages", documentId: "a", now }).then([released("a")]);
    spec.given([reserved("a", 200), released("a")]).when({ type: "ReleasePages", documentId: "a", now }).thenNothing();
    spec.given([reserved("a", 200), released("a")]).when({ type: "ReservePages", documentId: "b", pages: 200, limit: 200, now }).then([reserved("b", 200)]);
  });

  it("is kept per calendar month in UTC", () => {
    expect(allowanceMonth(now)).toBe("2026-03");
    expect(allowanceMonth(new Date("2026-04-01T00:00:00Z"))).toBe("2026-04");
  });
});
