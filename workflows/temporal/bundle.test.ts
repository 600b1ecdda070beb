import { fileURLToPath } from "node:url";
import { bundleWorkflowCode } from "@temporalio/worker";
import { describe, expect, it } from "vitest";
import { workflowBundleOptions, workflowsPath } from "#infrastructure/production/temporal/bundler-options";

const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));
const quiet = { logger: { trace() {}, debug() {}, info() {}, warn() {}, error() {}, log() {} } };

/**
 * Temporal runs workflow code in a deterministic sandbox built by webpack.
 * bundleWorkflowCode needs no server, so CI bundles the real entry module here:
 * a workflow that imports something the sandbox cannot run fails this test.
 */
describe("Temporal workflow bundle (offline)", () => {
  it("bundles the real entry module: every definition of workflows/index.ts allWorkflows", async () => {
    const { code } = await bundleWorkflowCode({ ...workflowBundleOptions(workflowsPath), ...quiet });
    expect(code.length).toBeGreaterThan(1000);
    // The dispatcher and the context mapping are in the bundle.
    expect(code).toContain("docuchat.status");
    expect(code).toContain("No workflow definition named");
  }, 180_000);

  it("bundles the test-only definition with its context mapping (activity, signal wait, now)", async () => {
    const { code } = await bundleWorkflowCode({ ...workflowBundleOptions(fixture("workflows.ts")), ...quiet });
    expect(code).toContain("test-approval");
    expect(code).toContain("approve");
  }, 180_000);

  it("refuses workflow code that imports a Node module (it could not run in the sandbox)", async () => {
    const messages: string[] = [];
    const collect = (message: string, meta?: Record<string, unknown>) => void messages.push(`${message} ${JSON.stringify(meta ?? {})}`);
    const logger = { trace() {}, debug() {}, info() {}, warn: collect, error: collect, log: (_level: string, message: string) => collect(message) };
    await expect(bundleWorkflowCode({ ...workflowBundleOptions(fixture("forbidden-workflows.ts")), logger })).rejects.toThrow(
      /Webpack finished with errors/,
    );
    expect(messages.join("\n")).toMatch(/fs/);
  }, 180_000);
});
