import { describe, expect, it } from "vitest";
import { explainPrompt } from "./events";
import { viewerKind } from "./types";
import { clampPage, clampZoom, PDF_ZOOM, stepZoom, TEXT_ZOOM } from "./zoom";

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

  it("builds Explain without trailing question marks and maps kinds to viewers", () => {
    expect(explainPrompt("What is a delta??")).toBe('Explain "What is a delta"?');
    expect(viewerKind("pdf")).toBe("pdf");
    expect(viewerKind("txt")).toBe("txt");
    expect(viewerKind("jpg")).toBe("image");
    expect(viewerKind("docx")).toBe("pages");
    expect(viewerKind(null)).toBe("pages");
  });
});
