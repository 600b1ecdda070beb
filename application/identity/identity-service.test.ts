import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { TOKENS } from "#application/tokens";
import type { DevMailbox } from "#application/ports/mailer";
import type { EventStore } from "#application/ports/event-store";
import type { RequestContext } from "#application/shared/request-context";
import { DomainError } from "#domain/shared/domain-error";
import { createTestRuntime } from "../../tests/support/test-runtime";
import { IdentityQueries } from "./identity-queries";
import { IdentityService } from "./identity-service";

let env: Awaited<ReturnType<typeof createTestRuntime>>;
let identity: IdentityService;
let queries: IdentityQueries;
let ctxCounter = 0;
const ctx = (address = "10.0.0.1"): RequestContext => ({ requestId: `req-${++ctxCounter}`, clientAddress: address });

beforeEach(async () => {
  env = await createTestRuntime();
  identity = env.runtime.container.get(IdentityService);
  queries = env.runtime.container.get(IdentityQueries);
});
afterEach(async () => env.cleanup());

const alice = { username: "alice", email: "alice@example.com", password: "Secret12!" };

async function lastCode(): Promise<string> {
  const mails = await env.runtime.get<DevMailbox>(TOKENS.DevMailbox).list(1);
  const match = /\b(\d{6})\b/.exec(mails[0]?.text ?? "");
  if (!match) throw new Error("no code in the dev mailbox");
  return match[1];
}

async function expectCode(promise: Promise<unknown>, code: string) {
  const error = await promise.then(() => null, (e: unknown) => e);
  expect(error).toBeInstanceOf(DomainError);
  expect((error as DomainError).code).toBe(code);
}

describe("signing up", () => {
  it("delivers a 6-digit code to the dev mailbox, and the code signs the user in", async () => {
    const { userId } = await identity.register(alice, ctx());
    await expectCode(identity.login(alice, ctx()), "USER_NOT_CONFIRMED");
    await identity.confirmSignup({ username: "alice", code: await lastCode() }, ctx());
    expect((await identity.login(alice, ctx())).userId).toBe(userId);
    const user = await queries.currentUser(userId, null);
    expect(user).toMatchObject({ username: "alice", email: "alice@example.com", role: "member", status: "ACTIVE", displayName: null });
  });

  it("refuses a username or email that is already present, whatever the case", async () => {
    await identity.register(alice, ctx());
    await expectCode(identity.register({ ...alice, email: "other@example.com", username: "ALICE" }, ctx()), "USERNAME_TAKEN");
    await expectCode(identity.register({ ...alice, username: "bob", email: "Alice@Example.com" }, ctx()), "EMAIL_TAKEN");
    // The failed attempt released its username reservation.
    expect(await identity.isUsernameAvailable("bob", ctx())).toBe(true);
    expect(await identity.isUsernameAvailable("Alice", ctx())).toBe(false);
  });

  it("lets exactly one of two simultaneous sign-ups take a name", async () => {
    const results = await Promise.allSettled([
      identity.register(alice, ctx()),
      identity.register({ ...alice, email: "alice2@example.com" }, ctx()),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
  });

  it("validates the form on the server with the spec's messages", async () => {
    const error = await identity.register({ ...alice, password: "short" }, ctx()).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "VALIDATION", field: "password", message: "Password must be at least 8 characters long" });
  });

  it("keeps the referral code with the account", async () => {
    const { userId } = await identity.register({ ...alice, refCode: "FRIEND42" }, ctx());
    const events = await env.runtime.get<EventStore>(TOKENS.EventStore).readStream(`user-${userId}`);
    expect(events[0].data).toMatchObject({ refCode: "FRIEND42" });
  });
});

describe("verification codes", () => {
  it("reject a wrong code, and lock after five wrong tries", async () => {
    await identity.register(alice, ctx());
    const code = await lastCode();
    const wrong = code === "000000" ? "111111" : "000000";
    for (let i = 0; i < 5; i++) await expectCode(identity.confirmSignup({ username: "alice", code: wrong }, ctx()), "CODE_INVALID");
    await expectCode(identity.confirmSignup({ username: "alice", code }, ctx()), "CODE_ATTEMPTS_EXCEEDED");
  });

  it("expire after ten minutes", async () => {
    await identity.register(alice, ctx());
    const code = await lastCode();
    env.clock.advance(10 * 60_000);
    await expectCode(identity.confirmSignup({ username: "alice", code }, ctx()), "CODE_EXPIRED");
  });

  it("can be resent after 30 seconds, and only the new code works", async () => {
    await identity.register(alice, ctx());
    const first = await lastCode();
    await expectCode(identity.resendVerificationCode({ username: "alice" }, ctx()), "RATE_LIMITED");
    env.clock.advance(31_000);
    await identity.resendVerificationCode({ username: "alice" }, ctx());
    const second = await lastCode();
    if (first !== second) await expectCode(identity.confirmSignup({ username: "alice", code: first }, ctx()), "CODE_INVALID");
    await identity.confirmSignup({ username: "alice", code: second }, ctx());
  });

  it("cannot be reused once the account is confirmed", async () => {
    await identity.register(alice, ctx());
    const code = await lastCode();
    await identity.confirmSignup({ username: "alice", code }, ctx());
    await expectCode(identity.confirmSignup({ username: "alice", code }, ctx()), "ALREADY_CONFIRMED");
  });

  it("are stored hashed, never in plain text", async () => {
    const { userId } = await identity.register(alice, ctx());
    const code = await lastCode();
    const events = await env.runtime.get<EventStore>(TOKENS.EventStore).readStream(`user-${userId}`);
    expect(JSON.stringify(events)).not.toContain(code);
    expect(JSON.stringify(events)).not.toContain(alice.password);
  });
});

describe("logging in", () => {
  async function confirmedAlice() {
    const { userId } = await identity.register(alice, ctx());
    await identity.confirmSignup({ username: "alice", code: await lastCode() }, ctx());
    return userId;
  }

  it("gives the same answer for an unknown name and a wrong password", async () => {
    await confirmedAlice();
    const unknown = await identity.login({ username: "nobody", password: "Secret12!" }, ctx()).catch((e: DomainError) => e);
    const wrong = await identity.login({ username: "alice", password: "Wrong123!" }, ctx()).catch((e: DomainError) => e);
    expect(unknown).toMatchObject({ code: "INVALID_CREDENTIALS" });
    expect(wrong).toMatchObject({ code: "INVALID_CREDENTIALS", message: (unknown as DomainError).message });
  });

  it("stops an attacker's address from guessing an account's password after five failures, even with the right one", async () => {
    await confirmedAlice();
    for (let i = 0; i < 5; i++) {
      await expectCode(identity.login({ username: "alice", password: `Guess${i}!x` }, ctx("203.0.113.66")), "INVALID_CREDENTIALS");
    }
    await expectCode(identity.login({ username: "alice", password: "Guess9!x" }, ctx("203.0.113.66")), "LOGIN_THROTTLED");
    await expectCode(identity.login(alice, ctx("203.0.113.66")), "LOGIN_THROTTLED");
    env.clock.advance(15 * 60_000);
    await identity.login(alice, ctx("203.0.113.66"));
  });

  it("lets the owner in with the right password while attackers at many addresses fail on the account (slowed, not locked)", async () => {
    const userId = await confirmedAlice();
    for (let i = 0; i < 12; i++) {
      await expectCode(identity.login({ username: "alice", password: "Wrong123!" }, ctx(`198.51.100.${i}`)), "INVALID_CREDENTIALS");
    }
    expect(await identity.login(alice, ctx("10.0.2.1"))).toEqual({ userId });
    // The attackers' own addresses keep their separate budgets: a wrong guess is still only a wrong guess.
    await expectCode(identity.login({ username: "alice", password: "Wrong123!" }, ctx("198.51.100.0")), "INVALID_CREDENTIALS");
  });

  it("opens a revocable server-side session and records login and logout as events", async () => {
    const userId = await confirmedAlice();
    const { token } = await identity.startSession(userId, ctx());
    expect((await identity.resolveSession(token))?.userId).toBe(userId);
    await identity.endSession(token, ctx());
    expect(await identity.resolveSession(token)).toBeNull();
    const types = (await env.runtime.get<EventStore>(TOKENS.EventStore).readStream(`user-${userId}`)).map((e) => e.type);
    expect(types).toEqual(["UserRegistered", "VerificationCodeIssued", "SignupConfirmed", "UserLoggedIn", "UserLoggedOut"]);
  });

  it("gives every login a different session token", async () => {
    const userId = await confirmedAlice();
    const a = await identity.startSession(userId, ctx());
    const b = await identity.startSession(userId, ctx());
    expect(a.token).not.toBe(b.token);
  });
});
