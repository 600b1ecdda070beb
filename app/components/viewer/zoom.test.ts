import { describe, expect, it } from "vitest";
import { explainPrompt } from "./events";
import { viewerKind } from "./types";
import { clampPage, clampZoom, findPassage, matchBlocks, PDF_ZOOM, stepZoom, TEXT_ZOOM } from "./zoom";

describe("viewer rules (spec 001 §5)", () => {
  it("clamps the page input to 1..pageCount", () => {
    expect(clampPage(7, 12)).toBe(7);
    expect(clampPage(0, 12)).toBe(1);
    expect(clampPage(-3, 12)).toBe(1);
    expect(clampPage(99, 12)).toBe(12);
    expect(clampPage(Number.NaN, 12)).toBe(1);
    expect(clampPage(5, 1)).toBe(1);
  });

  it("zooms PDFs 50–500 % in steps of 0.05 and text in steps of 10 %", () => {
    expect(clampZoom(0.1, PDF_ZOOM)).toBe(0.5);
    expect(clampZoom(9, PDF_ZOOM)).toBe(5);
    expect(stepZoom(1.1, 1, PDF_ZOOM)).toBe(1.15);
    expect(stepZoom(0.5, -1, PDF_ZOOM)).toBe(0.5);
    expect(stepZoom(1, 1, TEXT_ZOOM)).toBe(1.1);
    expect(stepZoom(5, 1, TEXT_ZOOM)).toBe(5);
    expect(clampZoom(1.234, PDF_ZOOM)).toBe(1.25);
  });

  it("picks the layout blocks that best match a cited passage", () => {
    const blocks = [
      { id: "h", text: "Field - chapter 8" },
      { id: "s", text: "Field page 8 describes the umber lantern near the quartz violet" },
      { id: "p", text: "A separate paragraph that every page of Field shares." },
      { id: "n", text: "8" },
    ];
    expect(matchBlocks(blocks, "Field page 8 describes the umber lantern near the quartz violet").map((b) => b.id)).toEqual(["s"]);
    expect(matchBlocks(blocks, "the UMBER lantern, near the quartz!").map((b) => b.id)).toEqual(["s"]);
    expect(matchBlocks(blocks, "nothing in common here")).toEqual([]);
    expect(matchBlocks(blocks, "")).toEqual([]);
  });

  it("finds a passage in page text whatever its case and spacing", () => {
    const text = "Rivers carry\n  SEDIMENT to the sea. Deltas grow.";
    const found = findPassage(text, "rivers carry sediment");
    expect(found && text.slice(found.start, found.end)).toBe("Rivers carry\n  SEDIMENT");
    expect(findPassage(text, "glaciers")).toBeNull();
  });

  it("builds Explain without trailing question marks and maps kinds to viewers", () => {
    expect(explainPrompt("What is a delta??")).toBe('Explain "What is a delta"?');
    expect(viewerKind("pdf")).toBe("pdf");
    expect(viewerKind("txt")).toBe("txt");
    expect(viewerKind("jpg")).toBe("image");
    expect(viewerKind("docx")).toBe("pages");
    expect(viewerKind(null)).toBe("pages");
  });
});
