import type { Decider, DomainEvent } from "#domain/shared/decider";
import { DomainError } from "#domain/shared/domain-error";
import { PLANS, type PlanId } from "./plans";

/**
 * A payment order (stream `order-<orderId>`, spec 001 §3 Payment order and
 * Transaction): created when the user chooses a plan, with the provider's
 * checkout; paid or failed as the provider reports. A payment counts only when
 * it is for this order, this amount and this currency; reported twice, it is
 * recorded once.
 */

export type PaymentProviderName = "stripe" | "razorpay";
export type OrderStatus = "created" | "successful" | "failed";

export const PAYMENT_FAILED = "Payment failed";

export type OrderEvent =
  | DomainEvent<
      "OrderCreated",
      {
        orderId: string;
        userId: string;
        planId: PlanId;
        /** In the currency's minor unit (paise). */
        amount: number;
        currency: string;
        provider: PaymentProviderName;
        providerOrderId: string;
        /** The hosted checkout page (Stripe); null where a script opens on the order (Razorpay). */
        checkoutUrl: string | null;
        createdAt: string;
      }
    >
  | DomainEvent<"OrderPaid", { paymentId: string; method: string; amount: number; currency: string; paidAt: string }>
  | DomainEvent<"OrderPaymentFailed", { paymentId: string | null; description: string; failedAt: string }>;

export type OrderCommand =
  | { type: "CreateOrder"; orderId: string; userId: string; planId: PlanId; provider: PaymentProviderName; providerOrderId: string; checkoutUrl: string | null; now: Date }
  /** What the provider reports (a verified webhook or a verified return). */
  | { type: "RecordPayment"; providerOrderId: string; paymentId: string; method: string; amount: number; currency: string; now: Date }
  | { type: "RecordPaymentFailure"; providerOrderId: string; paymentId: string | null; now: Date };

export type OrderState =
  | { status: "none" }
  | {
      status: OrderStatus;
      orderId: string;
      userId: string;
      planId: PlanId;
      amount: number;
      currency: string;
      provider: PaymentProviderName;
      providerOrderId: string;
      checkoutUrl: string | null;
    };

/** The price of a plan in paise, INR (spec 001 §9: ordering uses currency INR). */
export function orderAmount(planId: PlanId): { amount: number; currency: "INR" } {
  const plan = PLANS[planId];
  if (!plan.billingPeriod || plan.comingSoon) throw new DomainError("PLAN_NOT_FOR_SALE", `${plan.name} cannot be bought.`);
  return { amount: plan.priceInr * 100, currency: "INR" };
}

function existing(state: OrderState, providerOrderId: string) {
  if (state.status === "none" || state.providerOrderId !== providerOrderId) throw new DomainError("ORDER_NOT_FOUND", "Order not found");
  return state;
}

export function decide(command: OrderCommand, state: OrderState): OrderEvent[] {
  switch (command.type) {
    case "CreateOrder": {
      // The same order asked for again (a double click carries the same order id) is the order already made.
      if (state.status !== "none") return [];
      const { amount, currency } = orderAmount(command.planId);
      return [
        {
          type: "OrderCreated",
          data: {
            orderId: command.orderId,
            userId: command.userId,
            planId: command.planId,
            amount,
            currency,
            provider: command.provider,
            providerOrderId: command.providerOrderId,
            checkoutUrl: command.checkoutUrl,
            createdAt: command.now.toISOString(),
          },
        },
      ];
    }
    case "RecordPayment": {
      const order = existing(state, command.providerOrderId);
      if (order.status === "successful") return [];
      if (command.amount !== order.amount || command.currency.toUpperCase() !== order.currency) {
        throw new DomainError("PAYMENT_MISMATCH", "The payment's amount or currency differs from the order.");
      }
      return [{ type: "OrderPaid", data: { paymentId: command.paymentId, method: command.method, amount: command.amount, currency: order.currency, paidAt: command.now.toISOString() } }];
    }
    case "RecordPaymentFailure": {
      const order = existing(state, command.providerOrderId);
      // A failure reported after the payment went through (events arrive in any order) changes nothing.
      if (order.status !== "created") return [];
      return [{ type: "OrderPaymentFailed", data: { paymentId: command.paymentId, description: PAYMENT_FAILED, failedAt: command.now.toISOString() } }];
    }
  }
}

export function evolve(state: OrderState, event: OrderEvent): OrderState {
  switch (event.type) {
    case "OrderCreated":
      return { status: "created", ...event.data };
    case "OrderPaid":
      return state.status === "none" ? state : { ...state, status: "successful" };
    case "OrderPaymentFailed":
      return state.status === "none" ? state : { ...state, status: "failed" };
  }
}

export const orderDecider: Decider<OrderCommand, OrderEvent, OrderState> = {
  initialState: () => ({ status: "none" }),
  decide,
  evolve,
};

export const orderStreamId = (orderId: string) => `order-${orderId}`;
