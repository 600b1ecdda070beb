import type { Browser, BrowserContext, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EXTERNAL_LINKS, MARKETING_SITE } from "#app/components/external-links";
import { completeOnboarding, signUpAndConfirm, unique } from "./support/account";
import { startAppServer, type AppServer } from "./support/app-server";
import { gotoHydrated, launchBrowser, screenshot, seriousA11yViolations, VIEWPORTS } from "./support/browser";
import { signUpNewUser } from "./support/library";

/**
 * What a tablet or phone user reaches by tapping (issue 44): the slide-in
 * menu's Settings popover opens above the menu and leads to every Settings
 * page; the tours start from the menu. The admin's role change asks first.
 */
type StorageState = Awaited<ReturnType<BrowserContext["storageState"]>>;

let server: AppServer;
let browser: Browser;
let tourBrowser: Browser;
let user: { username: string; storageState: StorageState };
let adminState: StorageState;
const admin = `reachadmin${unique()}`;
const TABLET = { width: 1024, height: 768 };

beforeAll(async () => {
  server = await startAppServer({ env: { WEB_PROCESSES: "0", ADMIN_USERNAMES: admin }, readyTimeoutMs: 120_000 });
  browser = await launchBrowser();
  tourBrowser = await launchBrowser({ tours: true });
  user = await signUpNewUser(browser, server.url);
  const context = await browser.newContext({ viewport: VIEWPORTS.desktop });
  const page = await context.newPage();
  await signUpAndConfirm(browser, page, server.url, admin);
  await completeOnboarding(page, server.url, { firstName: "Grace", lastName: "Admin" });
  adminState = await context.storageState();
  await context.close();
}, 180_000);

afterAll(async () => {
  await tourBrowser?.close();
  await browser?.close();
  await server?.stop();
});

/** A touch screen of the given size; the marketing site's pages answer locally (they open in new tabs). */
async function touchContext(viewport: { width: number; height: number }, from: Browser = browser) {
  const context = await from.newContext({ viewport, storageState: user.storageState, hasTouch: true, isMobile: viewport.width < 800 });
  await context.route(`${MARKETING_SITE}/**`, (route) => route.fulfill({ contentType: "text/html", body: "<title>Marketing</title>" }));
  return { context, page: await context.newPage() };
}

/**
 * Opens the slide-in menu, then Settings from it. A tap lands only on what is
 * on top at that point (Playwright waits while something else covers it), so
 * a popover behind the menu fails here within seconds.
 */
async function openSettingsFromMenu(page: Page) {
  await page.getByTestId("open-menu").tap();
  const menu = page.getByRole("dialog", { name: "Navigation" });
  await menu.waitFor();
  await menu.getByTestId("settings-button").tap();
  const settings = page.getByRole("dialog", { name: "Settings" });
  await settings.waitFor();
  return settings;
}

/** Taps `label` in the Settings popover, failing fast when something covers it. */
const tapItem = (settings: Locator, label: string) => settings.locator(".dc-menu__item").filter({ hasText: label }).tap({ timeout: 5_000 });

describe("Settings from the slide-in menu", () => {
  it("the Settings popover, from the sidebar at 1440 px and from the menu at 390 px", async () => {
    const { context, page } = await touchContext(VIEWPORTS.desktop);
    await gotoHydrated(page, `${server.url}/`);
    await page.getByRole("complementary", { name: "Sidebar" }).getByTestId("settings-button").click();
    await page.getByRole("dialog", { name: "Settings" }).waitFor();
    expect(await seriousA11yViolations(page), "axe on the Settings popover at 1440 px").toEqual([]);
    await screenshot(page, "settings-popover-1440");
    await page.setViewportSize(VIEWPORTS.mobile);
    await gotoHydrated(page, `${server.url}/`);
    await openSettingsFromMenu(page);
    expect(await seriousA11yViolations(page), "axe on the Settings popover over the menu at 390 px").toEqual([]);
    await screenshot(page, "settings-popover-390");
    await context.close();
  });

  for (const [name, viewport] of [
    ["a 1024 px tablet", TABLET],
    ["a 390 px phone", VIEWPORTS.mobile],
  ] as const) {
    it(`on ${name}, every Settings page is reached by tapping`, async () => {
      const { context, page } = await touchContext(viewport);
      await gotoHydrated(page, `${server.url}/`);

      await tapItem(await openSettingsFromMenu(page), "My Profile");
      await page.waitForURL(/\/profile\/my-account$/);
      const tabs = page.getByRole("navigation", { name: "Profile sections" });
      for (const [label, path] of [
        ["My Plan", "/profile/my-plan"],
        ["My Usage", "/profile/my-usage"],
        ["API Tokens", "/profile/api-tokens"],
        ["My Account", "/profile/my-account"],
      ] as const) {
        await tabs.getByRole("link", { name: label }).tap();
        await page.waitForURL(`${server.url}${path}`);
      }
      // Opened directly, the last tab is in view in the strip, not scrolled out of it.
      await gotoHydrated(page, `${server.url}/profile/api-tokens`);
      const [strip, active] = [await tabs.boundingBox(), await tabs.locator('[aria-current="page"]').boundingBox()];
      expect(active!.x, "the open tab's left edge is in the strip").toBeGreaterThanOrEqual(strip!.x - 1);
      expect(active!.x + active!.width, "the open tab's right edge is in the strip").toBeLessThanOrEqual(strip!.x + strip!.width + 1);

      for (const [label, href] of [
        ["Contact Us", EXTERNAL_LINKS.contact],
        ["Help & FAQs", EXTERNAL_LINKS.help],
        ["Terms of Service", EXTERNAL_LINKS.terms],
        ["Privacy Policy", EXTERNAL_LINKS.privacy],
      ] as const) {
        const settings = await openSettingsFromMenu(page);
        const [tab] = await Promise.all([context.waitForEvent("page"), tapItem(settings, label)]);
        await tab.waitForURL(href);
        await tab.close();
        await gotoHydrated(page, `${server.url}/profile/my-account`);
      }
      await context.close();
    });

    it(`on ${name}, Restart App Tour in the menu's Settings starts the app tour on top`, async () => {
      const { context, page } = await touchContext(viewport, tourBrowser);
      await gotoHydrated(page, `${server.url}/history/documents`);
      await tapItem(await openSettingsFromMenu(page), "Restart App Tour");
      await page.waitForURL(`${server.url}/`);
      const tour = page.getByTestId("guided-tour");
      await tour.waitFor();
      await tour.getByRole("button", { name: "Next" }).tap();
      await tour.getByText("Step 2 of 6").waitFor();
      await tour.getByRole("button", { name: "Skip tour" }).tap();
      await tour.waitFor({ state: "detached" });
      await context.close();
    });
  }
});

describe("the admin's screens", () => {
  it("Make admin asks first, naming the user", async () => {
    const context = await browser.newContext({ viewport: VIEWPORTS.desktop, storageState: adminState });
    const page = await context.newPage();
    await gotoHydrated(page, `${server.url}/adminDashboard?q=${user.username}`);
    const row = page.getByTestId("admin-user").filter({ hasText: user.username });
    await row.getByTestId("role-change").click();
    const confirm = page.getByRole("alertdialog", { name: `Make Lena Reader (${user.username}) an admin?` });
    await confirm.getByRole("button", { name: "Cancel" }).click();
    await confirm.waitFor({ state: "detached" });
    await expect(row.getByText("Admin", { exact: true }).count(), "Cancel grants nothing").resolves.toBe(0);
    await row.getByTestId("role-change").click();
    await confirm.getByTestId("confirm-role-change").click();
    await page.getByTestId("toast").filter({ hasText: "Admin role granted." }).waitFor();
    await context.close();
  });
});
