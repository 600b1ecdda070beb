import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAppServer, type AppServer } from "./support/app-server";
import { gotoHydrated, launchBrowser, screenshot, seriousA11yViolations, VIEWPORTS } from "./support/browser";
import { createWorkspace, uploadThroughApi, waitForActive } from "./support/chat";
import { makePdf, signUpNewUser } from "./support/library";

/**
 * Settings → API Tokens in Chromium (issue 31): a token is created, shown and
 * copied once, works as a bearer token, is gone from the page on the next
 * visit, and stops working when revoked. The form empties after Create, two
 * workspaces of one name can be told apart, and Revoke asks first (issue 44).
 * The API reference renders from our own assets under its Content-Security-Policy.
 */
let app: AppServer;
let browser: Browser;

beforeAll(async () => {
  // One process: this journey needs no second web process, and starts sooner on a busy machine.
  app = await startAppServer({ env: { WEB_PROCESSES: "0" }, readyTimeoutMs: 120_000 });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

const whoAmI = (token: string) => fetch(`${app.url}/api/v1/token`, { headers: { Authorization: `Bearer ${token}` } });

describe("personal access tokens (Chromium)", () => {
  it("creates a token, copies it once, and revokes it", async () => {
    const { storageState } = await signUpNewUser(browser, app.url);
    const context = await browser.newContext({ viewport: VIEWPORTS.desktop, storageState, permissions: ["clipboard-read", "clipboard-write"] });
    const page = await context.newPage();
    await page.goto(app.url);
    // Two workspaces named alike, one with a document more.
    const pdfs = [];
    for (const name of ["tides.pdf", "charts.pdf"]) pdfs.push(await uploadThroughApi(page, { name, type: "application/pdf", bytes: await makePdf([name]), pages: 1 }));
    await waitForActive(page, pdfs);
    await createWorkspace(page, "Reading list", pdfs.slice(0, 1));
    await createWorkspace(page, "Reading list", pdfs);

    await gotoHydrated(page, `${app.url}/profile/api-tokens`);
    const choices = await page.locator(".dc-api-tokens__choice").filter({ hasText: "Reading list" }).allInnerTexts();
    expect(choices).toHaveLength(2);
    expect(new Set(choices).size, `the scope list tells them apart: ${choices.join(" | ")}`).toBe(2);
    await page.getByTestId("token-name").fill("Report uploader");
    await page.getByTestId("token-expiry").selectOption("90");
    await page.getByTestId("permission-ask").check();
    await page.getByTestId("create-token").click();
    const shown = page.getByTestId("new-token-value");
    await shown.waitFor();
    const token = await shown.inputValue();
    expect(token).toMatch(/^dcp_[0-9a-f]{32}_[A-Za-z0-9_-]{43}$/);
    // The form is empty again: a second click creates nothing.
    await expect(page.getByTestId("token-name").inputValue()).resolves.toBe("");
    await expect(page.getByTestId("permission-ask").isChecked()).resolves.toBe(false);
    await page.getByTestId("create-token").click();
    await expect(page.getByTestId("token-row").count()).resolves.toBe(1);
    await page.getByTestId("copy-token").click();
    await page.getByTestId("toast").filter({ hasText: "Token copied" }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(token);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, "api-tokens-created-1440");

    const answer = await whoAmI(token);
    expect(answer.status).toBe(200);
    expect(await answer.json()).toMatchObject({ workspace_ids: null, permissions: ["read", "ask"] });

    // Shown once: the next visit lists the token, never its value.
    await gotoHydrated(page, `${app.url}/profile/api-tokens`);
    expect(await page.content()).not.toContain(token.slice(-43));
    const row = page.getByTestId("token-row").filter({ hasText: "Report uploader" });
    await row.waitFor();
    await expect.poll(() => row.textContent()).not.toContain("Never"); // its use just now is its last use

    await page.setViewportSize(VIEWPORTS.mobile);
    await screenshot(page, "api-tokens-list-390");
    await page.setViewportSize(VIEWPORTS.desktop);

    await row.getByTestId("revoke-token").click();
    const confirm = page.getByRole("alertdialog", { name: "Revoke Report uploader?" });
    await confirm.getByRole("button", { name: "Cancel" }).click();
    await confirm.waitFor({ state: "detached" });
    expect((await whoAmI(token)).status, "Cancel keeps the token").toBe(200);
    await row.getByTestId("revoke-token").click();
    await confirm.getByTestId("confirm-revoke").click();
    await page.getByTestId("toast").filter({ hasText: "Report uploader revoked" }).waitFor();
    await row.getByText("Revoked").waitFor();
    await screenshot(page, "api-tokens-revoked-1440");
    await page.setViewportSize(VIEWPORTS.mobile);
    await screenshot(page, "api-tokens-revoked-390");
    expect((await whoAmI(token)).status).toBe(401);
    await context.close();
  });

  it("the API reference renders from our own assets under the app's header, asking for nothing elsewhere", async () => {
    const context = await browser.newContext({ viewport: VIEWPORTS.desktop });
    const page = await context.newPage();
    const refused: string[] = [];
    const foreign: string[] = [];
    const failed: string[] = [];
    page.on("console", (message) => /Content Security Policy/i.test(message.text()) && refused.push(message.text()));
    page.on("response", (response) => {
      if (!response.url().startsWith(app.url) && !/^(data|blob):/.test(response.url())) foreign.push(response.url());
      if (response.status() >= 400) failed.push(`${response.status()} ${response.url()}`);
    });
    await page.goto(`${app.url}/api/docs`);
    await page.getByText("Upload a file", { exact: false }).first().waitFor({ timeout: 30_000 });
    await page.getByRole("heading", { name: "DocuChat API" }).first().waitFor();
    // Scalar's own menus are not ours to offer (issue 44 item 8): the page is DocuChat's, with a way back.
    for (const vendorMenu of ["Developer Tools", "Configure", "Share", "Deploy"]) {
      await expect(page.getByRole("button", { name: vendorMenu, exact: true }).count(), vendorMenu).resolves.toBe(0);
    }
    await expect(page.getByRole("link", { name: "Back to DocuChat" }).getAttribute("href")).resolves.toBe("/");
    const icon = await fetch(`${app.url}/favicon.ico`);
    expect(icon.status).toBe(200);
    expect(icon.headers.get("content-type")).toContain("image/");
    await screenshot(page, "api-docs-1440");
    await page.setViewportSize(VIEWPORTS.mobile);
    await page.getByRole("link", { name: "Back to DocuChat" }).waitFor();
    await screenshot(page, "api-docs-390");
    // Configured for our own assets only, the reference asks for nothing the policy has to refuse, and nothing it asks for is missing.
    expect(refused).toEqual([]);
    expect(foreign).toEqual([]);
    expect(failed).toEqual([]);
    await context.close();
  });
});
