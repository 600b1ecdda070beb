import { describe, expect, it } from "vitest";
import { DomainError } from "#domain/shared/domain-error";
import { fold } from "#domain/shared/decider";
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

function given(events: UserEvent[]) {
  return {
    when(command: UserCommand) {
      return userDecider.decide(command, fold(userDecider, events));
    },
  };
}

function expectDomainError(fn: () => unknown, code: string) {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).code).toBe(code);
    return;
  }
  throw new Error(`expected DomainError ${code}`);
}

describe("a user account", () => {
  it("is registered with its personal data kept apart and a first sign-up code issued", () => {
    expect(registered.map((e) => e.type)).toEqual(["UserRegistered", "VerificationCodeIssued"]);
    expect(registered[0].data).toMatchObject({ personal: { username: "Alice", email: "alice@example.com" } });
    expect(registered[1].data).toMatchObject({ expiresAt: at(VERIFICATION_CODE_TTL_MS).toISOString() });
  });

  it("cannot be registered twice", () => {
    expectDomainError(
      () => given(registered).when({ type: "RegisterUser", userId: "u1", username: "a", email: "e", passwordHash: "h", refCode: null, code: { codeId: "c", codeHash: "h" }, now: t0 }),
      "USER_EXISTS",
    );
  });

  it("is confirmed by the right code within ten minutes", () => {
    expect(given(registered).when({ type: "ConfirmSignup", codeHash: "h-123456", now: at(60_000) })).toEqual([
      { type: "SignupConfirmed", data: { codeId: "c1", confirmedAt: at(60_000).toISOString() } },
    ]);
  });

  it("records a wrong code as a rejected attempt", () => {
    const events = given(registered).when({ type: "ConfirmSignup", codeHash: "wrong", now: at(1000) });
    expect(events).toEqual([{ type: "VerificationCodeRejected", data: { codeId: "c1", attempt: 1, rejectedAt: at(1000).toISOString() } }]);
  });

  it("refuses an expired code", () => {
    expectDomainError(() => given(registered).when({ type: "ConfirmSignup", codeHash: "h-123456", now: at(VERIFICATION_CODE_TTL_MS) }), "CODE_EXPIRED");
  });

  it("locks a code after five wrong tries, even the right code", () => {
    const rejections: UserEvent[] = [1, 2, 3, 4, 5].map((attempt) => ({
      type: "VerificationCodeRejected",
      data: { codeId: "c1", attempt, rejectedAt: at(attempt).toISOString() },
    }));
    expectDomainError(() => given([...registered, ...rejections]).when({ type: "ConfirmSignup", codeHash: "h-123456", now: at(10) }), "CODE_ATTEMPTS_EXCEEDED");
  });

  it("refuses a code once it has been used", () => {
    const confirmed: UserEvent = { type: "SignupConfirmed", data: { codeId: "c1", confirmedAt: at(1).toISOString() } };
    expectDomainError(() => given([...registered, confirmed]).when({ type: "ConfirmSignup", codeHash: "h-123456", now: at(2) }), "ALREADY_CONFIRMED");
  });

  it("accepts only the newest code after a resend", () => {
    const resent = given(registered).when({ type: "IssueVerificationCode", codeId: "c2", codeHash: "h-654321", purpose: "signup", now: at(31_000) });
    const history = [...registered, ...resent];
    expect(given(history).when({ type: "ConfirmSignup", codeHash: "h-123456", now: at(32_000) })[0].type).toBe("VerificationCodeRejected");
    expect(given(history).when({ type: "ConfirmSignup", codeHash: "h-654321", now: at(32_000) })[0].type).toBe("SignupConfirmed");
  });

  it("does not resend a code within 30 seconds of the last one", () => {
    expectDomainError(() => given(registered).when({ type: "IssueVerificationCode", codeId: "c2", codeHash: "x", purpose: "signup", now: at(29_000) }), "RATE_LIMITED");
  });

  it("cannot log in before it is confirmed", () => {
    expectDomainError(() => given(registered).when({ type: "RecordLogin", sessionRef: "s1", now: at(1) }), "USER_NOT_CONFIRMED");
  });

  it("logs in and out, and a second logout of the same session records nothing", () => {
    const confirmed: UserEvent = { type: "SignupConfirmed", data: { codeId: "c1", confirmedAt: at(1).toISOString() } };
    const login = given([...registered, confirmed]).when({ type: "RecordLogin", sessionRef: "s1", now: at(2) });
    expect(login[0].type).toBe("UserLoggedIn");
    const history = [...registered, confirmed, ...login];
    const logout = given(history).when({ type: "RecordLogout", sessionRef: "s1", now: at(3) });
    expect(logout[0].type).toBe("UserLoggedOut");
    expect(given([...history, ...logout]).when({ type: "RecordLogout", sessionRef: "s1", now: at(4) })).toEqual([]);
  });
});
