import { describe, expect, it } from "vitest";
import { formatTimestamp, segmentForQuote, transcriptPages } from "./transcript-pages";

const seg = (startSeconds: number, text: string) => ({ startSeconds, endSeconds: startSeconds + 4, text });

describe("a transcript's pages", () => {
  it("group the segments by the three-minute stretch they start in, each page headed by its time range", () => {
    const pages = transcriptPages([seg(2, "welcome to the lecture"), seg(170, "first topic"), seg(185, "second topic"), seg(600, "questions")]);
    expect(pages.map((p) => p.pageNumber)).toEqual([1, 2, 3]);
    expect(pages[0]).toMatchObject({ text: "[0:02 – 2:54]\nWelcome to the lecture.\nFirst topic.", timeRange: { startSeconds: 2, endSeconds: 174 } });
    expect(pages[1]!.text).toBe("[3:05 – 3:09]\nSecond topic.");
    expect(pages[2]!.segments).toEqual([seg(600, "questions")]);
  });

  it("leave out empty segments, and make no page of a silent stretch", () => {
    expect(transcriptPages([seg(0, "  "), seg(400, "hello")])).toHaveLength(1);
    expect(transcriptPages([])).toEqual([]);
  });

  it("write hours when the recording runs past one", () => {
    expect(formatTimestamp(3725)).toBe("1:02:05");
    expect(formatTimestamp(65.9)).toBe("1:05");
  });
});

describe("the segment a citation's quote plays from", () => {
  const segments = [seg(10, "the budget meeting is on friday"), seg(20, "we will hire two engineers"), seg(30, "send expenses to finance")];

  it("is the segment where the quote's first words are, even when the quote runs on into the next", () => {
    expect(segmentForQuote(segments, "hire two engineers send expenses")?.startSeconds).toBe(20);
    expect(segmentForQuote(segments, "Send expenses to Finance.")?.startSeconds).toBe(30);
  });

  it("is the page's first segment when the quote is not found or absent", () => {
    expect(segmentForQuote(segments, "nothing like this")?.startSeconds).toBe(10);
    expect(segmentForQuote(segments, null)?.startSeconds).toBe(10);
  });
});
