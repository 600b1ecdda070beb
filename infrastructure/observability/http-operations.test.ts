import { describe, expect, it } from "vitest";
import { apiRouteTemplate } from "#app/public-api/router.server";
import { routePatternOf } from "./http-operations";

describe("request metrics' route label", () => {
  const patternOf = routePatternOf({
    root: { id: "root" },
    "routes/_index": { id: "routes/_index", parentId: "root", index: true },
    "routes/workspace.$workspaceId": { id: "routes/workspace.$workspaceId", parentId: "root", path: "workspace/:workspaceId" },
    "routes/workspace.$workspaceId.chat.$chatId": { id: "routes/workspace.$workspaceId.chat.$chatId", parentId: "routes/workspace.$workspaceId", path: "chat/:chatId" },
    "routes/$": { id: "routes/$", parentId: "root", path: "*" },
  });

  it("is the matched route's pattern, never the ids in the path", () => {
    expect(patternOf("/workspace/0193ab-77/chat/0193ac-01")).toBe("/workspace/:workspaceId/chat/:chatId");
    expect(patternOf("/")).toBe("/");
  });

  it("groups built assets and names the operators' own routes", () => {
    expect(patternOf("/build/_shared/chunk-ABC123.js")).toBe("/build/*");
    expect(patternOf("/metrics")).toBe("/metrics");
    expect(patternOf("/no/such/page/123")).toBe("/*");
    expect(patternOf("/workspace/%E0%A4%A")).toBe("unmatched");
  });

  it("names each public API operation by its path template, so /api/v1 is not one label nor one per document", () => {
    const withApi = routePatternOf(
      { root: { id: "root" }, "routes/api.v1.$": { id: "routes/api.v1.$", parentId: "root", path: "api/v1/*" } },
      { "/api/v1/*": apiRouteTemplate },
    );
    expect(withApi("/api/v1/documents/0193ab-77/pages/3")).toBe("/api/v1/documents/:id/pages/:page");
    expect(withApi("/api/v1/documents/0193ab-78")).toBe("/api/v1/documents/:id");
    expect(withApi("/api/v1/documents")).toBe("/api/v1/documents");
    expect(withApi("/api/v1/conversations/0193ac-01/messages")).toBe("/api/v1/conversations/:id/messages");
    expect(withApi("/api/v1/openapi.json")).toBe("/api/v1/openapi.json");
    // A path no operation has keeps the splat's pattern: a scanner's guesses add no series.
    expect(withApi("/api/v1/no/such/thing/42")).toBe("/api/v1/*");
  });
});
