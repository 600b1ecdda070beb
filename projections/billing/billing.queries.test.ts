import { describe, expect, it } from "vitest";
import { referralCodeOf } from "#domain/billing/referral";
import { projectEvents } from "../../tests/support/projector-feed";
import { billingProjector } from "./billing.projector";
import { ordersOf, ownedOrder, referrerOf } from "./billing.queries";

const created = (orderId: string, userId: string, createdAt: string) => ({
  streamId: `order-${orderId}`,
  type: "OrderCreated",
  data: { orderId, userId, planId: "pine-monthly", amount: 19900, currency: "INR", provider: "stripe", providerOrderId: `cs_${orderId}`, checkoutUrl: "https://checkout.stripe.com/c/pay/x", createdAt },
});
const registered = (userId: string) => ({ streamId: `user-${userId}`, type: "UserRegistered", data: { userId, personal: null, refCode: null, registeredAt: "2026-01-01T00:00:00.000Z" } });

describe("the billing read side", () => {
  it("lists a user's orders newest first, ten a page, with how each ended", async () => {
    const events = [
      ...Array.from({ length: 11 }, (_, i) => created(`o${i}`, "alice", `2026-02-${String(i + 1).padStart(2, "0")}T10:00:00.000Z`)),
      { streamId: "order-o10", type: "OrderPaid", data: { paymentId: "pi_1", method: "card", amount: 19900, currency: "INR", paidAt: "2026-02-11T10:01:00.000Z" } },
      { streamId: "order-o9", type: "OrderPaymentFailed", data: { paymentId: null, description: "Payment failed", failedAt: "2026-02-10T10:01:00.000Z" } },
      created("b1", "bob", "2026-02-20T10:00:00.000Z"),
    ];
    const store = await projectEvents([billingProjector], events);
    const first = await ordersOf(store, "alice", { limit: 10, offset: 0 });
    expect(first.total).toBe(11);
    expect(first.orders).toHaveLength(10);
    expect(first.orders[0]).toMatchObject({ id: "o10", status: "successful", method: "card", amount: 19900, currency: "INR" });
    expect(first.orders[1]).toMatchObject({ id: "o9", status: "failed", method: null });
    expect((await ordersOf(store, "alice", { limit: 10, offset: 10 })).orders.map((o) => o.id)).toEqual(["o0"]);
    expect(await ownedOrder(store, "alice", "b1")).toBeNull();
    expect(await ownedOrder(store, "bob", "b1")).toMatchObject({ id: "b1" });
  });

  it("knows whose referral code a code is, until that account is purged", async () => {
    const store = await projectEvents([billingProjector], [registered("alice"), registered("bob")]);
    expect(await referrerOf(store, referralCodeOf("alice"))).toBe("alice");
    expect(await referrerOf(store, "not-a-code")).toBeNull();
    const purged = await projectEvents([billingProjector], [registered("alice"), { streamId: "user-alice", type: "AccountPurged", data: { purgedAt: "2026-03-01T00:00:00.000Z" } }]);
    expect(await referrerOf(purged, referralCodeOf("alice"))).toBeNull();
  });
});
