import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { randomUUID } from "node:crypto";
import { z } from "zod";
import { confirmPaymentReturn } from "#app/components/billing/payment-return.server";
import { apiErrorResponse, readJsonBody } from "#app/utils/api-errors.server";
import { validateCsrfHeader } from "#app/utils/csrf-header.server";
import { getRequestContext } from "#app/utils/request-context.server";
import { getServices } from "#app/utils/services.server";
import { requireUser, requireWritableUser } from "#app/utils/session.server";
import { parseInput } from "#application/shared/parse";

const createSchema = z.object({
  plan_id: z.string().min(1).max(40),
  currency: z.literal("INR", { errorMap: () => ({ message: "Orders are in INR." }) }),
  /** Sent again with a retried request (a double click), it answers the same order. */
  request_key: z.string().regex(/^[\w-]{8,64}$/).optional(),
});

const resultSchema = z.object({
  order_id: z.string().min(1).max(100),
  transaction_id: z.string().min(1).max(100),
  payment_id: z.string().max(100).default(""),
  signature: z.string().max(200).default(""),
  status: z.enum(["successful", "failed"]),
  description: z.string().max(200).optional(),
});

/** GET /api/transactions?page= — the user's transactions, newest first, 10 a page (spec 001 §3 Transaction). */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  try {
    const page = Math.max(1, Number.parseInt(new URL(request.url).searchParams.get("page") ?? "1", 10) || 1);
    const { billing } = await getServices();
    const { orders, total } = await billing.orders(user.id, page);
    return Response.json(
      { transactions: orders.map((o) => ({ transaction_id: o.id, status: o.status, created_at: o.createdAt, method: o.method, amount: o.amount, currency: o.currency })), total, page },
      { headers: { "Cache-Control": "private, no-store" } },
    );
  } catch (error) {
    return apiErrorResponse(error);
  }
}

/**
 * POST /api/transactions { plan_id, currency } → { message, response: { order_id, currency, amount, transaction_id, customer_id } };
 * PUT /api/transactions { order_id, transaction_id, payment_id, signature, status, description } — the checkout's result,
 * verified on the server (a 'successful' result without a valid signature is refused).
 */
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireWritableUser(request);
  try {
    await validateCsrfHeader(request);
    const { checkout } = await getServices();
    const ctx = getRequestContext(request, { actorId: user.id, impersonatorId: user.impersonatorId });
    if (request.method === "POST") {
      const input = parseInput(createSchema, await readJsonBody(request));
      const started = await checkout.start(user.id, { planId: input.plan_id, requestKey: input.request_key ?? randomUUID(), email: user.email || null }, { publicUrl: new URL(request.url).origin }, ctx);
      return Response.json(
        {
          message: "Order created",
          response: {
            order_id: started.providerOrderId,
            currency: started.currency,
            amount: started.amount,
            transaction_id: started.orderId,
            customer_id: user.id,
            ...(started.checkout.kind === "redirect" ? { checkout_url: started.checkout.url } : { key_id: started.checkout.keyId }),
          },
        },
        { status: 201 },
      );
    }
    if (request.method === "PUT") {
      const input = parseInput(resultSchema, await readJsonBody(request));
      const order = await checkout.order(user.id, input.transaction_id);
      if (order.providerOrderId !== input.order_id) return Response.json({ code: "ORDER_NOT_FOUND", message: "Order not found" }, { status: 404 });
      const after =
        input.status === "successful"
          ? await confirmPaymentReturn(user.id, input.transaction_id, { razorpay_order_id: input.order_id, razorpay_payment_id: input.payment_id, razorpay_signature: input.signature })
          : await checkout.recordFailure(user.id, input.transaction_id, ctx);
      return Response.json({ transaction_id: input.transaction_id, status: after.status });
    }
    return Response.json({ code: "METHOD", message: "Method not allowed" }, { status: 405 });
  } catch (error) {
    return apiErrorResponse(error);
  }
}
