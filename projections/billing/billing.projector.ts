import type { RecordedEvent } from "#application/ports/event-store";
import type { Projector } from "#application/ports/projection";
import type { ReadModelStore } from "#application/ports/read-model-store";
import { readEvent } from "#domain/shared/event-schemas";
import { orderAggregate } from "#domain/billing/order-events";
import type { OrderStatus, PaymentProviderName } from "#domain/billing/order";
import type { PlanId } from "#domain/billing/plans";
import { referralCodeOf } from "#domain/billing/referral";
import { signUpFields } from "#domain/billing/referral-events";

/** A row of Order History (spec 001 §3 Transaction). */
export interface OrderReadModel {
  /** The order id, shown as transactionId. */
  id: string;
  userId: string;
  planId: PlanId;
  status: OrderStatus;
  /** Minor units (paise). */
  amount: number;
  currency: string;
  provider: PaymentProviderName;
  /** How it was paid (card, upi, …) once the provider said so. */
  method: string | null;
  createdAt: string;
}

/** Referral code -> the user it belongs to (every signed-up user has one). */
export interface ReferralCodeReadModel {
  id: string;
  userId: string;
}

export const ORDERS = "billing_orders";
export const REFERRAL_CODES = "billing_referral_codes";

export const billingProjector: Projector = {
  name: "billing.orders-and-referral-codes",
  collections: [ORDERS, REFERRAL_CODES],
  async setup(store) {
    await store.collection<OrderReadModel>(ORDERS).ensureIndex(["userId", "createdAt"]);
  },
  async handle(recorded: RecordedEvent, store: ReadModelStore) {
    if (recorded.type === "UserRegistered" && recorded.streamId.startsWith("user-")) {
      const { userId } = signUpFields.parse(recorded.data);
      await store.collection<ReferralCodeReadModel>(REFERRAL_CODES).upsert({ id: referralCodeOf(userId), userId });
      return;
    }
    if (recorded.type === "AccountPurged" && recorded.streamId.startsWith("user-")) {
      const userId = recorded.streamId.slice("user-".length);
      await store.collection<ReferralCodeReadModel>(REFERRAL_CODES).delete(referralCodeOf(userId));
      await store.collection<OrderReadModel>(ORDERS).deleteMany({ userId });
      return;
    }
    if (!recorded.streamId.startsWith("order-")) return;
    const orders = store.collection<OrderReadModel>(ORDERS);
    const orderId = recorded.streamId.slice("order-".length);
    const event = readEvent(orderAggregate.events, recorded);
    switch (event.type) {
      case "OrderCreated": {
        const { userId, planId, amount, currency, provider, createdAt } = event.data;
        await orders.upsert({ id: orderId, userId, planId, status: "created", amount, currency, provider, method: null, createdAt });
        return;
      }
      case "OrderPaid":
        await orders.patch(orderId, { status: "successful", method: event.data.method });
        return;
      case "OrderPaymentFailed":
        await orders.patch(orderId, { status: "failed" });
        return;
    }
  },
};
