import { describe, expect, it } from "vitest";
import { FIX_LATEX_REQUEST, fixLatexMessage, splitFixRequest } from "./latex-blocks";

describe("a Retry message in the chat", () => {
  const source = "\\documentclass{article}\n\\begin{document}\nA & B\n\\end{document}\n";

  it("shows the request alone and keeps the error, hints and source apart", () => {
    const message = fixLatexMessage({ message: "Misplaced alignment tab character &.", line: 3 }, source, { withSource: true });
    const split = splitFixRequest(message);
    expect(split?.request).toBe(FIX_LATEX_REQUEST);
    expect(split?.details).toMatch(/^Hints:/);
    expect(split?.details).toContain("Error at line 3: Misplaced alignment tab character &.");
    expect(split?.details).toContain("\\documentclass{article}");
  });

  it("leaves any other question, and the bare request, as they are", () => {
    expect(splitFixRequest("What is osmosis?")).toBeNull();
    expect(splitFixRequest(FIX_LATEX_REQUEST)).toBeNull();
  });
});
