import { describe, expect, it } from "vitest";
import { coveringRead, firstPageSection } from "./pdf-document";

const CHUNK = 65_536;

/** The first `length` bytes of a PDF whose first object is `firstObject`. */
function head(firstObject: string, length = CHUNK): Uint8Array {
  const bytes = new Uint8Array(length).fill(0x20);
  bytes.set(new TextEncoder().encode(`%PDF-1.5\n%\u00e2\u00e3\n${firstObject}\nendobj\n`));
  return bytes;
}
/** freeculture.pdf's linearization dictionary: its first page's section ends at byte 281,799. */
const LINEARIZED = "1471 0 obj <</Linearized 1/L 2598727/O 1475/E 281799/N 352/T 2569263/H [ 496 3668]>>";

describe("the first-page section of a linearized PDF, read ahead", () => {
  it("runs from the end of the head to the chunk holding the section's end", () => {
    expect(firstPageSection(head(LINEARIZED), 2_598_727, CHUNK)).toEqual({ begin: CHUNK, end: 5 * CHUNK });
  });

  it("stops at the end of the file", () => {
    expect(firstPageSection(head("1 0 obj <</Linearized 1/L 300000/O 3/E 290000/N 2/T 299000/H [ 500 100]>>"), 300_000, CHUNK)).toEqual({ begin: CHUNK, end: 300_000 });
  });

  it("is nothing to read when the head already holds it", () => {
    expect(firstPageSection(head("1 0 obj <</Linearized 1/L 900000/O 3/E 40000/N 2/T 899000/H [ 500 100]>>"), 900_000, CHUNK)).toBeNull();
  });

  it("is not read ahead for a file that is not linearized, even with an /E entry elsewhere", () => {
    expect(firstPageSection(head("1 0 obj <</Type/Catalog/Pages 2 0 R>>\nendobj\n5 0 obj <</E 281799>>"), 2_598_727, CHUNK)).toBeNull();
  });

  it("is not read ahead past 2 MB (pdf.js then asks for what page 1 uses)", () => {
    expect(firstPageSection(head("1 0 obj <</Linearized 1/L 9000000/O 3/E 4000000/N 2/T 8999000/H [ 500 100]>>"), 9_000_000, CHUNK)).toBeNull();
  });

  it("ignores an /E past the end of the file", () => {
    expect(firstPageSection(head("1 0 obj <</Linearized 1/L 900000/O 3/E 950000/N 2/T 899000/H [ 500 100]>>"), 900_000, CHUNK)).toBeNull();
  });
});

describe("a range pdf.js asks for", () => {
  const reads = [
    { begin: 2_336_583, end: 2_598_727 },
    { begin: CHUNK, end: 5 * CHUNK },
  ];
  it("is answered by the read-ahead that holds all of it", () => {
    expect(coveringRead(reads, 2_359_296, 2_424_832)).toBe(reads[0]);
    expect(coveringRead(reads, 2_555_904, 2_598_727)).toBe(reads[0]);
    expect(coveringRead(reads, 4 * CHUNK, 5 * CHUNK)).toBe(reads[1]);
  });
  it("is fetched when no read-ahead holds all of it", () => {
    expect(coveringRead(reads, 2_293_760, 2_359_296)).toBeUndefined();
    expect(coveringRead(reads, 5 * CHUNK, 6 * CHUNK)).toBeUndefined();
  });
});
