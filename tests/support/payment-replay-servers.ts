import { createHmac, randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import Stripe from "stripe";

/**
 * Local servers that answer like Stripe's and Razorpay's APIs (their real wire
 * formats: form-encoded Stripe requests, JSON Razorpay requests, the objects
 * they return) and serve a stand-in hosted checkout page. Paying there sends a
 * webhook signed the providers' way — Stripe's header made by the SDK's own
 * `webhooks.generateTestHeaderString`, Razorpay's HMAC-SHA256 — then returns the
 * buyer to the app, as the real checkout does.
 */

const id = (prefix: string) => `${prefix}_${randomBytes(12).toString("hex")}`;

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

function json(response: ServerResponse, status: number, body: unknown) {
  response.writeHead(status, { "Content-Type": "application/json" });
  response.end(JSON.stringify(body));
}

function listen(server: Server): Promise<string> {
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)));
}

export interface SentWebhook {
  body: string;
  headers: Record<string, string>;
  status: number | null;
}

/** A webhook as the provider would POST it (body and headers), to deliver or to tamper with. */
async function deliver(url: string | null, webhook: { body: string; headers: Record<string, string> }): Promise<number | null> {
  if (!url) return null;
  const response = await fetch(url, { method: "POST", headers: { "Content-Type": "application/json", ...webhook.headers }, body: webhook.body });
  return response.status;
}

const checkoutPage = (title: string, amount: string, payAction: string, cancelHref: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${title}</title><meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body style="font-family: sans-serif; max-width: 420px; margin: 40px auto;">
<main><h1>${title}</h1><p>Amount due: <strong>${amount}</strong></p>
<form method="post" action="${payAction}"><button type="submit">Pay ${amount}</button></form>
<p><a href="${cancelHref}">Cancel and return</a></p></main></body></html>`;

type StripeSession = Stripe.Checkout.Session & { url: string };

export interface StripeReplay {
  url: string;
  /** Where paying sends the webhook (the app's route); null: the test delivers it itself. */
  webhookUrl: string | null;
  sessions: Map<string, StripeSession>;
  webhooks: SentWebhook[];
  /** Marks a session paid and makes its `checkout.session.completed` webhook, signed with `secret` at `timestamp`. */
  pay(sessionId: string, options?: { secret?: string; timestamp?: number; amountTotal?: number; currency?: string }): Promise<SentWebhook>;
  close(): Promise<void>;
}

export async function startStripeReplay(options: { webhookSecret: string; webhookUrl?: string | null }): Promise<StripeReplay> {
  const signer = new Stripe("sk_test_replay");
  const sessions = new Map<string, StripeSession>();
  const webhooks: SentWebhook[] = [];
  let base = "";

  const replay: StripeReplay = {
    url: "",
    webhookUrl: options.webhookUrl ?? null,
    sessions,
    webhooks,
    async pay(sessionId, pay = {}) {
      const session = sessions.get(sessionId);
      if (!session) throw new Error(`no session ${sessionId}`);
      const paymentIntent = id("pi");
      Object.assign(session, { status: "complete", payment_status: "paid", payment_intent: paymentIntent });
      const event = {
        id: id("evt"),
        object: "event",
        api_version: "2025-01-27.acacia",
        created: Math.floor(Date.now() / 1000),
        data: { object: { ...session, amount_total: pay.amountTotal ?? session.amount_total, currency: pay.currency ?? session.currency } },
        livemode: false,
        pending_webhooks: 1,
        request: { id: null, idempotency_key: null },
        type: "checkout.session.completed",
      };
      const body = JSON.stringify(event, null, 2);
      const header = signer.webhooks.generateTestHeaderString({ payload: body, secret: pay.secret ?? options.webhookSecret, timestamp: pay.timestamp });
      const webhook: SentWebhook = { body, headers: { "stripe-signature": header }, status: null };
      webhook.status = await deliver(replay.webhookUrl, webhook);
      webhooks.push(webhook);
      return webhook;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };

  const server = createServer(async (request, response) => {
    const url = new URL(request.url ?? "/", base);
    const body = await readBody(request);
    if (request.method === "POST" && url.pathname === "/v1/checkout/sessions") {
      if (!request.headers.authorization?.startsWith("Bearer sk_")) return json(response, 401, { error: { type: "invalid_request_error", message: "Invalid API Key provided" } });
      const form = new URLSearchParams(body);
      const sessionId = id("cs_test");
      const amount = Number(form.get("line_items[0][price_data][unit_amount]"));
      const session = {
        id: sessionId,
        object: "checkout.session",
        amount_subtotal: amount,
        amount_total: amount,
        cancel_url: form.get("cancel_url"),
        client_reference_id: form.get("client_reference_id"),
        created: Math.floor(Date.now() / 1000),
        currency: form.get("line_items[0][price_data][currency]"),
        customer_email: form.get("customer_email"),
        expires_at: Math.floor(Date.now() / 1000) + 86400,
        livemode: false,
        metadata: { order_id: form.get("metadata[order_id]") ?? "" },
        mode: "payment",
        payment_intent: null,
        payment_method_types: ["card"],
        payment_status: "unpaid",
        status: "open",
        success_url: form.get("success_url"),
        url: `${base}/checkout/${sessionId}`,
      } as unknown as StripeSession;
      sessions.set(sessionId, session);
      return json(response, 200, session);
    }
    const retrieve = url.pathname.match(/^\/v1\/checkout\/sessions\/([\w]+)$/);
    if (request.method === "GET" && retrieve) {
      const session = sessions.get(retrieve[1]);
      if (!session) return json(response, 404, { error: { type: "invalid_request_error", message: `No such checkout.session: '${retrieve[1]}'` } });
      const expand = url.searchParams.getAll("expand[]").includes("payment_intent") || url.searchParams.get("expand[0]") === "payment_intent";
      const intent = session.payment_intent;
      return json(response, 200, {
        ...session,
        payment_intent: expand && typeof intent === "string" ? { id: intent, object: "payment_intent", amount: session.amount_total, currency: session.currency, status: "succeeded", payment_method_types: ["card"] } : intent,
      });
    }
    const page = url.pathname.match(/^\/checkout\/([\w]+)(\/pay)?$/);
    if (page) {
      const session = sessions.get(page[1]);
      if (!session) return json(response, 404, { error: "no such session" });
      if (request.method === "POST" && page[2]) {
        await replay.pay(session.id);
        response.writeHead(303, { Location: String(session.success_url).replace("{CHECKOUT_SESSION_ID}", session.id) });
        return response.end();
      }
      response.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
      return response.end(checkoutPage("Stripe Checkout (local replay)", `INR ${(Number(session.amount_total) / 100).toFixed(2)}`, `/checkout/${session.id}/pay`, String(session.cancel_url)));
    }
    json(response, 404, { error: { type: "invalid_request_error", message: "Unrecognized request URL" } });
  });
  base = await listen(server);
  replay.url = base;
  return replay;
}

export interface RazorpayOrder {
  id: string;
  entity: "order";
  amount: number;
  amount_paid: number;
  amount_due: number;
  currency: string;
  receipt: string;
  status: string;
  attempts: number;
  notes: Record<string, string>;
  created_at: number;
}

export interface RazorpayReplay {
  url: string;
  /** Where paying in the replayed checkout sends the `payment.captured` webhook; null: the test delivers it itself. */
  webhookUrl: string | null;
  /** The next load of checkout.js fails (the spec's 'Cannot process the request…' toast). */
  failNextScript: boolean;
  webhooks: SentWebhook[];
  orders: Map<string, RazorpayOrder>;
  payments: Map<string, Record<string, unknown>>;
  /** Captures a payment for the order; answers the checkout handler's fields and the `payment.captured` webhook, signed with `secret`. */
  pay(orderId: string, options?: { secret?: string; amount?: number; currency?: string }): { handler: { razorpay_payment_id: string; razorpay_order_id: string; razorpay_signature: string }; webhook: SentWebhook };
  close(): Promise<void>;
}

/**
 * A stand-in for Razorpay's checkout.js: \`new Razorpay(options).open()\` shows a
 * pay sheet; paying asks the replay server to capture the payment, which sends
 * the signed webhook and answers the handler's order_id, payment_id and
 * signature (signed with the key secret, as Razorpay does).
 */
const checkoutScript = (base: string) => `(() => {
  class Razorpay {
    constructor(options) { this.options = options; this.handlers = {}; }
    on(event, handler) { this.handlers[event] = handler; }
    open() {
      const o = this.options;
      const sheet = document.createElement("div");
      sheet.setAttribute("role", "dialog");
      sheet.setAttribute("aria-label", "Razorpay Checkout (local replay)");
      sheet.style.cssText = "position:fixed;inset:0;background:rgba(0,0,0,.5);display:flex;align-items:center;justify-content:center;z-index:9999";
      const box = document.createElement("div");
      box.style.cssText = "background:#fff;color:#111;padding:24px;border-radius:8px;font-family:sans-serif";
      const title = document.createElement("p");
      title.textContent = o.description + ": " + o.currency + " " + (o.amount / 100).toFixed(2);
      const pay = document.createElement("button");
      pay.textContent = "Pay " + o.currency + " " + (o.amount / 100).toFixed(2);
      pay.onclick = async () => {
        const response = await fetch("${base}/v1/replay/pay", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ order_id: o.order_id }) });
        sheet.remove();
        o.handler(await response.json());
      };
      const fail = document.createElement("button");
      fail.textContent = "Fail the payment";
      fail.onclick = () => { sheet.remove(); this.handlers["payment.failed"] && this.handlers["payment.failed"]({ error: { description: "Payment failed" } }); };
      box.append(title, pay, fail);
      sheet.append(box);
      document.body.append(sheet);
    }
  }
  window.Razorpay = Razorpay;
})();`;

export async function startRazorpayReplay(options: { keySecret: string; webhookSecret: string; webhookUrl?: string | null }): Promise<RazorpayReplay> {
  const orders = new Map<string, RazorpayOrder>();
  const payments = new Map<string, Record<string, unknown>>();
  const hmac = (secret: string, text: string) => createHmac("sha256", secret).update(text).digest("hex");
  const webhooks: SentWebhook[] = [];
  const replay: RazorpayReplay = {
    url: "",
    webhookUrl: options.webhookUrl ?? null,
    failNextScript: false,
    webhooks,
    orders,
    payments,
    pay(orderId, pay = {}) {
      const order = orders.get(orderId);
      if (!order) throw new Error(`no order ${orderId}`);
      const paymentId = id("pay");
      const payment = {
        id: paymentId,
        entity: "payment",
        amount: pay.amount ?? order.amount,
        currency: pay.currency ?? order.currency,
        status: "captured",
        order_id: order.id,
        invoice_id: null,
        international: false,
        method: "upi",
        amount_refunded: 0,
        refund_status: null,
        captured: true,
        description: null,
        card_id: null,
        bank: null,
        wallet: null,
        vpa: "success@razorpay",
        email: "buyer@example.com",
        contact: "+919999999999",
        notes: order.notes,
        fee: 0,
        tax: 0,
        error_code: null,
        error_description: null,
        created_at: Math.floor(Date.now() / 1000),
      };
      payments.set(paymentId, payment);
      Object.assign(order, { status: "paid", amount_paid: order.amount, amount_due: 0, attempts: order.attempts + 1 });
      const body = JSON.stringify({
        entity: "event",
        account_id: "acc_replay",
        event: "payment.captured",
        contains: ["payment"],
        payload: { payment: { entity: payment } },
        created_at: Math.floor(Date.now() / 1000),
      });
      return {
        handler: { razorpay_payment_id: paymentId, razorpay_order_id: order.id, razorpay_signature: hmac(options.keySecret, `${order.id}|${paymentId}`) },
        webhook: { body, headers: { "x-razorpay-signature": hmac(pay.secret ?? options.webhookSecret, body), "x-razorpay-event-id": id("evt") }, status: null },
      };
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const server = createServer(async (request, response) => {
    const url = new URL(request.url ?? "/", "http://replay");
    const body = await readBody(request);
    const cors = { "Access-Control-Allow-Origin": "*", "Access-Control-Allow-Headers": "Content-Type" };
    if (url.pathname === "/v1/checkout.js") {
      if (replay.failNextScript) {
        replay.failNextScript = false;
        response.writeHead(503, cors);
        return response.end();
      }
      response.writeHead(200, { "Content-Type": "text/javascript; charset=utf-8", ...cors });
      return response.end(checkoutScript(replay.url));
    }
    if (url.pathname === "/v1/replay/pay") {
      if (request.method === "OPTIONS") {
        response.writeHead(204, cors);
        return response.end();
      }
      const { handler, webhook } = replay.pay((JSON.parse(body) as { order_id: string }).order_id);
      webhook.status = await deliver(replay.webhookUrl, webhook);
      webhooks.push(webhook);
      response.writeHead(200, { "Content-Type": "application/json", ...cors });
      return response.end(JSON.stringify(handler));
    }
    if (!request.headers.authorization?.startsWith("Basic ")) return json(response, 401, { error: { code: "BAD_REQUEST_ERROR", description: "Authentication failed" } });
    if (request.method === "POST" && url.pathname === "/v1/orders") {
      const input = JSON.parse(body) as { amount: number; currency: string; receipt: string; notes: Record<string, string> };
      const order: RazorpayOrder = { id: id("order"), entity: "order", amount: input.amount, amount_paid: 0, amount_due: input.amount, currency: input.currency, receipt: input.receipt, status: "created", attempts: 0, notes: input.notes, created_at: Math.floor(Date.now() / 1000) };
      orders.set(order.id, order);
      return json(response, 200, order);
    }
    const payment = url.pathname.match(/^\/v1\/payments\/([\w]+)$/);
    if (request.method === "GET" && payment) {
      const found = payments.get(payment[1]);
      return found ? json(response, 200, found) : json(response, 400, { error: { code: "BAD_REQUEST_ERROR", description: "The id provided does not exist" } });
    }
    json(response, 404, { error: { code: "BAD_REQUEST_ERROR", description: "The requested URL was not found on the server." } });
  });
  replay.url = await listen(server);
  return replay;
}
