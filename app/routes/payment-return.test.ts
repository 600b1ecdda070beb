import "reflect-metadata";
import { createHmac } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CheckoutService } from "#application/billing/checkout";
import { signedInUser } from "../../tests/support/route-session";
import { startRazorpayReplay, type RazorpayReplay } from "../../tests/support/payment-replay-servers";
import { createTestRuntime } from "../../tests/support/test-runtime";
import { settle } from "../../tests/support/library-fixtures";
import { loader as paymentFailed } from "./_app.payment.failed";
import { action as postPaymentSuccess, loader as paymentSuccess } from "./_app.payment.success";
import { action as transactions } from "./api.transactions";

/**
 * The buyer's return from Razorpay's checkout by GET (issue 30 item 8): a
 * missing or forged signature is a payment that did not go through, shown on
 * the spec's failure screen, never a 500.
 */
const RAZORPAY = { keyId: "rzp_test_return", keySecret: "razorpay-key-secret", webhookSecret: "razorpay-webhook-secret" };
let env: Awaited<ReturnType<typeof createTestRuntime>>;
let razorpay: RazorpayReplay;
let buyer: { id: string; cookie: string };

beforeAll(async () => {
  razorpay = await startRazorpayReplay(RAZORPAY);
  env = await createTestRuntime({
    logInDataDir: true,
    env: { RAZORPAY_KEY_ID: RAZORPAY.keyId, RAZORPAY_KEY_SECRET: RAZORPAY.keySecret, RAZORPAY_WEBHOOK_SECRET: RAZORPAY.webhookSecret, RAZORPAY_API_URL: razorpay.url },
  });
  globalThis.__docuchatRuntime = Promise.resolve(env.runtime);
  buyer = await signedInUser(env.runtime, "returning", { csrf: true });
  await settle(env.runtime);
});
afterAll(async () => {
  globalThis.__docuchatRuntime = undefined;
  await env?.cleanup();
  await razorpay?.close();
});

async function returnTo(query: string): Promise<Response> {
  const request = new Request(`http://localhost/payment/success?${query}`, { headers: { Cookie: buyer.cookie } });
  return paymentSuccess({ request, params: {}, context: {} }).then(
    (answer) => new Response(null, { status: (answer as { init?: { status?: number } }).init?.status ?? 200 }),
    (thrown: unknown) => (thrown instanceof Response ? thrown : new Response(String(thrown), { status: 500 })),
  );
}

describe("returning to /payment/success from Razorpay", () => {
  it("shows the failure screen for the buyer's own order when the signature is missing or forged", async () => {
    const checkout = env.runtime.container.get(CheckoutService);
    const ctx = { requestId: "return", clientAddress: "127.0.0.1", actorId: buyer.id };
    const started = await checkout.start(buyer.id, { planId: "pine-monthly", requestKey: "key-return-01", email: null }, { publicUrl: "http://app.test" }, ctx);
    const { handler } = razorpay.pay(started.providerOrderId);
    for (const query of [
      `order=${started.orderId}`,
      `order=${started.orderId}&razorpay_payment_id=${handler.razorpay_payment_id}&razorpay_order_id=${handler.razorpay_order_id}&razorpay_signature=${"0".repeat(64)}`,
    ]) {
      const response = await returnTo(query);
      expect(response.status, query).toBe(302);
      expect(response.headers.get("Location")).toBe(`/payment/failed?order=${started.orderId}`);
    }
    expect((await checkout.order(buyer.id, started.orderId)).status).toBe("created");
  });

  it("answers 404 for an order that is not the buyer's", async () => {
    expect((await returnTo("order=0190aaaa-0000-7000-8000-000000000000")).status).toBe(404);
  });
});

describe("a return that names none of the buyer's orders", () => {
  it("says the order was not found, with a 404, on the success and the failure screen, for an unknown order or none", async () => {
    for (const [screen, loader] of [
      ["/payment/success", paymentSuccess],
      ["/payment/failed", paymentFailed],
    ] as const) {
      for (const query of ["?order=0190aaaa-0000-7000-8000-000000000000", ""]) {
        const request = new Request(`http://localhost${screen}${query}`, { headers: { Cookie: buyer.cookie } });
        const answer = (await loader({ request, params: {}, context: {} })) as unknown as { data: unknown; init: { status: number } };
        expect(answer, `${screen}${query}`).toMatchObject({ data: { orderNotFound: true }, init: { status: 404 } });
      }
    }
  });
});

describe("a return the provider cannot confirm", () => {
  const UNCONFIRMED = "We could not confirm your payment yet; if you were charged it will appear within minutes";
  const unconfirmedLines = () =>
    readFileSync(path.join(env.dataDir, "logs", "app.log"), "utf8")
      .split("\n")
      .filter((line) => line.includes('"payment_return_unconfirmed"'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);

  it("sends the buyer to the failure screen saying so, from the checkout's handler or PUT /api/transactions, with one log line each", async () => {
    const checkout = env.runtime.container.get(CheckoutService);
    const ctx = { requestId: "unknown", clientAddress: "127.0.0.1", actorId: buyer.id };
    const started = await checkout.start(buyer.id, { planId: "pine-monthly", requestKey: "key-return-02", email: null }, { publicUrl: "http://app.test" }, ctx);
    // Signed correctly with the key secret, but naming a payment Razorpay has never seen.
    const paymentId = "pay_NeverMade0001";
    const signature = createHmac("sha256", RAZORPAY.keySecret).update(`${started.providerOrderId}|${paymentId}`).digest("hex");
    const fields = { razorpay_payment_id: paymentId, razorpay_order_id: started.providerOrderId, razorpay_signature: signature };
    const failed = `/payment/failed?order=${started.orderId}&reason=unconfirmed`;

    const form = new FormData();
    for (const [name, value] of Object.entries({ ...fields, csrf: "csrf-token" })) form.set(name, value);
    const byPost = await postPaymentSuccess({
      request: new Request(`http://localhost/payment/success?order=${started.orderId}`, { method: "POST", body: form, headers: { Cookie: buyer.cookie } }),
      params: {},
      context: {},
    }).catch((thrown: unknown) => thrown as Response);
    expect(byPost.headers.get("Location")).toBe(failed);

    const body = JSON.stringify({ order_id: started.providerOrderId, transaction_id: started.orderId, payment_id: paymentId, signature, status: "successful" });
    const byPut = (await transactions({
      request: new Request("http://localhost/api/transactions", { method: "PUT", body, headers: { Cookie: buyer.cookie, "Content-Type": "application/json", "X-CSRF-Token": "csrf-token" } }),
      params: {},
      context: {},
    })) as Response;
    expect(byPut.status).toBe(502);
    expect(await byPut.json()).toEqual({ code: "PAYMENT_UNCONFIRMED", message: UNCONFIRMED });

    const screen = await paymentFailed({ request: new Request(`http://localhost${failed}`, { headers: { Cookie: buyer.cookie } }), params: {}, context: {} });
    expect(screen).toMatchObject({ orderId: started.orderId, unconfirmed: UNCONFIRMED });
    expect((await checkout.order(buyer.id, started.orderId)).status).toBe("created");
    const lines = unconfirmedLines();
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({ provider: "razorpay", orderId: started.orderId, failure: expect.stringContaining("The id provided does not exist") });
  });
});
