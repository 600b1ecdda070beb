import { createHash } from "node:crypto";
import { inject, injectable, optional } from "inversify";
import { TOKENS } from "#application/tokens";
import type { Clock } from "#application/ports/clock";
import type { EventMetadata, EventStore } from "#application/ports/event-store";
import type { IdGenerator } from "#application/ports/ids";
import type { ProjectionWaiter } from "#application/ports/projection";
import { Aggregate } from "#application/shared/aggregate";
import { eventMetadata, type RequestContext } from "#application/shared/request-context";
import { type OrderCommand, type OrderEvent, type OrderState, orderAmount } from "#domain/billing/order";
import { orderAggregate } from "#domain/billing/order-events";
import { isPlanId, PLANS } from "#domain/billing/plans";
import { DomainError } from "#domain/shared/domain-error";
import { type Checkout, PAYMENT_PROVIDER, type PaymentProvider, type PaymentReport } from "./payment-provider";

export const PAYMENTS_NOT_CONFIGURED = "Payments are not configured on this installation.";
export const ORDER_CREATION_FAILED = "Failed to create your order. Please try later";
export const PAYMENT_UNCONFIRMED = "We could not confirm your payment yet; if you were charged it will appear within minutes";

/**
 * The provider could not say how a buyer's return ended: it failed, could not
 * be reached, or does not know the payment yet. The buyer may well have paid,
 * so nothing is recorded; the provider's webhook records the payment when it comes.
 */
export class PaymentUnconfirmed extends DomainError {
  constructor(
    readonly provider: string,
    readonly orderId: string,
    /** What the provider answered, for the operator's log (never shown to the buyer). */
    readonly failure: string,
  ) {
    super("PAYMENT_UNCONFIRMED", PAYMENT_UNCONFIRMED);
  }
}

/** A UUID derived from a string, so a provider's event id (or a form's request key) names one event (or order) for good. */
export function derivedUuid(name: string): string {
  const hex = createHash("sha256").update(name).digest("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${((Number.parseInt(hex.slice(16, 18), 16) & 0x3f) | 0x80).toString(16)}${hex.slice(18, 20)}-${hex.slice(20, 32)}`;
}

export interface StartedCheckout {
  orderId: string;
  /** The provider's order id (Razorpay's order_id; Stripe's checkout session). */
  providerOrderId: string;
  checkout: Checkout;
  amount: number;
  currency: string;
}

export interface CheckoutUrls {
  /** Absolute URL of the app, for the provider to send the buyer back to. */
  publicUrl: string;
}

const ORDER_NOT_FOUND = () => new DomainError("ORDER_NOT_FOUND", "Order not found");

/**
 * Buying a plan (spec 001 §4 Payment): an order with the provider's checkout,
 * then the payment as the provider reports it — by a signed webhook or by the
 * buyer's return, whichever comes first; the other changes nothing.
 */
@injectable()
export class CheckoutService {
  private readonly orders: Aggregate<OrderCommand, OrderEvent, OrderState>;

  constructor(
    @inject(TOKENS.EventStore) private readonly eventStore: EventStore,
    @inject(TOKENS.Ids) ids: IdGenerator,
    @inject(TOKENS.Clock) private readonly clock: Clock,
    @inject(TOKENS.ProjectionWaiter) private readonly projections: ProjectionWaiter,
    @inject(PAYMENT_PROVIDER) @optional() private readonly paymentProvider: PaymentProvider | undefined,
  ) {
    this.orders = new Aggregate(eventStore, ids, orderAggregate);
  }

  get configured(): boolean {
    return this.paymentProvider !== undefined;
  }

  /** The configured provider (its webhooks are verified by it), or undefined. */
  get provider(): PaymentProvider | undefined {
    return this.paymentProvider;
  }

  /**
   * Opens a checkout for a plan. `requestKey` comes with the form that was
   * shown: a double click sends it twice and gets the same order.
   */
  async start(userId: string, input: { planId: string; requestKey: string; email: string | null }, urls: CheckoutUrls, ctx: RequestContext): Promise<StartedCheckout> {
    if (!isPlanId(input.planId)) throw new DomainError("PLAN_NOT_FOUND", "This plan does not exist.");
    const planId = input.planId;
    const { amount, currency } = orderAmount(planId);
    if (!this.paymentProvider) throw new DomainError("PAYMENTS_NOT_CONFIGURED", PAYMENTS_NOT_CONFIGURED);
    if (!/^[\w-]{8,64}$/.test(input.requestKey)) throw new DomainError("VALIDATION", "The form is out of date. Reload the page and try again.");
    const orderId = derivedUuid(`order:${userId}:${input.requestKey}`);
    const existing = await this.orders.load(orderId);
    if (existing.state.status !== "none") return this.started(userId, existing.state);

    const base = urls.publicUrl.replace(/\/+$/, "");
    let checkout: Checkout;
    try {
      checkout = await this.paymentProvider.createCheckout({
        orderId,
        planName: `${PLANS[planId].name} (${PLANS[planId].billingPeriod})`,
        amount,
        currency,
        customerEmail: input.email,
        successUrl: `${base}/payment/success?order=${orderId}&session_id={CHECKOUT_SESSION_ID}`,
        cancelUrl: `${base}/payment/failed?order=${orderId}&reason=cancelled`,
      });
    } catch (error) {
      if (error instanceof DomainError) throw error;
      throw new DomainError("ORDER_CREATION_FAILED", ORDER_CREATION_FAILED);
    }
    const result = await this.orders.handle(
      orderId,
      { type: "CreateOrder", orderId, userId, planId, provider: this.paymentProvider.name, providerOrderId: checkout.providerOrderId, checkoutUrl: checkout.kind === "redirect" ? checkout.url : null, now: this.clock.now() },
      { metadata: eventMetadata(ctx, userId, `order-${orderId}`) },
    );
    // The orders list read next (GET /api/transactions, My Plan's Orders) shows it: read-your-writes across processes.
    await this.projections.waitForPosition(result.position);
    // Two clicks raced past the load: the order the first one made is the one.
    return this.started(userId, result.after.state);
  }

  private started(userId: string, state: OrderState): StartedCheckout {
    if (state.status === "none" || state.userId !== userId || !this.paymentProvider) throw ORDER_NOT_FOUND();
    const checkout = this.paymentProvider.checkoutFor(state.providerOrderId, state.checkoutUrl);
    return { orderId: state.orderId, providerOrderId: state.providerOrderId, checkout, amount: state.amount, currency: state.currency };
  }

  /** The user's own order (404 for another's). */
  async order(userId: string, orderId: string) {
    const { state } = await this.orders.load(orderId);
    if (state.status === "none" || state.userId !== userId) throw ORDER_NOT_FOUND();
    return state;
  }

  /** A verified webhook: recorded under the provider's event id, so the same webhook twice appends once. */
  async recordWebhook(eventId: string, report: PaymentReport): Promise<{ recorded: boolean }> {
    const { recorded } = await this.record(report, derivedUuid(`${this.paymentProvider?.name}:${eventId}`));
    return { recorded };
  }

  /** The buyer came back to the success page: ask the provider how it went (a webhook may not have come yet). */
  async confirmReturn(userId: string, orderId: string, params: Record<string, string>): Promise<OrderState> {
    const order = await this.order(userId, orderId);
    if (order.status === "created" && this.paymentProvider && order.provider === this.paymentProvider.name) {
      const provider = this.paymentProvider;
      const report = await provider.confirmReturn(orderId, order.providerOrderId, params).catch((error: unknown) => {
        if (error instanceof DomainError) throw error;
        throw new PaymentUnconfirmed(provider.name, orderId, describeFailure(error));
      });
      const { position } = await this.record(report, null);
      await this.projections.waitForPosition(position);
    }
    const after = await this.order(userId, orderId);
    // Paid (here or by a webhook a moment ago): the screens that follow show the new plan, which a reactor grants.
    if (after.status === "successful") await this.projections.waitForPosition(await this.eventStore.headPosition());
    return after;
  }

  /** The buyer closed the checkout or it reported a failure: the order is failed with 'Payment failed' (unless it was paid). */
  async recordFailure(userId: string, orderId: string, ctx: RequestContext): Promise<OrderState> {
    const order = await this.order(userId, orderId);
    const result = await this.orders.handle(orderId, { type: "RecordPaymentFailure", providerOrderId: order.providerOrderId, paymentId: null, now: this.clock.now() }, { metadata: eventMetadata(ctx, userId, `order-${orderId}`) });
    // The failure screen and the orders list read next show it failed.
    await this.projections.waitForPosition(result.position);
    return this.order(userId, orderId);
  }

  private async record(report: PaymentReport, eventId: string | null): Promise<{ recorded: boolean; position: number }> {
    if (report.outcome === "ignored") return { recorded: false, position: 0 };
    const { state } = await this.orders.load(report.orderId);
    // An order we never made (or a report naming another order's checkout) is refused by the decider as ORDER_NOT_FOUND.
    if (state.status === "none") throw ORDER_NOT_FOUND();
    const metadata: EventMetadata = { correlationId: `order-${report.orderId}`, actorId: "system", subjectId: state.userId };
    const command: OrderCommand =
      report.outcome === "paid"
        ? { type: "RecordPayment", providerOrderId: report.providerOrderId, paymentId: report.paymentId, method: report.method, amount: report.amount, currency: report.currency, now: this.clock.now() }
        : { type: "RecordPaymentFailure", providerOrderId: report.providerOrderId, paymentId: report.paymentId, now: this.clock.now() };
    const result = await this.orders.handle(report.orderId, command, { metadata, ...(eventId ? { eventIds: () => eventId } : {}) });
    return { recorded: result.events.length > 0, position: result.position };
  }
}

/** A provider SDK's failure in one line: an Error's message, or the body Razorpay's SDK rejects with. */
function describeFailure(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return JSON.stringify(error)?.slice(0, 500) ?? String(error);
}
