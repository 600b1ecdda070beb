import type { ReadModelStore } from "#application/ports/read-model-store";
import { ORDERS, type OrderReadModel, REFERRAL_CODES, type ReferralCodeReadModel } from "./billing.projector";

export type { OrderReadModel } from "./billing.projector";

/** The user's orders, newest first, a page at a time (Order History, page size 10). */
export async function ordersOf(store: ReadModelStore, userId: string, page: { limit: number; offset: number }) {
  const orders = store.collection<OrderReadModel>(ORDERS);
  const [rows, total] = await Promise.all([
    orders.find({ userId }, { sort: [{ field: "createdAt", direction: "desc" }], limit: page.limit, offset: page.offset }),
    orders.count({ userId }),
  ]);
  return { orders: rows, total };
}

/** The user's own order, or null (also for someone else's). */
export async function ownedOrder(store: ReadModelStore, userId: string, orderId: string): Promise<OrderReadModel | null> {
  const order = await store.collection<OrderReadModel>(ORDERS).get(orderId);
  return order && order.userId === userId ? order : null;
}

/** Whose referral code this is (null for an unknown code). */
export async function referrerOf(store: ReadModelStore, code: string): Promise<string | null> {
  return (await store.collection<ReferralCodeReadModel>(REFERRAL_CODES).get(code))?.userId ?? null;
}
