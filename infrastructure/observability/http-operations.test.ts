import { describe, expect, it } from "vitest";
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
  });
});
