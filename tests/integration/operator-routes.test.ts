import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterEach, describe, expect, it } from "vitest";
import { httpOperations } from "#infrastructure/observability/http-operations";
import { createTestRuntime } from "../support/test-runtime";

/**
 * /metrics and /readyz's detail are for operators (issue 43): the token, or,
 * without one, a client on this machine that no proxy forwarded. A reverse
 * proxy on the same host connects from loopback for every visitor.
 */
let env: Awaited<ReturnType<typeof createTestRuntime>> | undefined;
let server: Server | undefined;
afterEach(async () => {
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  await env?.cleanup();
  env = server = undefined;
});

async function serve(runtimeEnv: Record<string, string> = {}) {
  env = await createTestRuntime({ env: runtimeEnv });
  const operations = httpOperations(env.runtime, { routes: {} }, "app");
  const app = express();
  app.get("/metrics", operations.metricsRoute);
  app.get("/readyz", operations.readinessRoute);
  server = await new Promise<Server>((resolve) => {
    const listening = app.listen(0, "127.0.0.1", () => resolve(listening));
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const forwarded: Record<string, string>[] = [{ "X-Forwarded-For": "203.0.113.9" }, { Forwarded: "for=203.0.113.9" }, { "X-Real-IP": "203.0.113.9" }];

describe("the operators' routes without METRICS_TOKEN", () => {
  it("answer a scraper on this machine, and refuse what a proxy on this machine forwards", async () => {
    const url = await serve();
    expect((await fetch(`${url}/metrics`)).status).toBe(200);
    expect(await (await fetch(`${url}/readyz`)).json()).toMatchObject({ ready: true, checks: { projectors: "ok" } });

    for (const headers of forwarded) {
      const metrics = await fetch(`${url}/metrics`, { headers });
      expect(metrics.status, JSON.stringify(headers)).toBe(401);
      expect(await metrics.text()).not.toContain("docuchat_");
      const readiness = await fetch(`${url}/readyz`, { headers });
      expect(readiness.status).toBe(200);
      expect(await readiness.json()).toEqual({ ready: true });
    }
  });
});

describe("the operators' routes with METRICS_TOKEN", () => {
  it("answer the token's holder only, even on this machine; readiness alone to anyone", async () => {
    const token = "operators-token-of-the-test";
    const url = await serve({ METRICS_TOKEN: token });
    const bearer = { Authorization: `Bearer ${token}` };
    expect((await fetch(`${url}/metrics`)).status).toBe(401);
    expect((await fetch(`${url}/metrics`, { headers: { ...forwarded[0], Authorization: "Bearer wrong-token-of-the-test" } })).status).toBe(401);
    expect((await fetch(`${url}/metrics`, { headers: bearer })).status).toBe(200);
    expect(await (await fetch(`${url}/readyz`)).json()).toEqual({ ready: true });
    expect(await (await fetch(`${url}/readyz`, { headers: { ...forwarded[0], ...bearer } })).json()).toMatchObject({ ready: true, checks: { background: "ok" } });
  });
});
