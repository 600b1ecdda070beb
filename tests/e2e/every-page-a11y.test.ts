import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStripeReplay, type StripeReplay } from "../support/payment-replay-servers";
import { completeOnboarding, signUpAndConfirm, unique } from "./support/account";
import { startAppServer, type AppServer } from "./support/app-server";
import { gotoHydrated, launchBrowser, seriousA11yViolations, VIEWPORTS, type A11yViolation } from "./support/browser";
import { createWorkspace, csrfToken } from "./support/chat";
import { makeViewerPdf, uploadFile } from "./support/viewer";
import { uploadTextDocument, waitForActive } from "./support/workspace";

/**
 * Every page of the app, at 1440 and 390 px, has no serious or critical axe-core
 * violation (issue 44 "done when"): signed out, an account with nothing yet
 * (the empty lists), then the same account, an admin, with a text document, a
 * PDF, a workspace and a community, then its payment return pages (through a
 * local replay of Stripe Checkout). `/api/docs` included.
 */
const WEBHOOK_SECRET = "whsec_e2e_every_page_secret";
let server: AppServer;
let stripe: StripeReplay;
let browser: Browser;
const admin = `allpages${unique()}`;
let account: Awaited<ReturnType<BrowserContext["storageState"]>>;
/** The same account once it has content. */
let full: Awaited<ReturnType<BrowserContext["storageState"]>>;

beforeAll(async () => {
  stripe = await startStripeReplay({ webhookSecret: WEBHOOK_SECRET });
  server = await startAppServer({
    env: { ADMIN_USERNAMES: admin, WEB_PROCESSES: "0", STRIPE_SECRET_KEY: "sk_test_e2e_replay", STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, STRIPE_API_URL: stripe.url },
    readyTimeoutMs: 120_000,
  });
  stripe.webhookUrl = `${server.url}/api/payments/webhook`;
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await stripe?.close();
});

/**
 * A page, and what to wait for once it has hydrated before it is checked (what it draws after
 * loading); `before` prepares the page before it is opened.
 */
type Checked = string | { path: string; ready: (page: Page) => Promise<unknown>; before?: (page: Page) => Promise<unknown> };

/**
 * Each path at both widths: the violations found, by width and path (empty when all pass).
 * Also what no person would write: an empty list's footer reading "0 of 0".
 */
async function violationsOn(paths: Checked[], storageState?: Awaited<ReturnType<BrowserContext["storageState"]>>): Promise<Record<string, A11yViolation[]>> {
  const found: Record<string, A11yViolation[]> = {};
  for (const [width, viewport] of [["1440", VIEWPORTS.desktop], ["390", VIEWPORTS.mobile]] as const) {
    const context = await browser.newContext({ viewport, storageState });
    const page = await context.newPage();
    for (const checked of paths) {
      const path = typeof checked === "string" ? checked : checked.path;
      if (typeof checked !== "string") await checked.before?.(page);
      if (path === "/api/docs") {
        // Not a Remix page: ready once the reference has rendered the document.
        await page.goto(`${server.url}${path}`);
        await page.getByRole("heading", { name: "DocuChat API" }).first().waitFor({ timeout: 30_000 });
      } else {
        await gotoHydrated(page, `${server.url}${path}`);
        if (typeof checked !== "string") await checked.ready(page);
      }
      const violations = await seriousA11yViolations(page);
      if (/\b0 of 0\b/.test(await page.locator("body").innerText())) violations.push({ id: "0-of-0", impact: null, help: 'An empty list reads "0 of 0"', targets: [] });
      if (violations.length > 0) found[`${width} ${path}`] = violations;
    }
    await context.close();
  }
  return found;
}

describe("every page at 1440 and 390 px", () => {
  it("signed out", async () => {
    expect(await violationsOn(["/login", "/signup", "/forgot-password", "/api/docs", "/a-page-that-does-not-exist"])).toEqual({});
  }, 300_000);

  it("for an account with nothing yet (the empty lists)", async () => {
    const context = await browser.newContext({ viewport: VIEWPORTS.desktop });
    const page = await context.newPage();
    await signUpAndConfirm(browser, page, server.url, admin);
    // Onboarding is a page only a new account sees.
    const onboarding = await violationsOn(["/onboarding"], await context.storageState());
    await completeOnboarding(page, server.url, { firstName: "Alma", lastName: "Pages" });
    account = await context.storageState();
    await context.close();
    expect(onboarding).toEqual({});
    expect(await violationsOn(["/", "/history/documents", "/history/workspaces", "/community/myCommunity", "/community/publicCommunity"], account)).toEqual({});
  }, 300_000);

  it("for the same account, an admin, with a document, a workspace and a community", async () => {
    const context = await browser.newContext({ viewport: VIEWPORTS.desktop, storageState: account });
    const page = await context.newPage();
    await gotoHydrated(page, server.url);
    const documentId = await uploadTextDocument(page, "pilot-notes.txt", "The harbour pilots board ships two miles out and bring them to the quay at high tide.");
    const pdfId = await uploadFile(page, { name: "harbour-chart.pdf", type: "application/pdf", bytes: await makeViewerPdf("Harbour", 2), pageCount: 2 });
    await waitForActive(page, [documentId, pdfId]);
    const workspaceId = await createWorkspace(page, "Harbour", [documentId]);
    const token = await csrfToken(page);
    const communityId = await page.evaluate(
      async ({ documentId, token }) => {
        const headers = { "Content-Type": "application/json", Accept: "application/json", "X-CSRF-Token": token };
        const created = await fetch("/api/communities", { method: "POST", headers, body: JSON.stringify({ community_name: "Harbour pilots", description: "Notes the pilots share.", visibility: "PUBLIC" }) });
        const id = ((await created.json()) as { community_id: string }).community_id;
        await fetch(`/api/communities/${id}/attach_resources`, { method: "POST", headers, body: JSON.stringify({ resources: [{ id: `DOCUMENT_${documentId}`, type: "DOCUMENT" }] }) });
        return id;
      },
      { documentId, token },
    );
    full = await context.storageState();
    await context.close();

    const pages = [
      "/",
      "/history/documents",
      "/history/workspaces",
      // The text shows in a frame the download route sandboxes (decision 265), the PDF as pages drawn with pdf.js.
      `/document/${documentId}`,
      { path: `/document/${pdfId}`, ready: (page: Page) => page.getByRole("img", { name: "Page 2 of harbour-chart.pdf" }).waitFor() },
      "/upload/files",
      "/upload/fileUrl",
      "/upload/websiteLink",
      "/upload/youtubeVideo",
      "/upload/audio",
      "/workspace/create",
      `/workspace/${workspaceId}`,
      "/community/myCommunity",
      `/community/myCommunity/${communityId}`,
      "/community/publicCommunity",
      `/community/publicCommunity/${communityId}`,
      "/profile/my-account",
      "/profile/my-plan",
      "/profile/my-usage",
      "/profile/my-referral",
      "/profile/chat-settings",
      "/profile/api-tokens",
      "/account/security",
      "/help/api-tokens",
      "/help/keys",
      "/interview",
      "/delete-account",
      "/adminDashboard",
      "/admin/workflows",
      `/admin/audit/account?username=${admin}`,
      "/api/docs",
      {
        // A launched workspace's launch page shows every step done, then moves into the workspace: that
        // move's data request is held, so axe checks the launch page and not a navigation. Last: the
        // hold stays on the page.
        path: `/workspace/${workspaceId}/launch`,
        before: (page: Page) => page.route(new RegExp(`/workspace/${workspaceId}(\\.data|\\?_data=)`), () => undefined),
        ready: (page: Page) => page.getByTestId("launch-progress").waitFor(),
      },
    ];
    expect(await violationsOn(pages, full)).toEqual({});
  }, 900_000);

  it("its payment return pages: a closed checkout, a payment not confirmed yet, a paid one, and no order", async () => {
    const context = await browser.newContext({ viewport: VIEWPORTS.desktop, storageState: full });
    const page = await context.newPage();
    /** Upgrades to Pine through the replayed Stripe Checkout, leaving it as the buyer chooses; the order's id. */
    const checkout = async (leave: "cancel" | "pay") => {
      await gotoHydrated(page, `${server.url}/profile/my-plan`);
      await page.getByTestId("plan-pine-monthly").getByRole("button", { name: "Upgrade" }).click();
      await page.waitForURL(`${stripe.url}/checkout/**`);
      await (leave === "pay" ? page.getByRole("button", { name: "Pay INR 199.00" }) : page.getByRole("link", { name: "Cancel and return" })).click();
      await page.waitForURL(`${server.url}/payment/**`);
      return new URL(page.url()).searchParams.get("order") ?? "";
    };
    const closed = await checkout("cancel");
    const paid = await checkout("pay");
    await context.close();
    const heading = (name: string) => (page: Page) => page.getByRole("heading", { name }).waitFor();
    expect(
      await violationsOn(
        [
          { path: `/payment/failed?order=${closed}&reason=cancelled`, ready: heading("Payment failed") },
          // Its checkout is still open: nothing paid yet.
          { path: `/payment/success?order=${closed}`, ready: heading("Payment received, confirming") },
          { path: `/payment/success?order=${paid}`, ready: heading("Payment successful") },
          // An old or mistyped link.
          { path: "/payment/success", ready: heading("We could not find this order") },
        ],
        full,
      ),
    ).toEqual({});
  }, 300_000);
});
