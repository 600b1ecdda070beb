import { describe, expect, it } from "vitest";
import { splitTabs } from "./document-tabs";

const tabs = ["a", "b", "c", "d", "e", "f"].map((id) => ({ id, name: `${id}.pdf` }));

describe("splitTabs (about 100 px per tab, the rest under 'More')", () => {
  it("shows every tab when they fit", () => {
    expect(splitTabs(tabs.slice(0, 3), "a", 800)).toEqual({ shown: tabs.slice(0, 3), overflow: [] });
  });

  it("moves the tabs that do not fit into the overflow", () => {
    const { shown, overflow } = splitTabs(tabs, "a", 450);
    expect(shown.map((t) => t.id)).toEqual(["a", "b", "c"]);
    expect(overflow.map((t) => t.id)).toEqual(["d", "e", "f"]);
  });

  it("keeps the active tab visible by swapping it in", () => {
    const { shown, overflow } = splitTabs(tabs, "f", 450);
    expect(shown.map((t) => t.id)).toEqual(["a", "b", "f"]);
    expect(overflow.map((t) => t.id)).toEqual(["c", "d", "e"]);
  });

  it("always shows at least one tab", () => {
    expect(splitTabs(tabs, "c", 60).shown.map((t) => t.id)).toEqual(["c"]);
  });
});
