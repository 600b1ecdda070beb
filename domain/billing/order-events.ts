import { z } from "zod";
import { type AggregateDefinition, eventData, isoTime } from "#domain/shared/event-schemas";
import { type OrderCommand, type OrderEvent, type OrderState, orderDecider, orderStreamId } from "./order";
import { PLAN_IDS } from "./plans";

const money = { amount: z.number().int().min(0), currency: z.string().length(3) };

export const orderAggregate: AggregateDefinition<OrderCommand, OrderEvent, OrderState> = {
  decider: orderDecider,
  streamId: orderStreamId,
  events: {
    OrderCreated: {
      version: 1,
      data: eventData({
        orderId: z.string().min(1),
        userId: z.string().min(1),
        planId: z.enum(PLAN_IDS),
        ...money,
        provider: z.enum(["stripe", "razorpay"]),
        providerOrderId: z.string().min(1),
        checkoutUrl: z.string().url().nullable(),
        createdAt: isoTime,
      }),
    },
    OrderPaid: { version: 1, data: eventData({ paymentId: z.string().min(1), method: z.string(), ...money, paidAt: isoTime }) },
    OrderPaymentFailed: { version: 1, data: eventData({ paymentId: z.string().nullable(), description: z.string(), failedAt: isoTime }) },
  },
};
