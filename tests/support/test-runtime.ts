import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pino from "pino";
import { loadConfig } from "#infrastructure/config/config";
import { type AppRuntime, createRuntime, type RuntimeOptions } from "#infrastructure/container";
import { createLogger } from "#infrastructure/logging/logger";
import { ManualClock } from "#infrastructure/embedded/system-clock";
import { ScryptPasswordHasher } from "#infrastructure/security/scrypt-password-hasher";

/**
 * A whole runtime on the embedded adapters in a fresh temp directory: the way
 * application tests exercise handlers, projections and queries together.
 */
export async function createTestRuntime(options: RuntimeOptions & { env?: Record<string, string>; logInDataDir?: boolean } = {}) {
  const dataDir = mkdtempSync(path.join(tmpdir(), "docuchat-test-"));
  const clock = new ManualClock(new Date());
  const config = loadConfig({ DATA_DIR: dataDir, APP_SECRET: "test-secret-test-secret-test-secret!", ...options.env });
  const runtime: AppRuntime = await createRuntime(config, {
    clock,
    // logInDataDir: the app's own logger at info, writing to DATA_DIR/logs/app.log (tests that read what was logged).
    logger: options.logInDataDir
      ? createLogger("info", { destination: pino.destination({ dest: path.join(dataDir, "logs", "app.log"), mkdir: true, sync: true }) })
      : pino({ level: "silent" }),
    // Cheap scrypt parameters: the production ones cost ~128 MB and a few hundred ms per hash.
    passwordHasher: new ScryptPasswordHasher({ N: 2 ** 10, r: 8, p: 1 }),
    // Keyword search unless a test asks for the built-in embedding model: loading and running it costs every workspace test seconds.
    builtInEmbeddings: false,
    ...options,
  });
  return {
    runtime,
    clock,
    dataDir,
    async cleanup() {
      await runtime.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
