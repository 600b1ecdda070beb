import { describe, expect, it } from "vitest";
import { fold } from "#domain/shared/decider";
import { ResendTooSoon, userDecider, VERIFICATION_CODE_RESEND_MS } from "./user";

const t0 = new Date("2026-01-01T10:00:00Z");
const registered = userDecider.decide(
  {
    type: "RegisterUser",
    userId: "u1",
    username: "Alice",
    email: "alice@example.com",
    passwordHash: "hash",
    refCode: null,
    code: { codeId: "c1", codeHash: "h-1" },
    now: t0,
  },
  userDecider.initialState(),
);

describe("asking for a new code too soon", () => {
  it("says how many seconds of the resend wait are left, so the dialog's countdown can show the same", () => {
    const sixSecondsLater = new Date(t0.getTime() + 6_000);
    let refusal: unknown;
    try {
      userDecider.decide({ type: "IssueVerificationCode", codeId: "c2", codeHash: "h-2", purpose: "signup", now: sixSecondsLater }, fold(userDecider, registered));
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(ResendTooSoon);
    expect((refusal as ResendTooSoon).code).toBe("RATE_LIMITED");
    expect((refusal as ResendTooSoon).retryAfterSeconds).toBe(VERIFICATION_CODE_RESEND_MS / 1000 - 6);
  });
});
