import type Stripe from "stripe";
import type { Checkout, CheckoutRequest, PaymentProvider, PaymentReport, VerifiedWebhook } from "#application/billing/payment-provider";
import type { Clock } from "#application/ports/clock";
import { DomainError } from "#domain/shared/domain-error";

export interface StripeOptions {
  secretKey: string;
  webhookSecret: string;
  /** Another API host (tests replay Stripe's wire format on a local server). */
  apiUrl?: string;
  /** Seconds a webhook's signed timestamp stays acceptable, before or after now (Stripe's default 300). */
  toleranceSeconds?: number;
  clock: Clock;
}

const DEFAULT_TOLERANCE_SECONDS = 300;

/** Stripe Checkout (hosted payment page), one-off payments in INR for a prepaid period. */
export class StripePaymentProvider implements PaymentProvider {
  readonly name = "stripe" as const;
  private readonly stripe: Stripe;

  private constructor(
    private readonly options: StripeOptions,
    stripe: Stripe,
  ) {
    this.stripe = stripe;
  }

  /** Stripe's SDK is imported here, not with the server bundle: an installation without payments never loads it (decision 253). */
  static async create(options: StripeOptions): Promise<StripePaymentProvider> {
    const { default: StripeSdk } = await import("stripe");
    const api = options.apiUrl ? new URL(options.apiUrl) : null;
    const stripe = new StripeSdk(options.secretKey, {
      maxNetworkRetries: 1,
      timeout: 20_000,
      ...(api ? { host: api.hostname, port: Number(api.port || (api.protocol === "https:" ? 443 : 80)), protocol: api.protocol.replace(":", "") as "http" | "https" } : {}),
    });
    return new StripePaymentProvider(options, stripe);
  }

  async createCheckout(request: CheckoutRequest): Promise<Checkout> {
    const session = await this.stripe.checkout.sessions.create(
      {
        mode: "payment",
        client_reference_id: request.orderId,
        metadata: { order_id: request.orderId },
        customer_email: request.customerEmail ?? undefined,
        line_items: [{ quantity: 1, price_data: { currency: request.currency.toLowerCase(), unit_amount: request.amount, product_data: { name: request.planName } } }],
        success_url: request.successUrl,
        cancel_url: request.cancelUrl,
      },
      // The order id is Stripe's idempotency key too: a retried request opens the same session.
      { idempotencyKey: `checkout-${request.orderId}` },
    );
    if (!session.url) throw new DomainError("ORDER_CREATION_FAILED", "Failed to create your order. Please try later");
    return { kind: "redirect", providerOrderId: session.id, url: session.url };
  }

  checkoutFor(providerOrderId: string, checkoutUrl: string | null): Checkout {
    if (!checkoutUrl) throw new DomainError("ORDER_CREATION_FAILED", "Failed to create your order. Please try later");
    return { kind: "redirect", providerOrderId, url: checkoutUrl };
  }

  verifyWebhook(rawBody: string, headers: Headers): VerifiedWebhook {
    let event: Stripe.Event;
    const header = headers.get("stripe-signature") ?? "";
    const tolerance = this.options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
    const receivedAt = this.options.clock.now().getTime();
    try {
      event = this.stripe.webhooks.constructEvent(rawBody, header, this.options.webhookSecret, tolerance, undefined, receivedAt);
    } catch {
      throw new DomainError("WEBHOOK_SIGNATURE_INVALID", "The webhook's signature does not verify.");
    }
    // Stripe's check bounds only a timestamp's age: one signed for the future would stay replayable until then.
    const signedAt = Number(/(?:^|,)t=(\d+)/.exec(header)?.[1]);
    if (signedAt > receivedAt / 1000 + tolerance) throw new DomainError("WEBHOOK_SIGNATURE_INVALID", "The webhook's signature does not verify.");
    return { eventId: event.id, report: this.reportOf(event) };
  }

  async confirmReturn(orderId: string, providerOrderId: string): Promise<PaymentReport> {
    const session = await this.stripe.checkout.sessions.retrieve(providerOrderId, { expand: ["payment_intent"] });
    return sessionReport(session, orderId);
  }

  private reportOf(event: Stripe.Event): PaymentReport {
    switch (event.type) {
      case "checkout.session.completed":
      case "checkout.session.async_payment_succeeded":
      case "checkout.session.async_payment_failed":
      case "checkout.session.expired": {
        const session = event.data.object;
        const orderId = session.client_reference_id ?? session.metadata?.order_id;
        if (!orderId) return { outcome: "ignored" };
        if (event.type === "checkout.session.async_payment_failed" || event.type === "checkout.session.expired") {
          return { outcome: "failed", orderId, providerOrderId: session.id, paymentId: paymentIntentId(session) };
        }
        return sessionReport(session, orderId);
      }
      default:
        return { outcome: "ignored" };
    }
  }
}

function paymentIntentId(session: Stripe.Checkout.Session): string | null {
  const intent = session.payment_intent;
  return typeof intent === "string" ? intent : (intent?.id ?? null);
}

function sessionReport(session: Stripe.Checkout.Session, orderId: string): PaymentReport {
  if (session.client_reference_id && session.client_reference_id !== orderId) return { outcome: "ignored" };
  if (session.payment_status !== "paid") return { outcome: "ignored" };
  const intent = session.payment_intent;
  const method = typeof intent === "object" && intent?.payment_method_types?.[0] ? intent.payment_method_types[0] : (session.payment_method_types?.[0] ?? "card");
  return {
    outcome: "paid",
    orderId,
    providerOrderId: session.id,
    paymentId: paymentIntentId(session) ?? session.id,
    method,
    amount: session.amount_total ?? -1,
    currency: (session.currency ?? "").toUpperCase(),
  };
}
