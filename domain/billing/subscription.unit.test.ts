import { describe, expect, it } from "vitest";
import { DeciderSpecification } from "#domain/shared/decider-specification";
import { planAt, type SubscriptionEvent, subscriptionDecider } from "./subscription";

const spec = DeciderSpecification.for(subscriptionDecider);
const now = new Date("2026-01-31T10:00:00Z");
const prepaid = (orderId: string, planId: "pine-monthly" | "pine-yearly", startsAt: string, endsAt: string, at = now): SubscriptionEvent => ({
  type: "PeriodPrepaid",
  data: { orderId, planId, startsAt, endsAt, prepaidAt: at.toISOString() },
});

describe("a subscription", () => {
  it("starts a paid month at the payment", () => {
    spec
      .given([])
      .when({ type: "PrepayPeriod", orderId: "o1", planId: "pine-monthly", now })
      .then([prepaid("o1", "pine-monthly", "2026-01-31T10:00:00.000Z", "2026-03-03T10:00:00.000Z")]);
  });

  it("starts a period bought during another where that one ends", () => {
    spec
      .given([prepaid("o1", "pine-monthly", "2026-01-31T10:00:00.000Z", "2026-03-03T10:00:00.000Z")])
      .when({ type: "PrepayPeriod", orderId: "o2", planId: "pine-yearly", now })
      .then([prepaid("o2", "pine-yearly", "2026-03-03T10:00:00.000Z", "2027-03-03T10:00:00.000Z")]);
  });

  it("prepays once per order, however often its payment is reported", () => {
    spec.given([prepaid("o1", "pine-monthly", "2026-01-31T10:00:00.000Z", "2026-03-03T10:00:00.000Z")]).when({ type: "PrepayPeriod", orderId: "o1", planId: "pine-monthly", now }).thenNothing();
  });

  it("refuses a plan that is not for sale", () => {
    spec.given([]).when({ type: "PrepayPeriod", orderId: "o1", planId: "fern", now }).thenThrows("PLAN_NOT_FOR_SALE");
    spec.given([]).when({ type: "PrepayPeriod", orderId: "o1", planId: "evergreen", now }).thenThrows("PLAN_NOT_FOR_SALE");
  });

  it("is on Evergreen outside its paid periods", () => {
    const state = spec.given([prepaid("o1", "pine-monthly", "2026-01-31T10:00:00.000Z", "2026-03-03T10:00:00.000Z")]).state();
    expect(planAt(state, new Date("2026-02-15T00:00:00Z")).planId).toBe("pine-monthly");
    expect(planAt(state, new Date("2026-03-03T10:00:00Z")).planId).toBe("evergreen");
  });
});
