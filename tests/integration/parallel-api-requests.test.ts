import { existsSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AccessTokenService } from "#application/identity/access-tokens";
import { type Child, kill, startScript, until } from "../support/child-process";
import { signedInUser } from "../support/route-session";
import { createTestRuntime } from "../support/test-runtime";

/**
 * Issue 42, item 4: a burst of API requests on several web processes, which
 * share the SQLite files with the background process, never answers 500
 * because SQLite is busy. 120 requests with one token (its whole per-minute
 * allowance) and the first uses of 40 fresh tokens arrive at once, spread
 * over two web processes; this process is the background one.
 */
const client = fileURLToPath(new URL("./fixtures/api-burst-client.ts", import.meta.url));
const SECRET = "burst-secret-burst-secret-burst-secret";
const WEB_PROCESSES = 2;
let env: Awaited<ReturnType<typeof createTestRuntime>>;
const web: Child[] = [];

beforeAll(async () => {
  env = await createTestRuntime({ env: { APP_SECRET: SECRET } });
  globalThis.__docuchatRuntime = Promise.resolve(env.runtime);
  for (let i = 0; i < WEB_PROCESSES; i++) web.push(startScript(client, [env.dataDir, `web-${i}`], { APP_SECRET: SECRET }));
});

afterAll(async () => {
  for (const child of web) if (child.process.exitCode === null) await kill(child);
  globalThis.__docuchatRuntime = undefined;
  await env?.cleanup();
});

describe("a burst of requests with personal access tokens", () => {
  it("answers all 120 requests of one token's allowance and the first uses of 40 tokens, none with 500", { timeout: 120_000 }, async () => {
    const ada = (await signedInUser(env.runtime, "adaburst")).id;
    const tokens = env.runtime.container.get(AccessTokenService);
    const mint = async () =>
      (await tokens.create(ada, { name: "Script", expiresIn: "30", scope: "all", permissions: ["read"] }, { requestId: "burst", clientAddress: "127.0.0.1", actorId: ada })).token;
    const busy = await mint();
    const fresh = await Promise.all(Array.from({ length: 40 }, mint));

    await Promise.all(web.map((child, i) => until(`web process ${i} to serve`, () => existsSync(join(env.dataDir, `web-${i}.ready`)), child, 100_000)));
    web.forEach((_, i) => {
      const burst = [...Array(120 / WEB_PROCESSES).fill(busy), ...fresh.filter((_, n) => n % WEB_PROCESSES === i)];
      // Renamed into place, so a process never reads half a list.
      writeFileSync(join(env.dataDir, `web-${i}.tmp`), JSON.stringify(burst));
      renameSync(join(env.dataDir, `web-${i}.tmp`), join(env.dataDir, `web-${i}.json`));
    });
    const codes = await Promise.all(web.map((child) => child.exited));
    expect(codes, web.map((child) => child.output()).join("\n")).toEqual(web.map(() => 0));

    const results = web.map((child) => JSON.parse(child.output().split("\n").find((line) => line.startsWith('{"statuses"'))!) as { statuses: number[]; failures: string[] });
    expect(results.flatMap((r) => r.failures), web.map((child) => child.output()).join("\n")).toEqual([]);
    const statuses = results.flatMap((r) => r.statuses);
    expect(statuses).toHaveLength(160);
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
  });
});
