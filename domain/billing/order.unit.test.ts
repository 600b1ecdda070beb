import { describe, it } from "vitest";
import { DeciderSpecification } from "#domain/shared/decider-specification";
import { type OrderEvent, orderDecider } from "./order";

const spec = DeciderSpecification.for(orderDecider);
const now = new Date("2026-03-01T10:00:00Z");
const created: OrderEvent = {
  type: "OrderCreated",
  data: { orderId: "o1", userId: "alice", planId: "pine-monthly", amount: 19900, currency: "INR", provider: "razorpay", providerOrderId: "order_A", checkoutUrl: null, createdAt: now.toISOString() },
};
const paid: OrderEvent = { type: "OrderPaid", data: { paymentId: "pay_1", method: "upi", amount: 19900, currency: "INR", paidAt: now.toISOString() } };
const pay = (change: Partial<{ providerOrderId: string; amount: number; currency: string }> = {}) => ({
  type: "RecordPayment" as const,
  providerOrderId: "order_A",
  paymentId: "pay_1",
  method: "upi",
  amount: 19900,
  currency: "INR",
  now,
  ...change,
});

describe("a payment order", () => {
  it("is created at the plan's price in paise, INR, and once for the same order id", () => {
    spec
      .given([])
      .when({ type: "CreateOrder", orderId: "o1", userId: "alice", planId: "pine-monthly", provider: "razorpay", providerOrderId: "order_A", checkoutUrl: null, now })
      .then([created]);
    spec.given([created]).when({ type: "CreateOrder", orderId: "o1", userId: "alice", planId: "pine-monthly", provider: "razorpay", providerOrderId: "order_B", checkoutUrl: null, now }).thenNothing();
  });

  it("refuses a plan that is not sold", () => {
    spec.given([]).when({ type: "CreateOrder", orderId: "o1", userId: "alice", planId: "fern", provider: "stripe", providerOrderId: "cs_1", checkoutUrl: null, now }).thenThrows("PLAN_NOT_FOR_SALE");
    spec.given([]).when({ type: "CreateOrder", orderId: "o1", userId: "alice", planId: "evergreen", provider: "stripe", providerOrderId: "cs_1", checkoutUrl: null, now }).thenThrows("PLAN_NOT_FOR_SALE");
  });

  it("records a payment of the order's amount and currency once", () => {
    spec.given([created]).when(pay()).then([paid]);
    spec.given([created, paid]).when(pay()).thenNothing();
  });

  it("refuses a payment of another amount or currency, for another provider order, or for no order", () => {
    spec.given([created]).when(pay({ amount: 100 })).thenThrows("PAYMENT_MISMATCH");
    spec.given([created]).when(pay({ currency: "USD" })).thenThrows("PAYMENT_MISMATCH");
    spec.given([created]).when(pay({ providerOrderId: "order_B" })).thenThrows("ORDER_NOT_FOUND");
    spec.given([]).when(pay()).thenThrows("ORDER_NOT_FOUND");
  });

  it("fails with 'Payment failed' unless it was paid, whatever the order of the reports", () => {
    spec
      .given([created])
      .when({ type: "RecordPaymentFailure", providerOrderId: "order_A", paymentId: null, now })
      .then([{ type: "OrderPaymentFailed", data: { paymentId: null, description: "Payment failed", failedAt: now.toISOString() } }]);
    spec.given([created, paid]).when({ type: "RecordPaymentFailure", providerOrderId: "order_A", paymentId: null, now }).thenNothing();
    // A retried payment after a failed attempt still counts.
    spec.given([created, { type: "OrderPaymentFailed", data: { paymentId: "pay_0", description: "Payment failed", failedAt: now.toISOString() } }]).when(pay()).then([paid]);
  });
});
