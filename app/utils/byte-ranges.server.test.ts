import { describe, expect, it } from "vitest";
import { holdsCurrent, rangeStillApplies, requestedRange } from "./byte-ranges.server";

describe("requestedRange", () => {
  it("reads first-last, open-ended and suffix ranges, clipped to the body", () => {
    expect(requestedRange("bytes=0-99", 1000)).toEqual({ kind: "partial", range: { start: 0, end: 99 } });
    expect(requestedRange("bytes=900-", 1000)).toEqual({ kind: "partial", range: { start: 900, end: 999 } });
    expect(requestedRange("bytes=990-5000", 1000)).toEqual({ kind: "partial", range: { start: 990, end: 999 } });
    expect(requestedRange("bytes=-100", 1000)).toEqual({ kind: "partial", range: { start: 900, end: 999 } });
    expect(requestedRange("bytes=-5000", 1000)).toEqual({ kind: "partial", range: { start: 0, end: 999 } });
  });

  it("answers the whole body to no range, several ranges, other units and malformed ones", () => {
    for (const header of [null, "", "bytes=0-1,5-9", "items=0-1", "bytes=9-1", "bytes=-", "bytes=a-b"]) {
      expect(requestedRange(header, 1000), String(header)).toEqual({ kind: "whole" });
    }
  });

  it("finds a range past the end, an empty suffix or any range of an empty body unsatisfiable", () => {
    expect(requestedRange("bytes=1000-", 1000)).toEqual({ kind: "unsatisfiable" });
    expect(requestedRange("bytes=-0", 1000)).toEqual({ kind: "unsatisfiable" });
    expect(requestedRange("bytes=0-", 0)).toEqual({ kind: "unsatisfiable" });
  });
});

describe("validators", () => {
  const etag = '"doc-1.1234"';

  it("If-None-Match matches the tag, weakly, in a list, or *", () => {
    expect(holdsCurrent(etag, etag)).toBe(true);
    expect(holdsCurrent(`"other", W/${etag}`, etag)).toBe(true);
    expect(holdsCurrent("*", etag)).toBe(true);
    expect(holdsCurrent('"other"', etag)).toBe(false);
    expect(holdsCurrent(null, etag)).toBe(false);
  });

  it("If-Range keeps the range only for the same strong tag", () => {
    expect(rangeStillApplies(null, etag)).toBe(true);
    expect(rangeStillApplies(etag, etag)).toBe(true);
    expect(rangeStillApplies(`W/${etag}`, etag)).toBe(false);
    expect(rangeStillApplies("Wed, 21 Oct 2015 07:28:00 GMT", etag)).toBe(false);
  });
});
