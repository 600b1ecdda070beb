import { describe, expect, it } from "vitest";
import { fold } from "#domain/shared/decider";
import { DomainError } from "#domain/shared/domain-error";
import { allowanceMonth, type PageAllowanceCommand, type PageAllowanceEvent, pageAllowanceDecider } from "./page-allowance";

const now = new Date("2026-03-31T23:59:00Z");
const reserved = (documentId: string, pages: number): PageAllowanceEvent => ({
  type: "PagesReserved",
  data: { documentId, pages, limit: 200, reservedAt: now.toISOString() },
});
const given = (events: PageAllowanceEvent[]) => ({
  when: (command: PageAllowanceCommand) => pageAllowanceDecider.decide(command, fold(pageAllowanceDecider, events)),
});
const codeOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    return error instanceof DomainError ? { code: error.code, message: error.message } : error;
  }
  return null;
};

describe("a month's page allowance", () => {
  it("holds a document's measured pages while they fit under the plan's limit", () => {
    expect(given([reserved("a", 150)]).when({ type: "ReservePages", documentId: "b", pages: 50, limit: 200, now })).toEqual([reserved("b", 50)]);
  });

  it("refuses pages past the limit with the spec's message naming what is left", () => {
    expect(codeOf(() => given([reserved("a", 150)]).when({ type: "ReservePages", documentId: "b", pages: 51, limit: 200, now }))).toEqual({
      code: "PAGE_LIMIT",
      message: "Upload exceeds the total available page limit. You have 50 pages remaining.",
    });
  });

  it("replaces what a document held instead of counting it twice, and records nothing for the same count again", () => {
    expect(given([reserved("a", 150)]).when({ type: "ReservePages", documentId: "a", pages: 200, limit: 200, now })).toEqual([reserved("a", 200)]);
    expect(given([reserved("a", 150)]).when({ type: "ReservePages", documentId: "a", pages: 150, limit: 200, now })).toEqual([]);
  });

  it("gives a released document's pages back, once", () => {
    const released: PageAllowanceEvent = { type: "PagesReleased", data: { documentId: "a", releasedAt: now.toISOString() } };
    expect(given([reserved("a", 200)]).when({ type: "ReleasePages", documentId: "a", now })).toEqual([released]);
    expect(given([reserved("a", 200), released]).when({ type: "ReleasePages", documentId: "a", now })).toEqual([]);
    expect(given([reserved("a", 200), released]).when({ type: "ReservePages", documentId: "b", pages: 200, limit: 200, now })).toEqual([reserved("b", 200)]);
  });

  it("is kept per calendar month in UTC", () => {
    expect(allowanceMonth(now)).toBe("2026-03");
    expect(allowanceMonth(new Date("2026-04-01T00:00:00Z"))).toBe("2026-04");
  });
});
