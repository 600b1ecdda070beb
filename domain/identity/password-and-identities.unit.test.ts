import { describe, expect, it } from "vitest";
import { DeciderSpecification } from "#domain/shared/decider-specification";
import { type ExternalIdentity, type UserCommand, type UserEvent, userDecider, VERIFICATION_CODE_TTL_MS } from "./user";

/** Given/when/then for password reset and change, session revocation and linked identities. */
const t0 = new Date("2026-01-01T10:00:00Z");
const at = (ms: number) => new Date(t0.getTime() + ms);

const registered: UserEvent[] = userDecider.decide(
  { type: "RegisterUser", userId: "u1", username: "Alice", email: "alice@example.com", passwordHash: "old", refCode: null, code: { codeId: "c1", codeHash: "h-signup" }, now: t0 },
  userDecider.initialState(),
);
const confirmed: UserEvent[] = [...registered, { type: "SignupConfirmed", data: { codeId: "c1", confirmedAt: at(1).toISOString() } }];
const loggedIn: UserEvent[] = [
  ...confirmed,
  { type: "UserLoggedIn", data: { sessionRef: "s1", method: "password", loggedInAt: at(2).toISOString() } },
  { type: "UserLoggedIn", data: { sessionRef: "s2", method: "password", loggedInAt: at(3).toISOString() } },
];
const resetIssued: UserEvent = {
  type: "VerificationCodeIssued",
  data: { codeId: "r1", purpose: "password-reset", codeHash: "h-reset", issuedAt: at(10).toISOString(), expiresAt: at(10 + VERIFICATION_CODE_TTL_MS).toISOString() },
};
const google: ExternalIdentity = { issuer: "https://accounts.google.com", providerName: "Google", identityKey: "k1", subject: "sub-1", email: "alice@example.com" };

const given = (events: UserEvent[]) => DeciderSpecification.for(userDecider).given(events);
const state = (events: UserEvent[]) => given(events).state();

describe("password reset", () => {
  it("issues a reset code that expires in ten minutes", () => {
    const [event] = given(loggedIn).when({ type: "IssueVerificationCode", codeId: "r1", codeHash: "h-reset", purpose: "password-reset", now: at(10) }).events();
    expect(event).toMatchObject({ type: "VerificationCodeIssued", data: { purpose: "password-reset", expiresAt: at(10 + VERIFICATION_CODE_TTL_MS).toISOString() } });
  });

  it("does not resend a reset code within 30 seconds", () => {
    given([...loggedIn, resetIssued]).when({ type: "IssueVerificationCode", codeId: "r2", codeHash: "x", purpose: "password-reset", now: at(20_000) }).thenThrows("RATE_LIMITED");
  });

  it("sets the new password with the right code and revokes every open session", () => {
    const events = given([...loggedIn, resetIssued]).when({ type: "ResetPassword", codeHash: "h-reset", passwordHash: "new", now: at(60_000) }).events();
    expect(events).toEqual([
      { type: "PasswordReset", data: { codeId: "r1", personal: { passwordHash: "new" }, resetAt: at(60_000).toISOString() } },
      { type: "AllSessionsRevoked", data: { sessionRefs: ["s1", "s2"], reason: "password-reset", revokedAt: at(60_000).toISOString() } },
    ]);
    const after = state([...loggedIn, resetIssued, ...events]);
    expect(after).toMatchObject({ passwordHash: "new", openSessions: [] });
  });

  it("does not accept the sign-up code as a reset code", () => {
    given(confirmed).when({ type: "ResetPassword", codeHash: "h-signup", passwordHash: "new", now: at(20) }).thenThrows("CODE_INVALID");
  });

  it("records a wrong code as a rejected attempt and locks after five", () => {
    expect(given([...loggedIn, resetIssued]).when({ type: "ResetPassword", codeHash: "nope", passwordHash: "new", now: at(20) }).events()[0].type).toBe("VerificationCodeRejected");
    const rejections: UserEvent[] = [1, 2, 3, 4, 5].map((attempt) => ({ type: "VerificationCodeRejected", data: { codeId: "r1", attempt, rejectedAt: at(20 + attempt).toISOString() } }));
    given([...loggedIn, resetIssued, ...rejections]).when({ type: "ResetPassword", codeHash: "h-reset", passwordHash: "new", now: at(40) }).thenThrows("CODE_ATTEMPTS_EXCEEDED");
  });

  it("refuses an expired code, and a code used once", () => {
    given([...loggedIn, resetIssued]).when({ type: "ResetPassword", codeHash: "h-reset", passwordHash: "new", now: at(10 + VERIFICATION_CODE_TTL_MS) }).thenThrows("CODE_EXPIRED");
    const used = given([...loggedIn, resetIssued]).when({ type: "ResetPassword", codeHash: "h-reset", passwordHash: "new", now: at(20) }).events();
    given([...loggedIn, resetIssued, ...used]).when({ type: "ResetPassword", codeHash: "h-reset", passwordHash: "newer", now: at(30) }).thenThrows("CODE_INVALID");
  });
});

describe("password change and sessions", () => {
  it("changes the password, keeping it under personal data", () => {
    given(loggedIn).when({ type: "ChangePassword", passwordHash: "new", now: at(5) }).then([
      { type: "PasswordChanged", data: { personal: { passwordHash: "new" }, changedAt: at(5).toISOString() } },
    ]);
  });

  it("logs out of all devices by revoking every open session", () => {
    const events = given(loggedIn).when({ type: "RevokeAllSessions", reason: "user-request", now: at(5) }).events();
    expect(events).toEqual([{ type: "AllSessionsRevoked", data: { sessionRefs: ["s1", "s2"], reason: "user-request", revokedAt: at(5).toISOString() } }]);
    expect(state([...loggedIn, ...events])).toMatchObject({ openSessions: [] });
  });
});

describe("external identities", () => {
  it("registers a confirmed account without a password from a provider's identity", () => {
    const events = given([]).when({ type: "RegisterExternalUser", userId: "u2", username: "bob", email: "bob@example.com", identity: { ...google, email: "bob@example.com" }, now: t0 }).events();
    expect(events.map((e) => e.type)).toEqual(["UserRegistered", "ExternalIdentityLinked"]);
    expect(events[1].data).toMatchObject({ issuer: google.issuer, identityKey: "k1", personal: { subject: "sub-1", email: "bob@example.com" } });
    expect(state(events)).toMatchObject({ confirmed: true, passwordHash: null });
    // It may log in at once.
    expect(given(events).when({ type: "RecordLogin", sessionRef: "s", method: "oidc", now: at(1) }).events()[0].data).toMatchObject({ method: "oidc" });
  });

  it("links to a confirmed account and keeps its password", () => {
    const events = given(confirmed).when({ type: "LinkExternalIdentity", identity: google, now: at(5) }).events();
    expect(events[0]).toMatchObject({ type: "ExternalIdentityLinked", data: { confirmedAccount: false } });
    expect(state([...confirmed, ...events])).toMatchObject({ passwordHash: "old", externalIdentities: [{ providerName: "Google", email: "alice@example.com" }] });
  });

  it("linking an unconfirmed account confirms it and drops the pre-registered password", () => {
    const events = given(registered).when({ type: "LinkExternalIdentity", identity: google, now: at(5) }).events();
    expect(events[0]).toMatchObject({ data: { confirmedAccount: true } });
    expect(state([...registered, ...events])).toMatchObject({ confirmed: true, passwordHash: null });
  });

  it("links the same identity only once, and a second identity of one provider not at all", () => {
    const linked = [...confirmed, ...given(confirmed).when({ type: "LinkExternalIdentity", identity: google, now: at(5) }).events()];
    given(linked).when({ type: "LinkExternalIdentity", identity: google, now: at(6) }).then([]);
    given(linked).when({ type: "LinkExternalIdentity", identity: { ...google, identityKey: "k2", subject: "sub-2" }, now: at(6) }).thenThrows("PROVIDER_ALREADY_LINKED");
  });
});
