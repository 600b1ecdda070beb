import { PaymentUnconfirmed } from "#application/billing/checkout";

// The failure screen's text, for its loader (a route's browser build never sees a .server module).
export { PAYMENT_UNCONFIRMED } from "#application/billing/checkout";
import type { DomainError } from "#domain/shared/domain-error";
import { getServices } from "#app/utils/services.server";

/**
 * The buyer's return (Stripe's redirect, Razorpay's handler, PUT
 * /api/transactions), asked of the provider. One the provider could not
 * confirm is logged for the operator as one JSON line, and refused as
 * PAYMENT_UNCONFIRMED (docs/decisions/271).
 */
export async function confirmPaymentReturn(userId: string, orderId: string, params: Record<string, string>) {
  const { checkout, logger } = await getServices();
  try {
    return await checkout.confirmReturn(userId, orderId, params);
  } catch (error) {
    if (error instanceof PaymentUnconfirmed) {
      logger.warn({ event: "payment_return_unconfirmed", provider: error.provider, orderId: error.orderId, failure: error.failure }, "The payment provider could not confirm a buyer's return");
    }
    throw error;
  }
}

/** The failure screen for a return that did not end paid, saying so when the provider could not confirm it. */
export function paymentFailedUrl(orderId: string, error: DomainError): string {
  return `/payment/failed?order=${encodeURIComponent(orderId)}${error.code === "PAYMENT_UNCONFIRMED" ? "&reason=unconfirmed" : ""}`;
}
