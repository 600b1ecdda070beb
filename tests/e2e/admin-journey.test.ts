import { execFile } from "node:child_process";
import { promisify } from "node:util";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { completeOnboarding, signUpAndConfirm, unique } from "./support/account";
import { ROOT, startAppServer, type AppServer } from "./support/app-server";
import { launchBrowser, screenshot, phoneLayoutProblems, seriousA11yViolations, VIEWPORTS } from "./support/browser";
import { createWorkspace } from "./support/chat";
import { csrfToken, signUpNewUser, toast, uploadTextDocument, waitForActive } from "./support/workspace";

/**
 * Admin impersonation (issue 15, spec 001 §2/§4/§6): an admin named by
 * ADMIN_USERNAMES searches a user, impersonates with a reason, sees the
 * dashboard and a workspace read-only, watches the countdown, exits; the
 * history shows what was viewed and the user sees it in My Account.
 */
let server: AppServer;
let browser: Browser;
const admin = `chiefadmin${unique()}`;

async function expectAccessible(page: Page, where: string) {
  expect(await seriousA11yViolations(page), `serious/critical axe violations on ${where}`).toEqual([]);
}

async function newContext(storageState?: Awaited<ReturnType<BrowserContext["storageState"]>>): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: VIEWPORTS.desktop, storageState, permissions: ["clipboard-read", "clipboard-write"] });
  return { context, page: await context.newPage() };
}

beforeAll(async () => {
  server = await startAppServer({ env: { ADMIN_USERNAMES: admin }, readyTimeoutMs: 120_000 });
  browser = await launchBrowser();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe("admin impersonation", () => {
  it("an admin impersonates a user read-only with a reason, exits, and both see what happened", async () => {
    // The user, with a workspace.
    const user = await signUpNewUser(browser, server.url);
    const member = await newContext(user.storageState);
    await member.page.goto(server.url);
    const documentId = await uploadTextDocument(member.page, "thesis-notes.txt", "The analytical engine weaves algebraic patterns as the loom weaves flowers.");
    await waitForActive(member.page, [documentId]);
    const workspaceId = await createWorkspace(member.page, "Thesis Notes", [documentId]);

    // The admin signs up (named by ADMIN_USERNAMES) and opens the Admin Dashboard from the sidebar.
    const { context, page } = await newContext();
    await signUpAndConfirm(browser, page, server.url, admin);
    await completeOnboarding(page, server.url, { firstName: "Grace", lastName: "Admin" });
    await page.getByRole("link", { name: "Admin Dashboard" }).click();
    await page.waitForURL(/\/adminDashboard$/);
    await page.getByRole("navigation", { name: "Breadcrumb" }).getByText("Impersonation").waitFor();

    await page.getByLabel("Search Users").fill(user.username.slice(0, 6));
    await page.getByRole("button", { name: "Search" }).click();
    const row = page.getByTestId("admin-user").filter({ hasText: user.username });
    await row.waitFor();
    await expectAccessible(page, "/adminDashboard");
    await screenshot(page, "admin-dashboard-1440");
    await page.setViewportSize(VIEWPORTS.mobile);
    await screenshot(page, "admin-dashboard-390");
    await page.setViewportSize(VIEWPORTS.desktop);

    // The reason is required: the browser refuses an empty one; the server refuses a blank one too (test in tests/integration).
    await row.getByLabel(/Reason for impersonating/).fill("Ticket 4711: the user cannot find her thesis workspace");
    await row.getByTestId("impersonate").click();
    await page.waitForURL(`${server.url}/`);
    const exit = page.getByTestId("exit-admin-mode");
    await exit.waitFor();
    const countdown = async () => {
      const match = /Exit Admin Mode \((\d+):(\d\d)\)/.exec((await exit.textContent()) ?? "");
      expect(match, "the countdown label").not.toBeNull();
      return Number(match![1]) * 60 + Number(match![2]);
    };
    const first = await countdown();
    expect(first).toBeGreaterThan(3590);
    expect(first).toBeLessThanOrEqual(3600);
    await page.waitForTimeout(2200);
    expect(await countdown()).toBeLessThan(first);
    // Settings and Logout are disabled and dimmed.
    expect(await page.getByTestId("logout-button").first().getAttribute("aria-disabled")).toBe("true");
    await screenshot(page, "admin-impersonating-dashboard-1440");
    await page.setViewportSize(VIEWPORTS.mobile);
    await screenshot(page, "admin-impersonating-dashboard-390");
    expect(await phoneLayoutProblems(page), "the dashboard while impersonating at 390 px").toEqual([]);
    await page.setViewportSize(VIEWPORTS.desktop);

    // The user's workspace, read-only: send disabled, and a write by HTTP refused on the server.
    await page.goto(`${server.url}/workspace/${workspaceId}`);
    await page.getByTestId("chat").first().waitFor();
    expect(await page.getByTestId("send").first().isDisabled()).toBe(true);
    const token = await csrfToken(page);
    const refused = await page.evaluate(
      async ({ token, workspaceId }) => {
        const r = await fetch("/api/conversations", { method: "POST", headers: { "Content-Type": "application/json", "X-CSRF-Token": token }, body: JSON.stringify({ workspace_id: workspaceId }) });
        return { status: r.status, body: await r.json() };
      },
      { token, workspaceId },
    );
    expect(refused).toEqual({ status: 403, body: { code: "IMPERSONATION_READ_ONLY", message: "An admin acting as this user cannot change anything." } });
    await screenshot(page, "admin-impersonating-workspace-1440");

    // Profile routes redirect to /.
    await page.goto(`${server.url}/profile/my-account`);
    expect(new URL(page.url()).pathname).toBe("/");

    // A second tab with the admin session gets the warning (once this tab listens for others).
    await page.locator('[data-testid="admin-bar"][data-listening="true"]').waitFor();
    const second = await context.newPage();
    await second.goto(server.url);
    await second.getByTestId("admin-session-warning").waitFor();
    await expect(second.getByRole("alertdialog", { name: "Admin Session Warning" }).isVisible()).resolves.toBe(true);
    await screenshot(second, "admin-session-warning-1440");
    await second.close();

    // Exit: the admin is themself again, on the dashboard, and the history shows the session with what was viewed.
    await page.getByTestId("exit-admin-mode").click();
    await page.waitForURL(/\/adminDashboard$/);
    await toast(page, "You left admin mode.").waitFor();
    const history = page.getByTestId("impersonation-history");
    await history.waitFor();
    const historyText = (await history.textContent()) ?? "";
    expect(historyText).toContain("Lena Reader");
    expect(historyText).toContain("Ended (exited)");
    expect(historyText).toContain("Ticket 4711");
    expect(historyText).toContain("Thesis Notes");
    expect(historyText).toContain(admin);
    expect(await page.getByTestId("exit-admin-mode").count()).toBe(0);
    await screenshot(page, "admin-history-1440");

    // The audit CLI replays the impersonation from the event store.
    const auditHref = (await history.getByRole("link", { name: "Audit" }).first().getAttribute("href"))!;
    const impersonationId = new URLSearchParams(auditHref.split("?")[1]).get("impersonation")!;
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [`${ROOT}/node_modules/tsx/dist/cli.mjs`, "scripts/audit.ts", "impersonation", impersonationId],
      { cwd: ROOT, env: { ...process.env, DATA_DIR: server.dataDir, APP_SECRET: "e2e-secret-e2e-secret-e2e-secret-0123", LOG_LEVEL: "silent" } },
    );
    expect(stdout).toContain("ImpersonationStarted");
    expect(stdout).toContain("ImpersonationViewed");
    expect(stdout).toContain("ended by the admin");
    // The audit page shows it with its exports.
    await page.goto(`${server.url}${auditHref}`);
    await page.getByTestId("audit-table").waitFor();
    await screenshot(page, "admin-audit-1440");
    // On a phone each event is a card: no table scrolling inside its card, no id broken into fragments (issue 44 item 12).
    await page.setViewportSize(VIEWPORTS.mobile);
    await page.getByTestId("audit-table-cards").waitFor();
    await expect(page.getByTestId("audit-table").isVisible()).resolves.toBe(false);
    expect(await phoneLayoutProblems(page), "the account audit at 390 px").toEqual([]);
    await expectAccessible(page, "/admin/audit/account at 390 px");
    await screenshot(page, "admin-audit-390");
    await page.setViewportSize(VIEWPORTS.desktop);
    const csv = await page.evaluate(async (href) => (await fetch(href)).text(), (await page.getByTestId("audit-csv").getAttribute("href"))!);
    expect(csv.split("\r\n")[0]).toBe("position,time,event,actor,details");
    expect(csv).toContain("ImpersonationViewed");

    // The operators' page lists the expiry run.
    await page.goto(`${server.url}/admin/workflows`);
    const runs = page.getByTestId("workflow-runs");
    await runs.waitFor();
    expect(await runs.textContent()).toContain("impersonation-expiry");
    await expectAccessible(page, "/admin/workflows");
    await screenshot(page, "admin-workflows-1440");
    await page.setViewportSize(VIEWPORTS.mobile);
    const cards = page.getByTestId("workflow-runs-cards");
    await cards.waitFor();
    expect(await cards.textContent()).toContain("impersonation-expiry");
    expect(await phoneLayoutProblems(page), "the workflow runs at 390 px").toEqual([]);
    await expectAccessible(page, "/admin/workflows at 390 px");
    await screenshot(page, "admin-workflows-390");
    // A run's id, shortened to fit, is copied whole.
    const run = cards.locator("li").filter({ hasText: "impersonation-expiry" }).first();
    const runId = (await run.locator("code").getAttribute("title"))!;
    await run.getByTestId("copy-id").click();
    await toast(page, "Run id copied").waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(runId);
    await page.setViewportSize(VIEWPORTS.desktop);
    await context.close();

    // The user sees who looked, when, why and what.
    await member.page.goto(`${server.url}/profile/my-account`);
    const views = member.page.getByTestId("account-views");
    await views.waitFor();
    const viewsText = (await views.textContent()) ?? "";
    expect(viewsText).toContain(`An administrator (${admin})`);
    expect(viewsText).toContain("Ticket 4711");
    expect(viewsText).toContain("Viewed your workspace ‘Thesis Notes’");
    await expectAccessible(member.page, "/profile/my-account");
    await screenshot(member.page, "account-admin-access-1440");

    // A member calling every admin route gets 404.
    for (const path of ["/adminDashboard", "/admin/workflows", "/admin/audit/account", `/admin/audit/export?impersonation=${impersonationId}&format=json`]) {
      const response = await member.page.goto(`${server.url}${path}`);
      expect(response?.status(), path).toBe(404);
    }
    await member.page.goto(server.url);
    const memberToken = await csrfToken(member.page);
    expect(memberToken).not.toBe("");
    const posts = await member.page.evaluate(async (token) => {
      const form = new FormData();
      form.set("csrf", token);
      form.set("user_id", "someone");
      form.set("reason", "I want to look around");
      const impersonate = await fetch("/profiles/impersonate", { method: "POST", body: form, redirect: "manual" });
      const filter = await fetch("/profiles/filter", {
        method: "POST",
        headers: { "Content-Type": "application/json", "X-CSRF-Token": token },
        body: JSON.stringify({ logic: "OR", filters: [{ field: "email", type: "contains", value: "example" }] }),
      });
      const workflows = await fetch("/admin/workflows", { method: "POST", body: form, redirect: "manual" });
      return [impersonate.status, filter.status, workflows.status];
    }, memberToken);
    expect(posts).toEqual([404, 404, 404]);
    await member.context.close();
  }, 240_000);
});
