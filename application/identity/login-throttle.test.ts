import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { DomainError } from "#domain/shared/domain-error";
import { ManualClock } from "#infrastructure/embedded/system-clock";
import { SqliteRateLimiter } from "#infrastructure/embedded/sqlite-rate-limiter";
import { HmacSecretHasher } from "#infrastructure/security/hmac-secret-hasher";
import { LOGIN_THROTTLE, LoginThrottle } from "./login-throttle";

function throttle() {
  const clock = new ManualClock(new Date("2026-01-01T00:00:00Z"));
  const limiter = new SqliteRateLimiter(new Database(":memory:"), clock, new HmacSecretHasher("k".repeat(32)));
  return { throttle: new LoginThrottle(limiter), clock };
}

const refusal = (promise: Promise<unknown>) => promise.then(() => null, (e: unknown) => (e instanceof DomainError ? e.code : e));

describe("the login throttle", () => {
  it("closes an account to one address after its failures, and to nobody else", async () => {
    const { throttle: t } = throttle();
    for (let i = 0; i < LOGIN_THROTTLE.perPair.limit; i++) {
      await t.admit("alice", "203.0.113.9");
      await t.failed("alice", "203.0.113.9");
    }
    expect(await refusal(t.admit("ALICE", "203.0.113.9"))).toBe("LOGIN_THROTTLED");
    expect(await t.admit("alice", "192.0.2.44")).toEqual({ delayMs: 0 });
    expect(await t.admit("bob", "203.0.113.9")).toEqual({ delayMs: 0 });
  });

  it("bounds the attempts of one address over many accounts", async () => {
    const { throttle: t, clock } = throttle();
    for (let i = 0; i < LOGIN_THROTTLE.perAddress.limit; i++) await t.admit(`user${i}`, "203.0.113.10");
    expect(await refusal(t.admit("someone", "203.0.113.10"))).toBe("LOGIN_THROTTLED");
    clock.advance(LOGIN_THROTTLE.perAddress.windowMs);
    expect(await t.admit("someone", "203.0.113.10")).toEqual({ delayMs: 0 });
  });

  it("slows every attempt on an account that many addresses fail on, with a capped delay, and never refuses its owner", async () => {
    const { throttle: t, clock } = throttle();
    const delays: number[] = [];
    for (let i = 0; i < LOGIN_THROTTLE.perAccount.freeFailures + 8; i++) {
      delays.push((await t.admit("alice", `198.51.100.${i}`)).delayMs);
      await t.failed("alice", `198.51.100.${i}`);
    }
    expect(delays.slice(0, LOGIN_THROTTLE.perAccount.freeFailures)).toEqual(new Array(LOGIN_THROTTLE.perAccount.freeFailures).fill(0));
    expect(delays.slice(LOGIN_THROTTLE.perAccount.freeFailures)).toEqual([250, 500, 1000, 2000, 4000, 4000, 4000, 4000]);
    // The owner's address is admitted (slowed); after the window the account is not slowed any more.
    expect((await t.admit("alice", "10.0.0.5")).delayMs).toBe(LOGIN_THROTTLE.perAccount.maxDelayMs);
    clock.advance(LOGIN_THROTTLE.perAccount.windowMs);
    expect(await t.admit("alice", "10.0.0.5")).toEqual({ delayMs: 0 });
  });

  it("forgives the account after a password reset", async () => {
    const { throttle: t } = throttle();
    for (let i = 0; i < 14; i++) await t.failed("alice", `198.51.100.${i}`);
    expect((await t.admit("alice", "10.0.0.5")).delayMs).toBeGreaterThan(0);
    await t.forgive("alice", "10.0.0.5");
    expect(await t.admit("alice", "10.0.0.5")).toEqual({ delayMs: 0 });
  });
});
