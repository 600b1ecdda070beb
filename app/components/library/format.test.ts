import { describe, expect, it } from "vitest";
import { formatPageCount } from "./format";

describe("page counts on document cards", () => {
  it("say page for one and pages for more", () => {
    expect(formatPageCount(1)).toBe("1 page");
    expect(formatPageCount(12)).toBe("12 pages");
  });

  it("show a dash while the count is not known", () => {
    expect(formatPageCount(0)).toBe("— pages");
    expect(formatPageCount(null)).toBe("— pages");
  });
});
