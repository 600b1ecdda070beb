import { afterEach, describe, expect, it } from "vitest";
import { DomainError } from "#domain/shared/domain-error";
import { createTestRuntime } from "../../tests/support/test-runtime";
import { PageAllowance } from "./page-allowance";

let env: Awaited<ReturnType<typeof createTestRuntime>>;
afterEach(async () => env?.cleanup());

const metadata = { correlationId: "c", actorId: "u1", subjectId: "u1" };

describe("a user's page allowance", () => {
  it("let only what fits through when many documents reserve the last pages at the same moment", async () => {
    env = await createTestRuntime();
    const policy = env.runtime.container.get(PageAllowance);
    const now = env.clock.now();
    await policy.reservePages("u1", now, "earlier", 190, metadata, now);

    const outcomes = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) => policy.reservePages("u1", now, `doc-${i}`, 3, metadata, now)),
    );
    const passed = outcomes.filter((o) => o.status === "fulfilled");
    const refused = outcomes.flatMap((o) => (o.status === "rejected" ? [o.reason] : []));
    expect(passed).toHaveLength(3);
    expect(refused).toHaveLength(17);
    for (const reason of refused) expect(reason).toBeInstanceOf(DomainError);
    expect(new Set(refused.map((r: DomainError) => r.code))).toEqual(new Set(["PAGE_LIMIT"]));
    expect(await policy.pages("u1", now)).toEqual({ used: 199, limit: 200, remaining: 1 });
  });

  it("keeps each month apart", async () => {
    env = await createTestRuntime();
    const policy = env.runtime.container.get(PageAllowance);
    const march = new Date("2026-03-15T00:00:00Z");
    const april = new Date("2026-04-02T00:00:00Z");
    await policy.reservePages("u1", march, "a", 200, metadata, march);
    await expect(policy.reservePages("u1", march, "b", 1, metadata, march)).rejects.toMatchObject({ code: "PAGE_LIMIT" });
    await policy.reservePages("u1", april, "b", 1, metadata, april);
    expect(await policy.pages("u1", april)).toMatchObject({ used: 1, remaining: 199 });
  });
});
