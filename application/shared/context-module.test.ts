import { describe, expect, it } from "vitest";
import { defineContextModule, moduleJobHandlers, type Resolve } from "./context-module";

const resolve: Resolve = () => {
  throw new Error("no services in this test");
};

describe("context modules' background jobs", () => {
  it("merge into one registry, each job under its own name", async () => {
    const ran: unknown[] = [];
    const resume = defineContextModule({ name: "resume", streamCategories: ["resume"], services: [], jobs: () => ({ "latex.compile": async (p) => void ran.push(p) }) });
    const library = defineContextModule({ name: "library", streamCategories: ["document"], services: [] });
    const registry = moduleJobHandlers([resume, library], resolve);
    expect(Object.keys(registry)).toEqual(["latex.compile"]);
    await registry["latex.compile"]!({ compileId: "c1" });
    expect(ran).toEqual([{ compileId: "c1" }]);
  });

  it("refuse a job name two contexts both claim", () => {
    const a = defineContextModule({ name: "resume", streamCategories: ["resume"], services: [], jobs: () => ({ "mail.send": async () => undefined }) });
    const b = defineContextModule({ name: "identity", streamCategories: ["user"], services: [], jobs: () => ({ "mail.send": async () => undefined }) });
    expect(() => moduleJobHandlers([a, b], resolve)).toThrow(/Job "mail.send" is registered twice \(identity\)/);
  });
});
