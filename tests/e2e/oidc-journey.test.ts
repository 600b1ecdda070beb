import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startOidcProvider, type TestOidcProvider } from "../support/oidc-test-provider";
import { freePort, startAppServer, type AppServer } from "./support/app-server";
import { completeOnboarding } from "./support/account";
import { launchBrowser, screenshot, seriousA11yViolations, VIEWPORTS } from "./support/browser";

/** Continue with Google in Chromium: the app -> a real OpenID provider's login and consent -> back, signed in. */
let app: AppServer;
let provider: TestOidcProvider;
let browser: Browser;

beforeAll(async () => {
  const providerPort = await freePort();
  app = await startAppServer({
    env: { OIDC_ISSUER: `http://127.0.0.1:${providerPort}`, OIDC_CLIENT_ID: "docuchat-test", OIDC_CLIENT_SECRET: "docuchat-test-secret-0123456789" },
  });
  provider = await startOidcProvider({ port: providerPort, redirectUri: `${app.url}/auth/oidc/callback` });
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await provider?.stop();
  await app?.stop();
});

const toast = (page: Page, text: string) => page.getByTestId("toast").filter({ hasText: text }).first();

describe("Continue with Google (Chromium, real provider)", () => {
  it("signs in through the provider's login page, completes onboarding and lands on the dashboard", async () => {
    provider.accounts.set("grace", { email: "grace.hopper@example.com" });
    const context = await browser.newContext({ viewport: VIEWPORTS.desktop });
    const page = await context.newPage();
    await page.goto(`${app.url}/login`);
    const button = page.getByRole("button", { name: "Continue with Google" });
    await expect.poll(() => button.isEnabled()).toBe(true);
    const violations = await seriousA11yViolations(page);
    expect(violations, JSON.stringify(violations, null, 1)).toEqual([]);
    await button.click();

    // The provider's own pages.
    await page.waitForURL((url) => url.href.startsWith(provider.issuer));
    await page.locator('input[name="login"]').fill("grace");
    await page.locator('input[name="password"]').fill("anything");
    await page.getByRole("button", { name: "Sign-in" }).click();
    await page.getByRole("button", { name: "Continue" }).click();

    // A new account from the provider is signed in, then asked to complete onboarding like any other.
    await page.waitForURL(`${app.url}/onboarding`);
    await toast(page, "Please complete onboarding").waitFor();
    await completeOnboarding(page, app.url, { firstName: "Grace", lastName: "Hopper" });
    await page.getByTestId("greeting").waitFor();
    await screenshot(page, "oidc-signed-in-1440");

    await page.goto(`${app.url}/account/security`);
    const apps = page.getByTestId("connected-apps");
    await apps.getByText("Google").waitFor();
    await apps.getByText("grace.hopper@example.com").waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, "account-security-1440");
    await context.close();
  });

  it("comes back to /login with 'Google Authentication Failed!!' when the user cancels", async () => {
    const context = await browser.newContext({ viewport: VIEWPORTS.desktop });
    const page = await context.newPage();
    await page.goto(`${app.url}/signup`);
    await page.getByRole("button", { name: "Continue with Google" }).click();
    await page.waitForURL((url) => url.href.startsWith(provider.issuer));
    await page.getByRole("link", { name: "[ Cancel ]" }).click();
    await page.waitForURL(`${app.url}/login`);
    await toast(page, "Google Authentication Failed!!").waitFor();
    await context.close();
  });
});
