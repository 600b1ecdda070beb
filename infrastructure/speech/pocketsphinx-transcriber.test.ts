import { describe, expect, it } from "vitest";
import { parseTimedWords, toSegments } from "./pocketsphinx-transcriber";

const OUTPUT = `the budget meeting
<s> 0.000 0.210 0.999500
the 0.220 0.310 0.518002
budget 0.320 0.900 0.446242
<sil> 0.910 1.000 0.7
meeting(2) 1.010 1.500 0.64
</s> 1.510 1.600 1.000000
on friday
<s> 3.000 3.100 1.0
on 3.110 3.300 0.9
[NOISE] 3.300 3.400 0.2
friday 3.410 4.000 0.8
</s> 4.000 4.100 1.0
`;

describe("pocketsphinx's timed output", () => {
  it("is read as words with times; alternates lose their (n) and markers are kept apart", () => {
    const words = parseTimedWords(OUTPUT);
    expect(words.filter((w) => w.word).map((w) => w.word)).toEqual(["the", "budget", "meeting", "on", "friday"]);
    expect(words.find((w) => w.word === "meeting")).toMatchObject({ start: 1.01, end: 1.5 });
  });

  it("becomes one segment per utterance, shifted by the piece's place in the recording", () => {
    expect(toSegments(parseTimedWords(OUTPUT), 300)).toEqual([
      { startSeconds: 300.22, endSeconds: 301.5, text: "the budget meeting" },
      { startSeconds: 303.11, endSeconds: 304, text: "on friday" },
    ]);
  });
});
