import { describe, expect, it } from "vitest";
import { DeciderSpecification } from "#domain/shared/decider-specification";
import { referralCodeOf, referralDecider } from "./referral";

const spec = DeciderSpecification.for(referralDecider);
const joined = { type: "ReferredSignUpRecorded" as const, data: { referredUserId: "bob", joinedAt: "2026-03-01T10:00:00.000Z" } };

describe("a user's referrals", () => {
  it("records a referred sign-up once, however often it is reported", () => {
    spec.given([]).when({ type: "RecordReferredSignUp", referredUserId: "bob", joinedAt: "2026-03-01T10:00:00.000Z" }).then([joined]);
    spec.given([joined]).when({ type: "RecordReferredSignUp", referredUserId: "bob", joinedAt: "2026-03-01T10:00:00.000Z" }).thenNothing();
  });

  it("gives each user a stable, URL-safe code that is not their id", () => {
    expect(referralCodeOf("0190aaaa-0000-7000-8000-000000000001")).toMatch(/^[\w-]{12}$/);
    expect(referralCodeOf("u1")).toBe(referralCodeOf("u1"));
    expect(referralCodeOf("u1")).not.toBe(referralCodeOf("u2"));
  });
});
