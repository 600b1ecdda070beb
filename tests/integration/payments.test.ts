import { createHmac } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { TOKENS } from "#application/tokens";
import type { EventStore } from "#application/ports/event-store";
import type { ProjectionWaiter } from "#application/ports/projection";
import { BillingQueries } from "#application/billing/billing-queries";
import { CheckoutService, PAYMENT_UNCONFIRMED } from "#application/billing/checkout";
import { Subscriptions } from "#application/billing/subscriptions";
import type { PaymentProvider } from "#application/billing/payment-provider";
import { createTestRuntime } from "../support/test-runtime";
import { type RazorpayReplay, type StripeReplay, startRazorpayReplay, startStripeReplay } from "../support/payment-replay-servers";

const STRIPE_WEBHOOK_SECRET = "whsec_replay_secret_0123456789";
const RAZORPAY = { keyId: "rzp_test_replay", keySecret: "razorpay-key-secret", webhookSecret: "razorpay-webhook-secret" };
const urls = { publicUrl: "http://app.test" };
const ctx = (userId: string) => ({ requestId: "r", clientAddress: "127.0.0.1", actorId: userId });

let env: Awaited<ReturnType<typeof createTestRuntime>> | undefined;
let stripe: StripeReplay | undefined;
let razorpay: RazorpayReplay | undefined;
afterEach(async () => {
  await env?.cleanup();
  await stripe?.close();
  await razorpay?.close();
  env = stripe = razorpay = undefined;
});

async function stripeRuntime() {
  stripe = await startStripeReplay({ webhookSecret: STRIPE_WEBHOOK_SECRET });
  env = await createTestRuntime({ env: { STRIPE_SECRET_KEY: "sk_test_replay", STRIPE_WEBHOOK_SECRET, STRIPE_API_URL: stripe.url } });
  return services(env);
}

async function razorpayRuntime() {
  razorpay = await startRazorpayReplay(RAZORPAY);
  env = await createTestRuntime({
    env: { RAZORPAY_KEY_ID: RAZORPAY.keyId, RAZORPAY_KEY_SECRET: RAZORPAY.keySecret, RAZORPAY_WEBHOOK_SECRET: RAZORPAY.webhookSecret, RAZORPAY_API_URL: razorpay.url },
  });
  return services(env);
}

function services(e: NonNullable<typeof env>) {
  const checkout = e.runtime.container.get(CheckoutService);
  return {
    checkout,
    provider: checkout.provider as PaymentProvider,
    subscriptions: e.runtime.container.get(Subscriptions),
    billing: e.runtime.container.get(BillingQueries),
    /** Waits for projectors and reactors (the prepaid period is granted by a reactor). */
    settled: async () => {
      const store = e.runtime.get<EventStore>(TOKENS.EventStore);
      await e.runtime.get<ProjectionWaiter>(TOKENS.ProjectionWaiter).waitForPosition(await store.headPosition());
    },
    orderEvents: async (orderId: string) => (await e.runtime.get<EventStore>(TOKENS.EventStore).readStream(`order-${orderId}`)).map((r) => r.type),
  };
}

const toHeaders = (headers: Record<string, string>) => new Headers(headers);

describe("Stripe Checkout against a replay of Stripe's API", () => {
  it("opens a checkout, records the payment its signed webhook reports once, and the plan's limits apply", async () => {
    const s = await stripeRuntime();
    const started = await s.checkout.start("alice", { planId: "pine-monthly", requestKey: "key-00000001", email: "alice@example.com" }, urls, ctx("alice"));
    expect(started).toMatchObject({ amount: 19900, currency: "INR", checkout: { kind: "redirect" } });
    const session = stripe!.sessions.get(started.providerOrderId)!;
    expect(session).toMatchObject({ client_reference_id: started.orderId, amount_total: 19900, currency: "inr", success_url: expect.stringContaining(`/payment/success?order=${started.orderId}`) });

    const webhook = await stripe!.pay(session.id);
    const verified = s.provider.verifyWebhook(webhook.body, toHeaders(webhook.headers));
    expect(await s.checkout.recordWebhook(verified.eventId, verified.report)).toEqual({ recorded: true });
    // The same webhook again (Stripe retries): nothing new.
    const again = s.provider.verifyWebhook(webhook.body, toHeaders(webhook.headers));
    expect(await s.checkout.recordWebhook(again.eventId, again.report)).toEqual({ recorded: false });
    expect(await s.orderEvents(started.orderId)).toEqual(["OrderCreated", "OrderPaid"]);

    await s.settled();
    expect((await s.subscriptions.current("alice")).plan.id).toBe("pine-monthly");
    const { usage } = await s.billing.overview("alice");
    expect(usage.pages.monthly.limit).toBe(2000);
    const { orders } = await s.billing.orders("alice", 1);
    expect(orders).toEqual([expect.objectContaining({ id: started.orderId, status: "successful", method: "card", amount: 19900, currency: "INR" })]);
  });

  it("refuses a tampered body, a wrong secret, and a timestamp an hour old or an hour ahead", async () => {
    const s = await stripeRuntime();
    const started = await s.checkout.start("alice", { planId: "pine-yearly", requestKey: "key-00000002", email: null }, urls, ctx("alice"));
    const webhook = await stripe!.pay(started.providerOrderId);
    const tampered = webhook.body.replace('"amount_total": 199900', '"amount_total": 100');
    expect(tampered).not.toBe(webhook.body);
    expect(() => s.provider.verifyWebhook(tampered, toHeaders(webhook.headers))).toThrow(expect.objectContaining({ code: "WEBHOOK_SIGNATURE_INVALID" }));
    const wrongSecret = await stripe!.pay(started.providerOrderId, { secret: "whsec_someone_else" });
    expect(() => s.provider.verifyWebhook(wrongSecret.body, toHeaders(wrongSecret.headers))).toThrow(expect.objectContaining({ code: "WEBHOOK_SIGNATURE_INVALID" }));
    const old = await stripe!.pay(started.providerOrderId, { timestamp: Math.floor(Date.now() / 1000) - 3600 });
    expect(() => s.provider.verifyWebhook(old.body, toHeaders(old.headers))).toThrow(expect.objectContaining({ code: "WEBHOOK_SIGNATURE_INVALID" }));
    const future = await stripe!.pay(started.providerOrderId, { timestamp: Math.floor(Date.now() / 1000) + 3600 });
    expect(() => s.provider.verifyWebhook(future.body, toHeaders(future.headers))).toThrow(expect.objectContaining({ code: "WEBHOOK_SIGNATURE_INVALID" }));
    expect(await s.orderEvents(started.orderId)).toEqual(["OrderCreated"]);
  });

  it("refuses a payment whose amount or currency differs from the order, and one for an order never made", async () => {
    const s = await stripeRuntime();
    const started = await s.checkout.start("alice", { planId: "pine-monthly", requestKey: "key-00000003", email: null }, urls, ctx("alice"));
    for (const change of [{ amountTotal: 100 }, { currency: "usd" }]) {
      const webhook = await stripe!.pay(started.providerOrderId, change);
      const verified = s.provider.verifyWebhook(webhook.body, toHeaders(webhook.headers));
      await expect(s.checkout.recordWebhook(verified.eventId, verified.report)).rejects.toMatchObject({ code: "PAYMENT_MISMATCH" });
    }
    await expect(
      s.checkout.recordWebhook("evt_unknown", { outcome: "paid", orderId: "0190aaaa-0000-7000-8000-000000000000", providerOrderId: "cs_test_x", paymentId: "pi_x", method: "card", amount: 19900, currency: "INR" }),
    ).rejects.toMatchObject({ code: "ORDER_NOT_FOUND" });
    expect(await s.orderEvents(started.orderId)).toEqual(["OrderCreated"]);
  });

  it("keeps someone else's order out of reach, refuses unknown or unsold plans, and makes one order of a double click", async () => {
    const s = await stripeRuntime();
    const mine = await s.checkout.start("alice", { planId: "pine-monthly", requestKey: "key-00000004", email: null }, urls, ctx("alice"));
    await expect(s.checkout.confirmReturn("mallory", mine.orderId, {})).rejects.toMatchObject({ code: "ORDER_NOT_FOUND" });
    await expect(s.checkout.order("mallory", mine.orderId)).rejects.toMatchObject({ code: "ORDER_NOT_FOUND" });
    // Mallory pays her own session and reports it against Alice's order: the session is not that order's.
    const hers = await s.checkout.start("mallory", { planId: "pine-monthly", requestKey: "key-00000005", email: null }, urls, ctx("mallory"));
    await expect(
      s.checkout.recordWebhook("evt_cross", { outcome: "paid", orderId: mine.orderId, providerOrderId: hers.providerOrderId, paymentId: "pi_x", method: "card", amount: 19900, currency: "INR" }),
    ).rejects.toMatchObject({ code: "ORDER_NOT_FOUND" });

    await expect(s.checkout.start("alice", { planId: "platinum", requestKey: "key-00000006", email: null }, urls, ctx("alice"))).rejects.toMatchObject({ code: "PLAN_NOT_FOUND" });
    await expect(s.checkout.start("alice", { planId: "fern", requestKey: "key-00000007", email: null }, urls, ctx("alice"))).rejects.toMatchObject({ code: "PLAN_NOT_FOR_SALE" });

    const clicks = await Promise.all([1, 2].map(() => s.checkout.start("alice", { planId: "pine-yearly", requestKey: "key-00000008", email: null }, urls, ctx("alice"))));
    expect(clicks[0].orderId).toBe(clicks[1].orderId);
    expect(clicks[0].checkout).toEqual(clicks[1].checkout);
    await s.settled();
    expect((await s.billing.orders("alice", 1)).total).toBe(2);
  });

  it("takes the buyer's return and the webhook in either order, and a late failure changes nothing", async () => {
    const s = await stripeRuntime();
    const started = await s.checkout.start("alice", { planId: "pine-monthly", requestKey: "key-00000009", email: null }, urls, ctx("alice"));
    const webhook = await stripe!.pay(started.providerOrderId);
    expect((await s.checkout.confirmReturn("alice", started.orderId, {})).status).toBe("successful");
    const verified = s.provider.verifyWebhook(webhook.body, toHeaders(webhook.headers));
    expect(await s.checkout.recordWebhook(verified.eventId, verified.report)).toEqual({ recorded: false });
    expect(await s.checkout.recordWebhook("evt_expired", { outcome: "failed", orderId: started.orderId, providerOrderId: started.providerOrderId, paymentId: null })).toEqual({ recorded: false });
    expect(await s.orderEvents(started.orderId)).toEqual(["OrderCreated", "OrderPaid"]);
  });
});

describe("Razorpay against a replay of Razorpay's API", () => {
  it("creates the order, verifies the checkout's order_id|payment_id signature, reads the payment, and records it once", async () => {
    const s = await razorpayRuntime();
    const started = await s.checkout.start("alice", { planId: "pine-monthly", requestKey: "key-00000010", email: null }, urls, ctx("alice"));
    expect(started.checkout).toEqual({ kind: "script", providerOrderId: started.providerOrderId, keyId: RAZORPAY.keyId, scriptUrl: "https://checkout.razorpay.com/v1/checkout.js" });
    expect(razorpay!.orders.get(started.providerOrderId)).toMatchObject({ amount: 19900, currency: "INR", notes: { order_id: started.orderId } });

    const { handler, webhook } = razorpay!.pay(started.providerOrderId);
    await expect(s.checkout.confirmReturn("alice", started.orderId, { ...handler, razorpay_signature: "0".repeat(64) })).rejects.toMatchObject({ code: "PAYMENT_SIGNATURE_INVALID" });
    expect((await s.checkout.confirmReturn("alice", started.orderId, handler)).status).toBe("successful");

    const verified = s.provider.verifyWebhook(webhook.body, toHeaders(webhook.headers));
    expect(await s.checkout.recordWebhook(verified.eventId, verified.report)).toEqual({ recorded: false });
    await s.settled();
    expect((await s.subscriptions.current("alice")).plan.id).toBe("pine-monthly");
    expect((await s.billing.orders("alice", 1)).orders[0]).toMatchObject({ status: "successful", method: "upi" });
  });

  it("records a captured webhook once, and refuses a tampered body or a wrong secret", async () => {
    const s = await razorpayRuntime();
    const started = await s.checkout.start("alice", { planId: "pine-yearly", requestKey: "key-00000011", email: null }, urls, ctx("alice"));
    const { webhook } = razorpay!.pay(started.providerOrderId);
    expect(() => s.provider.verifyWebhook(webhook.body.replace('"amount":199900', '"amount":100'), toHeaders(webhook.headers))).toThrow(expect.objectContaining({ code: "WEBHOOK_SIGNATURE_INVALID" }));
    const forged = razorpay!.pay(started.providerOrderId, { secret: "not-the-secret" }).webhook;
    expect(() => s.provider.verifyWebhook(forged.body, toHeaders(forged.headers))).toThrow(expect.objectContaining({ code: "WEBHOOK_SIGNATURE_INVALID" }));
    for (let i = 0; i < 2; i++) {
      const verified = s.provider.verifyWebhook(webhook.body, toHeaders(webhook.headers));
      await s.checkout.recordWebhook(verified.eventId, verified.report);
    }
    expect(await s.orderEvents(started.orderId)).toEqual(["OrderCreated", "OrderPaid"]);
  });
});

describe("a provider that cannot be reached", () => {
  it("answers 'Failed to create your order. Please try later' and records no order", async () => {
    stripe = await startStripeReplay({ webhookSecret: STRIPE_WEBHOOK_SECRET });
    const unreachable = stripe.url;
    await stripe.close();
    stripe = undefined;
    env = await createTestRuntime({ env: { STRIPE_SECRET_KEY: "sk_test_replay", STRIPE_WEBHOOK_SECRET, STRIPE_API_URL: unreachable } });
    const s = services(env);
    await expect(s.checkout.start("alice", { planId: "pine-monthly", requestKey: "key-00000013", email: null }, urls, ctx("alice"))).rejects.toMatchObject({
      code: "ORDER_CREATION_FAILED",
      message: "Failed to create your order. Please try later",
    });
    await s.settled();
    expect((await s.billing.orders("alice", 1)).total).toBe(0);
  });
});

describe("a provider that cannot confirm a buyer's return", () => {
  it("is PAYMENT_UNCONFIRMED, and the order stays open for the webhook: Razorpay not knowing a signed payment, Stripe unreachable", async () => {
    const r = await razorpayRuntime();
    const viaRazorpay = await r.checkout.start("alice", { planId: "pine-monthly", requestKey: "key-00000014", email: null }, urls, ctx("alice"));
    const signature = createHmac("sha256", RAZORPAY.keySecret).update(`${viaRazorpay.providerOrderId}|pay_NeverMade0002`).digest("hex");
    const handler = { razorpay_order_id: viaRazorpay.providerOrderId, razorpay_payment_id: "pay_NeverMade0002", razorpay_signature: signature };
    await expect(r.checkout.confirmReturn("alice", viaRazorpay.orderId, handler)).rejects.toMatchObject({ code: "PAYMENT_UNCONFIRMED", message: PAYMENT_UNCONFIRMED, provider: "razorpay" });
    expect(await r.orderEvents(viaRazorpay.orderId)).toEqual(["OrderCreated"]);
    await env!.cleanup();

    const s = await stripeRuntime();
    const viaStripe = await s.checkout.start("alice", { planId: "pine-monthly", requestKey: "key-00000015", email: null }, urls, ctx("alice"));
    await stripe!.close();
    stripe = undefined;
    await expect(s.checkout.confirmReturn("alice", viaStripe.orderId, {})).rejects.toMatchObject({ code: "PAYMENT_UNCONFIRMED", provider: "stripe" });
    expect(await s.orderEvents(viaStripe.orderId)).toEqual(["OrderCreated"]);
  });
});

describe("an installation without a payment provider", () => {
  it("shows plans and usage, and says payments are not configured", async () => {
    env = await createTestRuntime();
    const s = services(env);
    expect(s.checkout.configured).toBe(false);
    expect((await s.billing.overview("alice")).subscription.plan.id).toBe("evergreen");
    await expect(s.checkout.start("alice", { planId: "pine-monthly", requestKey: "key-00000012", email: null }, urls, ctx("alice"))).rejects.toMatchObject({
      code: "PAYMENTS_NOT_CONFIGURED",
      message: "Payments are not configured on this installation.",
    });
  });
});
