import { describe, expect, it } from "vitest";
import { voiceParts } from "./limits";

describe("text for the server's voice", () => {
  it("is one part when short", () => {
    expect(voiceParts("  Hello there.  ")).toEqual(["Hello there."]);
  });

  it("is cut at sentence ends into parts within the limit", () => {
    const text = "First sentence is here. Second one follows it. Third closes.";
    const parts = voiceParts(text, 30);
    expect(parts).toEqual(["First sentence is here.", "Second one follows it.", "Third closes."]);
    expect(parts.join(" ")).toBe(text);
  });

  it("is cut at a space when a sentence is longer than the limit", () => {
    expect(voiceParts("aaaa bbbb cccc dddd", 10)).toEqual(["aaaa bbbb", "cccc dddd"]);
  });
});
