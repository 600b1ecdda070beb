import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pino from "pino";
import { afterEach, describe, expect, it } from "vitest";
import { loadConfig } from "#infrastructure/config/config";
import { type AppRuntime, createRuntime } from "#infrastructure/container";
import { checkReadiness } from "#infrastructure/observability/readiness";

const started: AppRuntime[] = [];
let dataDir: string | undefined;
afterEach(async () => {
  for (const runtime of started.splice(0)) await runtime.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe("start-up", () => {
  it("reports the databases prepared before the background work starts, and a web process serves from then on", async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), "docuchat-fast-start-"));
    const config = loadConfig({ DATA_DIR: dataDir, APP_SECRET: "test-secret-test-secret-test-secret!" });
    const options = { logger: pino({ level: "silent" }), builtInEmbeddings: false } as const;
    let backgroundStarted = false;
    const prepared = new Promise<void>((resolve) => {
      const background = createRuntime(config, { ...options, role: "background", onPrepared: resolve });
      void background.then((runtime) => {
        backgroundStarted = true;
        started.push(runtime);
      });
    });
    await prepared;
    // The supervisor starts the web processes here (server.mjs), while the background process goes on starting and catching up.
    expect(backgroundStarted).toBe(false);
    const web = await createRuntime(config, { ...options, role: "web" });
    started.push(web);
    const readiness = await checkReadiness({ ...web.operations.readinessSources, backgroundAlive: async () => backgroundStarted });
    expect(readiness).toMatchObject({ ready: true });
    await expect.poll(() => backgroundStarted, { timeout: 20_000 }).toBe(true);
  });
});
