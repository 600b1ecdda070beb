import type { PaymentProviderName } from "#domain/billing/order";

/** What the checkout needs to know about an order. */
export interface CheckoutRequest {
  orderId: string;
  planName: string;
  /** Minor units (paise). */
  amount: number;
  currency: string;
  customerEmail: string | null;
  /** Where the provider sends the buyer back (Stripe Checkout); `{CHECKOUT_SESSION_ID}` is filled by Stripe. */
  successUrl: string;
  cancelUrl: string;
}

/** How the browser pays: a hosted page to go to (Stripe), or the hosted checkout script opened on the order (Razorpay). */
export type Checkout =
  | { kind: "redirect"; providerOrderId: string; url: string }
  | { kind: "script"; providerOrderId: string; keyId: string; scriptUrl: string };

/** A payment report, verified: from a webhook or from the buyer's return. */
export type PaymentReport =
  | { outcome: "paid"; orderId: string; providerOrderId: string; paymentId: string; method: string; amount: number; currency: string }
  | { outcome: "failed"; orderId: string; providerOrderId: string; paymentId: string | null }
  /** An event the billing context does not act on (another event type, a payment still pending). */
  | { outcome: "ignored" };

export interface VerifiedWebhook {
  /** The provider's event id: it becomes the id of the event recorded, so the same webhook twice appends once. */
  eventId: string;
  report: PaymentReport;
}

/**
 * The payment provider port (ARCHITECTURE §4 payments): Stripe Checkout or
 * Razorpay (the spec's order → checkout → order_id, payment_id, signature →
 * verification flow). Adapters sign nothing themselves; they verify with the
 * provider's SDK.
 */
export interface PaymentProvider {
  readonly name: PaymentProviderName;
  createCheckout(request: CheckoutRequest): Promise<Checkout>;
  /** The checkout of an order already created (shown again after a double click or a reload). */
  checkoutFor(providerOrderId: string, checkoutUrl: string | null): Checkout;
  /** Verifies the provider's signature over the raw body (throws WEBHOOK_SIGNATURE_INVALID) and reads the event. */
  verifyWebhook(rawBody: string, headers: Headers): VerifiedWebhook;
  /**
   * The buyer came back: Stripe asks the API how the checkout session ended;
   * Razorpay checks `razorpay_signature` over order_id|payment_id, then reads the payment.
   */
  confirmReturn(orderId: string, providerOrderId: string, params: Record<string, string>): Promise<PaymentReport>;
}

export const PAYMENT_PROVIDER = Symbol.for("PaymentProvider");
