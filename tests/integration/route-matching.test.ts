import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";

/**
 * The server matches URLs with the CommonJS build of @remix-run/router, which
 * patches/ changes to rank a route tree once and index its branches by first
 * segment (docs/decisions/180). These are the matching rules React Router
 * documents; the index must never hide a branch that would have matched.
 */
type Route = { id: string; path?: string; index?: boolean; caseSensitive?: boolean; children?: Route[] };
type Match = { route: { id: string }; params: Record<string, string | undefined> };
const router = createRequire(import.meta.url)("@remix-run/router") as {
  matchRoutes(routes: Route[], location: string): Match[] | null;
};

const tree: Route[] = [
  {
    id: "root",
    path: "",
    children: [
      { id: "home", index: true },
      { id: "workspace", path: "workspace/:id" },
      { id: "workspace-launch", path: "workspace/:id/launch" },
      { id: "workspace-new", path: "workspace/new" },
      { id: "docs", path: "docs/:page?" },
      { id: "about", path: ":lang/about" },
      { id: "exact-case", path: "Reports", caseSensitive: true },
      { id: "cafe", path: "café" },
      { id: "layout", children: [{ id: "inner", path: "inner/x" }] },
      { id: "not-found", path: "*" },
    ],
  },
];

function matched(url: string): string {
  const matches = router.matchRoutes(tree, url) ?? [];
  const last = matches[matches.length - 1];
  if (!last) return "none";
  const params = Object.entries(last.params)
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => `${name}=${value}`)
    .join(",");
  return params ? `${last.route.id} ${params}` : last.route.id;
}

describe("matching a URL to the server's routes", () => {
  it("finds the index route at the root, with or without extra slashes", () => {
    expect(matched("/")).toBe("home");
    expect(matched("//")).toBe("home");
  });

  it("prefers a static segment to a parameter, and a longer route to a shorter one", () => {
    expect(matched("/workspace/new")).toBe("workspace-new");
    expect(matched("/workspace/42")).toBe("workspace id=42");
    expect(matched("/workspace/42/launch")).toBe("workspace-launch id=42");
    expect(matched("/workspace/42/launch/")).toBe("workspace-launch id=42");
  });

  it("ignores letter case unless the route asks for it", () => {
    expect(matched("/WORKSPACE/42/Launch")).toBe("workspace-launch id=42");
    expect(matched("/Reports")).toBe("exact-case");
    expect(matched("/reports")).toBe("not-found *=reports");
  });

  it("matches optional segments, parameters in the first segment, and routes under a pathless layout", () => {
    expect(matched("/docs")).toBe("docs");
    expect(matched("/docs/3")).toBe("docs page=3");
    expect(matched("/fr/about")).toBe("about lang=fr");
    expect(matched("/inner/x")).toBe("inner");
  });

  it("matches encoded non-ASCII segments, and sends everything else to the catch-all", () => {
    expect(matched("/caf%C3%A9")).toBe("cafe");
    expect(matched("/nowhere/at/all")).toBe("not-found *=nowhere/at/all");
    expect(matched("/workspace")).toBe("not-found *=workspace");
  });

  it("answers the same for the same tree asked again", () => {
    const first = ["/", "/workspace/1", "/fr/about", "/zz"].map(matched);
    expect(["/", "/workspace/1", "/fr/about", "/zz"].map(matched)).toEqual(first);
  });
});
