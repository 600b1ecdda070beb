import type Razorpay from "razorpay";
import type { Checkout, CheckoutRequest, PaymentProvider, PaymentReport, VerifiedWebhook } from "#application/billing/payment-provider";
import { DomainError } from "#domain/shared/domain-error";

export interface RazorpayOptions {
  keyId: string;
  keySecret: string;
  webhookSecret: string;
  /** Another API host (tests replay Razorpay's wire format on a local server). */
  apiUrl?: string;
  /** The hosted checkout script. */
  checkoutScriptUrl: string;
}

interface RazorpayPayment {
  id: string;
  order_id: string | null;
  amount: number;
  currency: string;
  method?: string;
  status: string;
  notes?: Record<string, string> | string[];
}

const invalid = () => new DomainError("WEBHOOK_SIGNATURE_INVALID", "The webhook's signature does not verify.");

/** Razorpay: order → hosted checkout → order_id, payment_id, signature → verification (spec 001 §4). */
export class RazorpayPaymentProvider implements PaymentProvider {
  readonly name = "razorpay" as const;
  private readonly razorpay: Razorpay;

  private constructor(
    private readonly options: RazorpayOptions,
    private readonly sdk: typeof Razorpay,
  ) {
    this.razorpay = new sdk({ key_id: options.keyId, key_secret: options.keySecret });
    // The SDK has no host option; its HTTP client is an axios instance whose base URL tests point at the replay server.
    if (options.apiUrl) (this.razorpay as unknown as { api: { rq: { defaults: { baseURL: string } } } }).api.rq.defaults.baseURL = options.apiUrl.replace(/\/+$/, "");
  }

  /** Razorpay's SDK is imported here, not with the server bundle: an installation without payments never loads it (decision 253). */
  static async create(options: RazorpayOptions): Promise<RazorpayPaymentProvider> {
    return new RazorpayPaymentProvider(options, (await import("razorpay")).default);
  }

  async createCheckout(request: CheckoutRequest): Promise<Checkout> {
    const order = await this.razorpay.orders.create({ amount: request.amount, currency: request.currency, receipt: request.orderId.slice(0, 40), notes: { order_id: request.orderId } });
    return this.checkoutFor(String(order.id));
  }

  checkoutFor(providerOrderId: string): Checkout {
    return { kind: "script", providerOrderId, keyId: this.options.keyId, scriptUrl: this.options.checkoutScriptUrl };
  }

  verifyWebhook(rawBody: string, headers: Headers): VerifiedWebhook {
    const signature = headers.get("x-razorpay-signature");
    const eventId = headers.get("x-razorpay-event-id");
    if (!signature || !eventId || !this.sdk.validateWebhookSignature(rawBody, signature, this.options.webhookSecret)) throw invalid();
    const event = JSON.parse(rawBody) as { event: string; payload?: { payment?: { entity: RazorpayPayment } } };
    const payment = event.payload?.payment?.entity;
    if (!payment) return { eventId, report: { outcome: "ignored" } };
    if (event.event === "payment.captured") return { eventId, report: paymentReport(payment) };
    if (event.event === "payment.failed") {
      const orderId = ourOrderId(payment);
      if (!orderId || !payment.order_id) return { eventId, report: { outcome: "ignored" } };
      return { eventId, report: { outcome: "failed", orderId, providerOrderId: payment.order_id, paymentId: payment.id } };
    }
    return { eventId, report: { outcome: "ignored" } };
  }

  async confirmReturn(orderId: string, providerOrderId: string, params: Record<string, string>): Promise<PaymentReport> {
    const paymentId = params.razorpay_payment_id ?? "";
    const signature = params.razorpay_signature ?? "";
    if (!paymentId || !signature || // The SDK's payment verification: HMAC-SHA256 of "order_id|payment_id" with the key secret.
      !this.sdk.validateWebhookSignature(`${providerOrderId}|${paymentId}`, signature, this.options.keySecret)) {
      throw new DomainError("PAYMENT_SIGNATURE_INVALID", "The payment's signature does not verify.");
    }
    const payment = (await this.razorpay.payments.fetch(paymentId)) as unknown as RazorpayPayment;
    if (payment.order_id !== providerOrderId) throw new DomainError("PAYMENT_SIGNATURE_INVALID", "The payment is not for this order.");
    const report = paymentReport({ ...payment, notes: { order_id: orderId } });
    // Authorized but not yet captured: the captured webhook records it.
    return payment.status === "captured" ? report : { outcome: "ignored" };
  }
}

function ourOrderId(payment: RazorpayPayment): string | null {
  return payment.notes && !Array.isArray(payment.notes) ? (payment.notes.order_id ?? null) : null;
}

function paymentReport(payment: RazorpayPayment): PaymentReport {
  const orderId = ourOrderId(payment);
  if (!orderId || !payment.order_id) return { outcome: "ignored" };
  return { outcome: "paid", orderId, providerOrderId: payment.order_id, paymentId: payment.id, method: payment.method ?? "unknown", amount: payment.amount, currency: payment.currency.toUpperCase() };
}
