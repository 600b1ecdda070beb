import { afterEach, describe, expect, it } from "vitest";
import { DomainError } from "#domain/shared/domain-error";
import { createTestRuntime } from "../../tests/support/test-runtime";
import { Subscriptions } from "./subscriptions";
import { UsageCounters } from "./usage-counters";

let env: Awaited<ReturnType<typeof createTestRuntime>>;
afterEach(async () => env?.cleanup());

const metadata = { correlationId: "c", actorId: "u1", subjectId: "u1" };

describe("a user's usage counters", () => {
  it("let only what fits through when twenty uploads reserve the last pages at the same moment", async () => {
    env = await createTestRuntime();
    const usage = env.runtime.container.get(UsageCounters);
    const now = env.clock.now();
    await usage.reserve("u1", "pages", "earlier", 190, now, metadata);

    const outcomes = await Promise.allSettled(Array.from({ length: 20 }, (_, i) => usage.reserve("u1", "pages", `doc-${i}`, 3, now, metadata)));
    const passed = outcomes.filter((o) => o.status === "fulfilled");
    const refused = outcomes.flatMap((o) => (o.status === "rejected" ? [o.reason] : []));
    expect(passed).toHaveLength(3);
    expect(refused).toHaveLength(17);
    for (const reason of refused) expect(reason).toBeInstanceOf(DomainError);
    expect(new Set(refused.map((r: DomainError) => r.code))).toEqual(new Set(["PAGE_LIMIT"]));
    expect((await usage.usage("u1", "pages", now)).monthly).toEqual({ used: 199, limit: 200, remaining: 1 });
  });

  it("let exactly the plan's workspaces through when twenty are created at once", async () => {
    env = await createTestRuntime();
    const usage = env.runtime.container.get(UsageCounters);
    const now = env.clock.now();
    const outcomes = await Promise.allSettled(Array.from({ length: 20 }, (_, i) => usage.reserve("u1", "workspaces", `w-${i}`, 1, now, metadata)));
    expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(10);
    await expect(usage.reserve("u1", "workspaces", "w-late", 1, now, metadata)).rejects.toMatchObject({
      code: "WORKSPACE_LIMIT",
      message: "You have created 10 workspaces this month, the limit of your plan.",
    });
    expect((await usage.usage("u1", "workspaces", now)).monthly).toEqual({ used: 10, limit: 10, remaining: 0 });
  });

  it("keeps each month apart", async () => {
    env = await createTestRuntime();
    const usage = env.runtime.container.get(UsageCounters);
    const march = new Date("2026-03-15T00:00:00Z");
    const april = new Date("2026-04-02T00:00:00Z");
    await usage.reserve("u1", "pages", "a", 200, march, metadata);
    await expect(usage.reserve("u1", "pages", "b", 1, march, metadata)).rejects.toMatchObject({ code: "PAGE_LIMIT" });
    await usage.reserve("u1", "pages", "b", 1, april, metadata);
    expect((await usage.usage("u1", "pages", april)).monthly).toMatchObject({ used: 1, remaining: 199 });
  });

  it("gives what failed work held back, and counts with the new plan's limits once a period is paid", async () => {
    env = await createTestRuntime();
    const usage = env.runtime.container.get(UsageCounters);
    const now = env.clock.now();
    await usage.reserve("u1", "pages", "a", 200, now, metadata);
    await usage.release("u1", "pages", "a", now, metadata);
    expect((await usage.usage("u1", "pages", now)).monthly.used).toBe(0);

    await usage.reserve("u1", "pages", "a", 200, now, metadata);
    await expect(usage.check("u1", "pages", 1, now)).rejects.toMatchObject({ code: "PAGE_LIMIT" });
    await env.runtime.container.get(Subscriptions).prepay("u1", "order-1", "pine-monthly", metadata);
    await usage.check("u1", "pages", 800, now);
    expect(await usage.usage("u1", "pages", now)).toMatchObject({ monthly: { used: 200, limit: 2000 }, daily: { used: 200, limit: 1000 }, remaining: 800 });
  });
});
