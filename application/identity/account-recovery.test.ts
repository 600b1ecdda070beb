import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { TOKENS } from "#application/tokens";
import type { DevMailbox } from "#application/ports/mailer";
import type { EventStore } from "#application/ports/event-store";
import type { RequestContext } from "#application/shared/request-context";
import { DomainError } from "#domain/shared/domain-error";
import { createTestRuntime } from "../../tests/support/test-runtime";
import { IdentityQueries } from "./identity-queries";
import { IdentityService, type VerifiedExternalClaims } from "./identity-service";
import Database from "better-sqlite3";
import type { ReadModelStore } from "#application/ports/read-model-store";
import { rebuildProjections } from "#infrastructure/embedded/projection-runner";
import { SqliteReadModelStore } from "#infrastructure/embedded/sqlite/sqlite-read-model-store";
import { allProjectors } from "#projections/index";

/** Forgot password, change password, log out everywhere and OpenID sign-in on the embedded adapters. */
let env: Awaited<ReturnType<typeof createTestRuntime>>;
let identity: IdentityService;
let queries: IdentityQueries;
let n = 0;
const ctx = (address = "10.0.0.1"): RequestContext => ({ requestId: `req-${++n}`, clientAddress: address });

beforeEach(async () => {
  env = await createTestRuntime();
  identity = env.runtime.container.get(IdentityService);
  queries = env.runtime.container.get(IdentityQueries);
});
afterEach(async () => env.cleanup());

const alice = { username: "alice", email: "alice@example.com", password: "Secret12!" };
const NEW_PASSWORD = "Better34#";

const mailbox = () => env.runtime.get<DevMailbox>(TOKENS.DevMailbox);
async function lastCode(): Promise<string> {
  const match = /\b(\d{6})\b/.exec((await mailbox().list(1))[0]?.text ?? "");
  if (!match) throw new Error("no code in the dev mailbox");
  return match[1];
}
async function expectCode(promise: Promise<unknown>, code: string) {
  const error = await promise.then(() => null, (e: unknown) => e);
  expect(error).toBeInstanceOf(DomainError);
  expect((error as DomainError).code).toBe(code);
}
const stream = async (userId: string) => env.runtime.get<EventStore>(TOKENS.EventStore).readStream(`user-${userId}`);

async function confirmedAlice() {
  const { userId } = await identity.register(alice, ctx());
  await identity.confirmSignup({ username: "alice", code: await lastCode() }, ctx());
  return userId;
}

describe("forgot password", () => {
  it("mails a 6-digit code; the code sets the new password and revokes every session", async () => {
    const userId = await confirmedAlice();
    const a = await identity.startSession(userId, ctx());
    const b = await identity.startSession(userId, ctx());
    await identity.requestPasswordReset({ username: "alice" }, ctx());
    const [mail] = await mailbox().list(1);
    expect(mail).toMatchObject({ to: "alice@example.com", subject: "Your DocuChat password reset code" });
    await identity.resetPassword({ username: "alice", code: await lastCode(), password: NEW_PASSWORD }, ctx());

    expect(await identity.resolveSession(a.token)).toBeNull();
    expect(await identity.resolveSession(b.token)).toBeNull();
    await expectCode(identity.login(alice, ctx()), "INVALID_CREDENTIALS");
    expect((await identity.login({ username: "alice", password: NEW_PASSWORD }, ctx())).userId).toBe(userId);
    const types = (await stream(userId)).map((e) => e.type);
    expect(types.slice(-3)).toEqual(["VerificationCodeIssued", "PasswordReset", "AllSessionsRevoked"]);
    for (const event of await stream(userId)) expect(event.metadata).toMatchObject({ correlationId: expect.any(String), actorId: userId, subjectId: userId });
  });

  it("stores the code and the new password only hashed, and sealed under personal data", async () => {
    const userId = await confirmedAlice();
    await identity.requestPasswordReset({ username: "alice" }, ctx());
    const code = await lastCode();
    await identity.resetPassword({ username: "alice", code, password: NEW_PASSWORD }, ctx());
    const log = JSON.stringify(await stream(userId));
    expect(log).not.toContain(code);
    expect(log).not.toContain(NEW_PASSWORD);
    // Below the personal-data layer the hash itself is sealed.
    const raw = await env.runtime.get<EventStore>(TOKENS.EventStore).readAll(0, 1000);
    const reset = raw.find((e) => e.type === "PasswordReset");
    expect(reset?.data.personal).toMatchObject({ passwordHash: expect.stringMatching(/^scrypt\$/) });
  });

  it("gives unknown, unconfirmed and known names the same answer, and mails only the known one", async () => {
    await confirmedAlice();
    await identity.register({ username: "bob", email: "bob@example.com", password: "Secret12!" }, ctx());
    const before = (await mailbox().list(100)).length;
    await expect(identity.requestPasswordReset({ username: "nobody" }, ctx())).resolves.toBeUndefined();
    await expect(identity.requestPasswordReset({ username: "bob" }, ctx())).resolves.toBeUndefined();
    expect((await mailbox().list(100)).length).toBe(before);
    await expect(identity.requestPasswordReset({ username: "alice" }, ctx())).resolves.toBeUndefined();
    expect((await mailbox().list(100)).length).toBe(before + 1);
    // The per-account resend limit answers silently too (no "wait 30 seconds" that would reveal the account).
    await expect(identity.requestPasswordReset({ username: "alice" }, ctx())).resolves.toBeUndefined();
    expect((await mailbox().list(100)).length).toBe(before + 1);
    // A code for an unknown name fails like a wrong code.
    const unknown = await identity.resetPassword({ username: "nobody", code: "123456", password: NEW_PASSWORD }, ctx()).catch((e: DomainError) => e);
    const wrong = await identity.resetPassword({ username: "alice", code: "000000", password: NEW_PASSWORD }, ctx()).catch((e: DomainError) => e);
    expect(unknown).toMatchObject({ code: "CODE_INVALID" });
    expect(wrong).toMatchObject({ code: "CODE_INVALID", message: (unknown as DomainError).message });
  });

  it("expires codes after ten minutes", async () => {
    await confirmedAlice();
    await identity.requestPasswordReset({ username: "alice" }, ctx());
    const code = await lastCode();
    env.clock.advance(10 * 60_000);
    await expectCode(identity.resetPassword({ username: "alice", code, password: NEW_PASSWORD }, ctx()), "CODE_EXPIRED");
  });

  it("uses a code once", async () => {
    await confirmedAlice();
    await identity.requestPasswordReset({ username: "alice" }, ctx());
    const code = await lastCode();
    await identity.resetPassword({ username: "alice", code, password: NEW_PASSWORD }, ctx());
    await expectCode(identity.resetPassword({ username: "alice", code, password: "Another5$" }, ctx()), "CODE_INVALID");
  });

  it("locks a code after five wrong tries", async () => {
    await confirmedAlice();
    await identity.requestPasswordReset({ username: "alice" }, ctx());
    const code = await lastCode();
    const wrong = code === "000000" ? "111111" : "000000";
    for (let i = 0; i < 5; i++) await expectCode(identity.resetPassword({ username: "alice", code: wrong, password: NEW_PASSWORD }, ctx()), "CODE_INVALID");
    await expectCode(identity.resetPassword({ username: "alice", code, password: NEW_PASSWORD }, ctx()), "CODE_ATTEMPTS_EXCEEDED");
  });

  it("rate-limits resends: 30 seconds apart, and per client address", async () => {
    await confirmedAlice();
    await identity.requestPasswordReset({ username: "alice" }, ctx());
    const first = await lastCode();
    env.clock.advance(31_000);
    await identity.requestPasswordReset({ username: "alice" }, ctx());
    const second = await lastCode();
    if (first !== second) await expectCode(identity.resetPassword({ username: "alice", code: first, password: NEW_PASSWORD }, ctx()), "CODE_INVALID");
    for (let i = 0; i < 10; i++) await identity.requestPasswordReset({ username: "nobody" }, ctx("10.9.9.9"));
    await expectCode(identity.requestPasswordReset({ username: "nobody" }, ctx("10.9.9.9")), "RATE_LIMITED");
  });

  it("applies the sign-up password rules to the new password", async () => {
    const error = await identity.resetPassword({ username: "alice", code: "123456", password: "weakpass" }, ctx()).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "VALIDATION", field: "password", message: "Password must contain at least one uppercase letter" });
  });
});

describe("change password", () => {
  it("needs the right old password, then changes it", async () => {
    const userId = await confirmedAlice();
    await expectCode(identity.changePassword(userId, { oldPassword: "Wrong123!", newPassword: NEW_PASSWORD }, ctx()), "WRONG_PASSWORD");
    await identity.changePassword(userId, { oldPassword: alice.password, newPassword: NEW_PASSWORD }, ctx());
    expect((await identity.login({ username: "alice", password: NEW_PASSWORD }, ctx())).userId).toBe(userId);
    expect((await stream(userId)).at(-1)?.type).toBe("PasswordChanged");
  });

  it("requires both passwords with the spec's message", async () => {
    const error = await identity.changePassword("x", { oldPassword: "", newPassword: "" }, ctx()).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "VALIDATION", message: "Password is required" });
  });

  it("throttles guessing the old password", async () => {
    const userId = await confirmedAlice();
    for (let i = 0; i < 5; i++) await expectCode(identity.changePassword(userId, { oldPassword: "Wrong123!", newPassword: NEW_PASSWORD }, ctx()), "WRONG_PASSWORD");
    await expectCode(identity.changePassword(userId, { oldPassword: alice.password, newPassword: NEW_PASSWORD }, ctx()), "RATE_LIMITED");
  });
});

describe("log out of all devices", () => {
  it("revokes every session and records it", async () => {
    const userId = await confirmedAlice();
    const sessions = [await identity.startSession(userId, ctx()), await identity.startSession(userId, ctx())];
    await identity.logOutEverywhere(userId, ctx());
    for (const s of sessions) expect(await identity.resolveSession(s.token)).toBeNull();
    const last = (await stream(userId)).at(-1);
    expect(last).toMatchObject({ type: "AllSessionsRevoked", data: { reason: "user-request" } });
    expect((last?.data.sessionRefs as string[]).length).toBe(2);
  });
});

describe("signing in with an OpenID provider", () => {
  const google = (subject: string, email: string, emailVerified = true): VerifiedExternalClaims => ({
    issuer: "https://accounts.example.com",
    providerName: "Google",
    subject,
    email,
    emailVerified,
  });

  it("creates a confirmed account on first sign-in, and finds it again by subject", async () => {
    const first = await identity.signInWithExternalIdentity(google("sub-1", "Carol.Smith+x@example.com"), ctx());
    expect(first.outcome).toBe("created");
    const user = await queries.currentUser(first.userId, null);
    expect(user).toMatchObject({ username: "CarolSmithx", email: "Carol.Smith+x@example.com", status: "ACTIVE", isOnboarded: false });
    const again = await identity.signInWithExternalIdentity(google("sub-1", "changed@example.com"), ctx());
    expect(again).toEqual({ userId: first.userId, outcome: "signed-in" });
    expect(await queries.connectedApps(first.userId)).toEqual([
      { issuer: "https://accounts.example.com", providerName: "Google", email: "Carol.Smith+x@example.com", linkedAt: expect.any(String) },
    ]);
    const { token } = await identity.startSession(first.userId, ctx(), "oidc");
    expect((await identity.resolveSession(token))?.userId).toBe(first.userId);
    // No password: password login gives the usual answer.
    await expectCode(identity.login({ username: "CarolSmithx", password: "Secret12!" }, ctx()), "INVALID_CREDENTIALS");
  });

  it("links an existing account with the same verified email instead of duplicating it", async () => {
    const userId = await confirmedAlice();
    const result = await identity.signInWithExternalIdentity(google("sub-2", "ALICE@example.com"), ctx());
    expect(result).toEqual({ userId, outcome: "linked" });
    expect((await identity.login(alice, ctx())).userId).toBe(userId);
    expect((await queries.connectedApps(userId)).map((a) => a.providerName)).toEqual(["Google"]);
    const linked = (await stream(userId)).find((e) => e.type === "ExternalIdentityLinked");
    expect(linked?.data).toMatchObject({ issuer: "https://accounts.example.com", personal: { subject: "sub-2", email: "ALICE@example.com" } });
  });

  it("makes usernames unique when the local part is taken", async () => {
    await confirmedAlice();
    const { userId } = await identity.signInWithExternalIdentity(google("sub-3", "alice@other.example"), ctx());
    const user = await queries.currentUser(userId, null);
    expect(user?.username).toMatch(/^alice\d{3,6}$/);
  });

  it("refuses an email the provider did not verify", async () => {
    await expectCode(identity.signInWithExternalIdentity(google("sub-4", "dave@example.com", false), ctx()), "OIDC_EMAIL_UNVERIFIED");
  });

  it("confirms a pre-registered unconfirmed account and drops the password someone else may have set", async () => {
    const { userId } = await identity.register(alice, ctx());
    expect(await identity.signInWithExternalIdentity(google("sub-5", "alice@example.com"), ctx())).toEqual({ userId, outcome: "linked" });
    await expectCode(identity.login(alice, ctx()), "INVALID_CREDENTIALS");
  });
});

describe("enumeration and throttling", () => {
  it("throttles logins per client address, whatever the account", async () => {
    for (let i = 0; i < 30; i++) {
      await expectCode(identity.login({ username: `nobody${i}`, password: "Wrong123!" }, ctx("10.7.7.7")), "INVALID_CREDENTIALS");
    }
    await expectCode(identity.login({ username: "someoneelse", password: "Wrong123!" }, ctx("10.7.7.7")), "LOGIN_THROTTLED");
    // Another address is not affected.
    await expectCode(identity.login({ username: "someoneelse", password: "Wrong123!" }, ctx("10.7.7.8")), "INVALID_CREDENTIALS");
  });

  it("rate-limits the on-blur username check, the only place that tells whether a name exists", async () => {
    await confirmedAlice();
    for (let i = 0; i < 30; i++) await identity.isUsernameAvailable(`name${i}`, ctx("10.6.6.6"));
    await expectCode(identity.isUsernameAvailable("alice", ctx("10.6.6.6")), "RATE_LIMITED");
  });

  it("answers OpenID sign-in for an account without a password like any wrong password", async () => {
    const { userId } = await identity.signInWithExternalIdentity(
      { issuer: "https://id.example.com", providerName: "Google", subject: "s", email: "pat@example.com", emailVerified: true },
      ctx(),
    );
    const wrong = await identity.login({ username: "pat", password: "Secret12!" }, ctx()).catch((e: DomainError) => e);
    const unknown = await identity.login({ username: "nobodyatall", password: "Secret12!" }, ctx()).catch((e: DomainError) => e);
    expect(wrong).toMatchObject({ code: "INVALID_CREDENTIALS", message: (unknown as DomainError).message });
    await expectCode(identity.changePassword(userId, { oldPassword: "anything", newPassword: "Better34#" }, ctx()), "NO_PASSWORD");
    // Forgot Password gives such an account a password.
    await identity.requestPasswordReset({ username: "pat" }, ctx());
    await identity.resetPassword({ username: "pat", code: await lastCode(), password: "Better34#" }, ctx());
    expect((await identity.login({ username: "pat", password: "Better34#" }, ctx())).userId).toBe(userId);
  });
});

describe("the read models after these events", () => {
  it("are rebuilt from position 0 into exactly what the live run built", async () => {
    const userId = await confirmedAlice();
    await identity.signInWithExternalIdentity({ issuer: "https://id.example.com", providerName: "Google", subject: "a", email: "alice@example.com", emailVerified: true }, ctx());
    await identity.signInWithExternalIdentity({ issuer: "https://id.example.com", providerName: "Google", subject: "b", email: "bea@example.com", emailVerified: true }, ctx());
    await identity.startSession(userId, ctx());
    env.clock.advance(31_000);
    await identity.requestPasswordReset({ username: "alice" }, ctx());
    await identity.resetPassword({ username: "alice", code: await lastCode(), password: NEW_PASSWORD }, ctx());
    await identity.changePassword(userId, { oldPassword: NEW_PASSWORD, newPassword: "Third56$" }, ctx());
    await identity.logOutEverywhere(userId, ctx());

    const events = env.runtime.get<EventStore>(TOKENS.EventStore);
    const snapshot = async (store: ReadModelStore) => {
      const out: Record<string, unknown[]> = {};
      for (const projector of allProjectors) {
        for (const name of projector.collections) out[name] = await store.collection(name).find({}, { sort: [{ field: "id", direction: "asc" }] });
      }
      return out;
    };
    const live = await snapshot(env.runtime.get<ReadModelStore>(TOKENS.ReadModelStore));
    const fresh = new SqliteReadModelStore(new Database(":memory:"));
    await rebuildProjections(events, fresh, allProjectors);
    expect(await snapshot(fresh)).toEqual(live);
    expect((await queries.connectedApps(userId)).map((a) => a.email)).toEqual(["alice@example.com"]);
  });
});
