import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAppServer, type AppServer } from "./support/app-server";
import { gotoHydrated, launchBrowser, screenshot, phoneLayoutProblems, seriousA11yViolations, VIEWPORTS } from "./support/browser";
import { makePdf, signUpNewUser, waitForStatuses, waitUntil } from "./support/library";
import { csrfToken, toast } from "./support/workspace";
import { PASSWORD } from "./support/account";
import { countEvents, signUpOverHttp } from "./support/accounts";
import { HttpSession } from "../support/http-session";
import { type RazorpayReplay, startRazorpayReplay, startStripeReplay, type StripeReplay } from "../support/payment-replay-servers";

/**
 * The billing journey of issue 16 in Debian's Chromium against the built app:
 * a free user uploads until the page limit refuses with the spec's message,
 * reads My Usage's charts and My Plan's numbers, upgrades through Stripe
 * Checkout (served by a local replay of Stripe's API and hosted page, whose
 * webhook is signed with the SDK's own helper), returns to the success screen,
 * and sees the new limits and the order in Order History; then My Referral.
 */
const WEBHOOK_SECRET = "whsec_e2e_billing_journey_secret";
let server: AppServer;
let stripe: StripeReplay;
let browser: Browser;
let storageState: Awaited<ReturnType<BrowserContext["storageState"]>>;

async function expectAccessible(page: Page, where: string) {
  expect(await seriousA11yViolations(page), `serious/critical axe violations on ${where}`).toEqual([]);
}

async function signedInPage(viewport: { width: number; height: number }) {
  const context = await browser.newContext({ viewport, storageState });
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  return { context, page: await context.newPage() };
}

/** A PDF with `count` pages, one line each. */
const pdfOf = (count: number, title: string) => makePdf(Array.from({ length: count }, (_, i) => `${title}, page ${i + 1}`));

beforeAll(async () => {
  stripe = await startStripeReplay({ webhookSecret: WEBHOOK_SECRET });
  server = await startAppServer({ env: { STRIPE_SECRET_KEY: "sk_test_e2e_replay", STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, STRIPE_API_URL: stripe.url } });
  stripe.webhookUrl = `${server.url}/api/payments/webhook`;
  browser = await launchBrowser();
  ({ storageState } = await signUpNewUser(browser, server.url));
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await stripe?.close();
});

describe("the billing journey", () => {
  it("uploads until the free plan's page limit refuses with the spec's message", async () => {
    const { context, page } = await signedInPage(VIEWPORTS.desktop);
    await gotoHydrated(page, `${server.url}/upload/files`);
    await page.getByText("200 pages left this month").waitFor();
    await page.getByTestId("file-input").setInputFiles([{ name: "thesis.pdf", mimeType: "application/pdf", buffer: await pdfOf(170, "Thesis") }]);
    await page.getByTestId("selected-file").getByText("170 pages").waitFor({ timeout: 30_000 });
    await page.getByTestId("upload-files").click();
    await toast(page, "Uploaded All Files").waitFor({ timeout: 30_000 });
    await page.waitForURL(`${server.url}/history/documents`, { timeout: 10_000 });
    await waitForStatuses(page, ["thesis.pdf"], "ACTIVE", 90_000);

    await gotoHydrated(page, `${server.url}/upload/files`);
    await page.getByText("30 pages left this month").waitFor();
    await page.getByTestId("file-input").setInputFiles([{ name: "appendix.pdf", mimeType: "application/pdf", buffer: await pdfOf(40, "Appendix") }]);
    await page.getByTestId("selected-file").getByText("40 pages").waitFor({ timeout: 30_000 });
    await page.getByTestId("upload-files").click();
    await toast(page, "Upload exceeds the total available page limit. You have 30 pages remaining.").waitFor();
    await screenshot(page, "billing-page-limit-1440");
    await context.close();
  }, 180_000);

  it("shows My Usage as bar charts and tables, with the percentage used, and warns once near the limit", async () => {
    const { context, page } = await signedInPage(VIEWPORTS.desktop);
    await page.goto(`${server.url}/profile/my-usage`);
    await page.getByRole("tab", { name: "Monthly Usage" }).waitFor();
    await page.getByTestId("usage-chart-pages").locator(".recharts-bar-rectangle").first().waitFor();
    const table = page.getByTestId("usage-table-monthly");
    await expect(table.getByRole("row", { name: /Document pages/ }).innerText()).resolves.toMatch(/170\s+200\s+85%/);
    await expect(table.getByRole("row", { name: /Document uploads/ }).innerText()).resolves.toMatch(/1\s+100\s+1%/);
    await toast(page, "You have used 85% of your plan's document pages this month (170 of 200).").waitFor();
    await toast(page, "You have used 85% of your plan's document pages today (170 of 200).").waitFor();
    await page.getByText("Messages answered with your own API key do not count against your plan.").first().waitFor();
    await expectAccessible(page, "/profile/my-usage");
    await screenshot(page, "billing-my-usage-monthly-1440");
    await page.getByRole("tab", { name: "Daily Usage" }).click();
    await expect(page.getByTestId("usage-table-daily").getByRole("row", { name: /Document pages/ }).innerText()).resolves.toMatch(/170\s+200\s+85%/);
    await screenshot(page, "billing-my-usage-daily-1440");
    // Shown once: the same warning does not come back.
    await page.reload();
    await page.getByTestId("usage-chart-pages").locator(".recharts-bar-rectangle").first().waitFor();
    await page.waitForTimeout(500);
    expect(await page.getByTestId("toast").filter({ hasText: "85%" }).count()).toBe(0);
    await context.close();

    const phone = await signedInPage(VIEWPORTS.mobile);
    await phone.page.goto(`${server.url}/profile/my-usage`);
    await phone.page.getByTestId("usage-chart-pages").locator(".recharts-bar-rectangle").first().waitFor();
    await screenshot(phone.page, "billing-my-usage-390");
    await phone.context.close();
  }, 60_000);

  it("upgrades to Pine through the replayed Stripe Checkout and sees the new limits and the order", async () => {
    const { context, page } = await signedInPage(VIEWPORTS.desktop);
    await page.goto(`${server.url}/profile/my-plan`);
    const evergreen = page.getByTestId("plan-evergreen");
    await evergreen.getByText("Current plan").waitFor();
    await page.getByTestId("plan-pine-monthly").getByText("Recommended").waitFor();
    await page.getByTestId("plan-fern").getByText("INR 0.1 per page").waitFor();
    await expect(page.getByTestId("plan-usage-pages").innerText()).resolves.toBe("170 / 200");
    await expectAccessible(page, "/profile/my-plan");
    await screenshot(page, "billing-my-plan-1440");

    await page.getByTestId("plan-pine-monthly").getByRole("button", { name: "Upgrade" }).click();
    await page.waitForURL(`${stripe.url}/checkout/**`);
    await page.getByRole("button", { name: "Pay INR 199.00" }).click();
    await page.waitForURL(`${server.url}/payment/success?**`);
    await page.getByRole("heading", { name: "Payment successful" }).waitFor();
    await expectAccessible(page, "/payment/success");
    await screenshot(page, "billing-payment-success-1440");
    expect(stripe.webhooks.map((w) => w.status)).toEqual([200]);
    // The same webhook again is answered and appends nothing; a tampered one is refused.
    const [sent] = stripe.webhooks;
    const post = (body: string) => fetch(`${server.url}/api/payments/webhook`, { method: "POST", headers: { "Content-Type": "application/json", ...sent.headers }, body });
    const replayed = await post(sent.body);
    expect(await replayed.json()).toEqual({ received: true, recorded: false });
    const tampered = await post(sent.body.replace('"amount_total": 19900', '"amount_total": 1'));
    expect(tampered.status).toBe(400);
    expect(countEvents(server.dataDir, "OrderPaid")).toBe(1);

    await page.getByRole("link", { name: "Go to My Plan" }).click();
    await page.getByTestId("plan-pine-monthly").getByText("Current plan").waitFor();
    await expect(page.getByTestId("plan-usage-pages").innerText()).resolves.toBe("170 / 2,000");
    await page.getByRole("tab", { name: "Order History" }).click();
    const row = page.getByTestId("orders-table").getByRole("row").nth(1);
    await expect(row.innerText()).resolves.toMatch(/successful\s+card\s+199\s+INR/);
    await expectAccessible(page, "/profile/my-plan?tab=orders");
    await screenshot(page, "billing-order-history-1440");

    await gotoHydrated(page, `${server.url}/upload/files`);
    await page.getByText("830 pages left this month").waitFor();
    const subscription = await page.evaluate(async () => (await fetch("/api/subscriptions")).json());
    expect(subscription).toMatchObject({
      subscription_type: "pine-monthly",
      status: "ACTIVE",
      usage: { document_page: { monthly_limit: 170 }, document: { monthly_limit: 1 } },
      threshold: { document_page: { daily_limit: 1000, monthly_limit: 2000 }, workspace: { monthly_limit: null } },
    });
    await context.close();

    const phone = await signedInPage(VIEWPORTS.mobile);
    await phone.page.goto(`${server.url}/profile/my-plan`);
    await phone.page.getByTestId("plan-pine-monthly").getByText("Current plan").waitFor();
    await screenshot(phone.page, "billing-my-plan-390");
    expect(await phoneLayoutProblems(phone.page), "My Plan at 390 px").toEqual([]);
    await phone.context.close();
  }, 60_000);

  it("gives a real referral link to copy, and counts who joined through it", async () => {
    const { context, page } = await signedInPage(VIEWPORTS.desktop);
    await gotoHydrated(page, `${server.url}/profile/my-referral`);
    const link = await page.getByTestId("referral-link").inputValue();
    expect(link).toMatch(new RegExp(`^${server.url}/signup\\?refCode=[\\w-]{12}$`));
    await page.getByTestId("copy-referral").click();
    await toast(page, "Referral link copied to clipboard!").waitFor();
    await expect(page.getByTestId("referral-count").innerText()).resolves.toMatch(/^0 people have joined/);

    // Someone signs up through the link (the form carries refCode from /signup?refCode=…).
    const friend = new HttpSession();
    const refCode = new URL(link).searchParams.get("refCode")!;
    const account = { username: `friend${Date.now()}`, email: `friend${Date.now()}@example.com`, password: PASSWORD, refCode };
    await signUpOverHttp(friend, server.url, account);
    await waitUntil(async () => {
      await page.reload();
      return /^1 person has joined/.test(await page.getByTestId("referral-count").innerText());
    }, "the referred sign-up to be counted");
    await expectAccessible(page, "/profile/my-referral");
    await screenshot(page, "billing-my-referral-1440");
    await context.close();
  }, 60_000);
});

describe("the Razorpay checkout (the spec's order → checkout → order_id, payment_id, signature → verification)", () => {
  const RZP = { keyId: "rzp_test_e2e", keySecret: "e2e-razorpay-key-secret", webhookSecret: "e2e-razorpay-webhook-secret" };
  let rzpServer: AppServer;
  let replay: RazorpayReplay;
  let rzpState: Awaited<ReturnType<BrowserContext["storageState"]>>;

  beforeAll(async () => {
    replay = await startRazorpayReplay(RZP);
    rzpServer = await startAppServer({
      env: {
        RAZORPAY_KEY_ID: RZP.keyId,
        RAZORPAY_KEY_SECRET: RZP.keySecret,
        RAZORPAY_WEBHOOK_SECRET: RZP.webhookSecret,
        RAZORPAY_API_URL: replay.url,
        RAZORPAY_CHECKOUT_URL: `${replay.url}/v1/checkout.js`,
      },
    });
    replay.webhookUrl = `${rzpServer.url}/api/payments/webhook`;
    ({ storageState: rzpState } = await signUpNewUser(browser, rzpServer.url));
  }, 120_000);

  afterAll(async () => {
    await rzpServer?.stop();
    await replay?.close();
  });

  it("says so when the checkout script cannot load, then pays through it and lands on the success screen", async () => {
    const context = await browser.newContext({ viewport: VIEWPORTS.desktop, storageState: rzpState });
    const page = await context.newPage();
    await gotoHydrated(page, `${rzpServer.url}/profile/my-plan`);
    replay.failNextScript = true;
    await page.getByTestId("plan-pine-yearly").getByRole("button", { name: "Upgrade" }).click();
    await toast(page, "Cannot process the request, Please check your internet connectin").waitFor();
    await page.getByRole("alert").filter({ hasText: "Cannot process the request" }).waitFor();

    await gotoHydrated(page, `${rzpServer.url}/profile/my-plan`);
    await page.getByTestId("plan-pine-yearly").getByRole("button", { name: "Upgrade" }).click();
    const sheet = page.getByRole("dialog", { name: "Razorpay Checkout (local replay)" });
    await sheet.getByRole("button", { name: "Pay INR 1999.00" }).click();
    await page.waitForURL(`${rzpServer.url}/payment/success?**`);
    await page.getByRole("heading", { name: "Payment successful" }).waitFor();
    expect(replay.webhooks.map((w) => w.status)).toEqual([200]);
    expect(countEvents(rzpServer.dataDir, "OrderPaid")).toBe(1);

    await gotoHydrated(page, `${rzpServer.url}/profile/my-plan?tab=orders`);
    const rows = page.getByTestId("orders-table").getByRole("row");
    await expect(rows.nth(1).innerText()).resolves.toMatch(/successful\s+upi\s+1,?999\s+INR/);
    await page.getByRole("tab", { name: "Plan Details" }).click();
    await page.getByTestId("plan-pine-yearly").getByText("Current plan").waitFor();

    // A failed attempt: the order is recorded failed with 'Payment failed'.
    await page.getByTestId("plan-pine-monthly").getByRole("button", { name: "Upgrade" }).click();
    await page.getByRole("dialog", { name: "Razorpay Checkout (local replay)" }).getByRole("button", { name: "Fail the payment" }).click();
    await page.waitForURL(`${rzpServer.url}/payment/failed?**`);
    await page.getByRole("heading", { name: "Payment failed" }).waitFor();
    await expectAccessible(page, "/payment/failed");
    await screenshot(page, "billing-payment-failed-1440");

    // The spec's calls: POST, PUT and GET /transactions.
    const token = await csrfToken(page);
    const call = (method: string, body?: unknown) =>
      page.evaluate(
        async ({ method, body, token }) => {
          const response = await fetch("/api/transactions", { method, headers: { "Content-Type": "application/json", "X-CSRF-Token": token }, body: body ? JSON.stringify(body) : undefined });
          return { status: response.status, body: await response.json() };
        },
        { method, body, token },
      );
    expect((await call("POST", { plan_id: "1", currency: "INR" })).status).toBe(404);
    expect((await call("POST", { plan_id: "pine-monthly", currency: "USD" })).status).toBe(400);
    const created = await call("POST", { plan_id: "pine-monthly", currency: "INR", request_key: "api-order-0001" });
    expect(created).toMatchObject({ status: 201, body: { message: "Order created", response: { currency: "INR", amount: 19900, key_id: RZP.keyId } } });
    const again = await call("POST", { plan_id: "pine-monthly", currency: "INR", request_key: "api-order-0001" });
    expect(again.body.response.transaction_id).toBe(created.body.response.transaction_id);
    const { order_id, transaction_id } = created.body.response as { order_id: string; transaction_id: string };
    const forged = await call("PUT", { order_id, transaction_id, payment_id: "pay_forged", signature: "0".repeat(64), status: "successful" });
    expect(forged).toMatchObject({ status: 422, body: { code: "PAYMENT_SIGNATURE_INVALID" } });
    const failed = await call("PUT", { order_id, transaction_id, status: "failed", description: "Payment failed" });
    expect(failed).toMatchObject({ status: 200, body: { status: "failed" } });
    const listed = await call("GET");
    expect(listed.body.transactions.map((t: { status: string }) => t.status)).toEqual(["failed", "failed", "successful", "created"]);
    await context.close();
  }, 90_000);
});
