import type { ByteRange } from "#application/ports/blob-store";

/**
 * HTTP range requests (RFC 9110 §14) for immutable blobs: what a `Range`
 * header asks of a body of `size` bytes. One range only — a multi-range
 * request, or one we cannot read, is answered whole, as the RFC allows;
 * a well-formed range that lies past the end is unsatisfiable (416).
 */
export type RangeAnswer = { kind: "whole" } | { kind: "partial"; range: ByteRange } | { kind: "unsatisfiable" };

export function requestedRange(header: string | null, size: number): RangeAnswer {
  const match = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header ?? "");
  if (!match || (match[1] === "" && match[2] === "")) return { kind: "whole" };
  if (match[1] === "") {
    // "bytes=-N": the last N bytes.
    const suffix = Number(match[2]);
    if (suffix === 0 || size === 0) return { kind: "unsatisfiable" };
    return { kind: "partial", range: { start: Math.max(0, size - suffix), end: size - 1 } };
  }
  const start = Number(match[1]);
  const last = match[2] === "" ? Number.POSITIVE_INFINITY : Number(match[2]);
  if (last < start) return { kind: "whole" }; // invalid, so ignored (RFC 9110 §14.1.1)
  if (start >= size) return { kind: "unsatisfiable" };
  return { kind: "partial", range: { start, end: Math.min(last, size - 1) } };
}

/** `If-None-Match` (weak comparison, or `*`): does the client already hold this representation? */
export function holdsCurrent(ifNoneMatch: string | null, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, "");
  return ifNoneMatch.split(",").some((tag) => tag.trim() === "*" || opaque(tag) === opaque(etag));
}

/** `If-Range`: the range applies only if the client's copy is this exact (strong) version; a date never matches (we send no Last-Modified). */
export function rangeStillApplies(ifRange: string | null, etag: string): boolean {
  return ifRange === null || ifRange.trim() === etag;
}
