import { describe, expect, it } from "vitest";
import { DeciderSpecification } from "#domain/shared/decider-specification";
import { type UserCommand, type UserEvent, userDecider, VERIFICATION_CODE_TTL_MS } from "./user";

const t0 = new Date("2026-01-01T10:00:00Z");
const at = (ms: number) => new Date(t0.getTime() + ms);

const registered: UserEvent[] = userDecider.decide(
  {
    type: "RegisterUser",
    userId: "u1",
    username: "Alice",
    email: "alice@example.com",
    passwordHash: "hash",
    refCode: null,
    code: { codeId: "c1", codeHash: "h-123456" },
    now: t0,
  },
  userDecider.initialState(),
);

const given = (events: UserEvent[]) => DeciderSpecification.for(userDecider).given(events);

describe("a user account", () => {
  it("is registered with its personal data kept apart and a first sign-up code issued", () => {
    expect(registered.map((e) => e.type)).toEqual(["UserRegistered", "VerificationCodeIssued"]);
    expect(registered[0].data).toMatchObject({ personal: { username: "Alice", email: "alice@example.com" } });
    expect(registered[1].data).toMatchObject({ expiresAt: at(VERIFICATION_CODE_TTL_MS).toISOString() });
  });

  it("cannot be registered twice", () => {
    given(registered).when({ type: "RegisterUser", userId: "u1", username: "a", email: "e", passwordHash: "h", refCode: null, code: { codeId: "c", codeHash: "h" }, now: t0 }).thenThrows("USER_EXISTS");
  });

  it("is confirmed by the right code within ten minutes", () => {
    given(registered).when({ type: "ConfirmSignup", codeHash: "h-123456", now: at(60_000) }).then([
      { type: "SignupConfirmed", data: { codeId: "c1", confirmedAt: at(60_000).toISOString() } },
    ]);
  });

  it("records a wrong code as a rejected attempt", () => {
    const events = given(registered).when({ type: "ConfirmSignup", codeHash: "wrong", now: at(1000) }).events();
    expect(events).toEqual([{ type: "VerificationCodeRejected", data: { codeId: "c1", attempt: 1, rejectedAt: at(1000).toISOString() } }]);
  });

  it("refuses an expired code", () => {
    given(registered).when({ type: "ConfirmSignup", codeHash: "h-123456", now: at(VERIFICATION_CODE_TTL_MS) }).thenThrows("CODE_EXPIRED");
  });

  it("locks a code after five wrong tries, even the right code", () => {
    const rejections: UserEvent[] = [1, 2, 3, 4, 5].map((attempt) => ({
      type: "VerificationCodeRejected",
      data: { codeId: "c1", attempt, rejectedAt: at(attempt).toISOString() },
    }));
    given([...registered, ...rejections]).when({ type: "ConfirmSignup", codeHash: "h-123456", now: at(10) }).thenThrows("CODE_ATTEMPTS_EXCEEDED");
  });

  it("refuses a code once it has been used", () => {
    const confirmed: UserEvent = { type: "SignupConfirmed", data: { codeId: "c1", confirmedAt: at(1).toISOString() } };
    given([...registered, confirmed]).when({ type: "ConfirmSignup", codeHash: "h-123456", now: at(2) }).thenThrows("ALREADY_CONFIRMED");
  });

  it("accepts only the newest code after a resend", () => {
    const resent = given(registered).when({ type: "IssueVerificationCode", codeId: "c2", codeHash: "h-654321", purpose: "signup", now: at(31_000) }).events();
    const history = [...registered, ...resent];
    expect(given(history).when({ type: "ConfirmSignup", codeHash: "h-123456", now: at(32_000) }).events()[0].type).toBe("VerificationCodeRejected");
    expect(given(history).when({ type: "ConfirmSignup", codeHash: "h-654321", now: at(32_000) }).events()[0].type).toBe("SignupConfirmed");
  });

  it("does not resend a code within 30 seconds of the last one", () => {
    given(registered).when({ type: "IssueVerificationCode", codeId: "c2", codeHash: "x", purpose: "signup", now: at(29_000) }).thenThrows("RATE_LIMITED");
  });

  it("cannot log in before it is confirmed", () => {
    given(registered).when({ type: "RecordLogin", sessionRef: "s1", now: at(1) }).thenThrows("USER_NOT_CONFIRMED");
  });

  it("logs in and out, and a second logout of the same session records nothing", () => {
    const confirmed: UserEvent = { type: "SignupConfirmed", data: { codeId: "c1", confirmedAt: at(1).toISOString() } };
    const login = given([...registered, confirmed]).when({ type: "RecordLogin", sessionRef: "s1", now: at(2) }).events();
    expect(login[0].type).toBe("UserLoggedIn");
    const history = [...registered, confirmed, ...login];
    const logout = given(history).when({ type: "RecordLogout", sessionRef: "s1", now: at(3) }).events();
    expect(logout[0].type).toBe("UserLoggedOut");
    given([...history, ...logout]).when({ type: "RecordLogout", sessionRef: "s1", now: at(4) }).then([]);
  });
});
