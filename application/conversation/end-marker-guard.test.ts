import { describe, expect, it } from "vitest";
import { END_MARKER, EndMarkerGuard } from "./end-marker-guard";

const run = (chunks: string[]) => {
  const guard = new EndMarkerGuard();
  return chunks.map((c) => guard.push(c)).join("") + guard.flush();
};

describe("the end-marker guard", () => {
  it("passes ordinary text through unchanged", () => {
    expect(run(["The Nile ", "is long."])).toBe("The Nile is long.");
  });

  it("keeps a quoted [END] from ending the stream, even split across chunks", () => {
    expect(run(["see [EN", "D] here"])).not.toContain(END_MARKER);
    expect(run(["[END]"])).not.toContain(END_MARKER);
    expect(run(["a [E", "N", "D", "] b"]).replace("\u200b", "")).toBe("a [END] b");
  });
});
