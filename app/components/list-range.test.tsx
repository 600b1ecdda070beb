import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { ListRange } from "./list-range";

const footer = (shown: number, total: number, hasMore = false, loading = false) =>
  renderToStaticMarkup(<ListRange shown={shown} total={total} hasMore={hasMore} loading={loading} testId="range" />).replace(/<[^>]+>/g, "");

describe("the footer of My Documents and My Workspaces", () => {
  it("counts the rows shown of those there are, and says when more come by scrolling", () => {
    expect(footer(20, 45, true)).toBe("20 of 45 · scroll for more");
    expect(footer(3, 3)).toBe("3 of 3");
  });

  it("says nothing for an empty list, loaded or loading, rather than 0 of 0", () => {
    expect(footer(0, 0)).toBe("");
    expect(footer(0, 0, false, true)).toBe("");
  });
});
