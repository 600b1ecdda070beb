import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAppServer, type AppServer } from "./support/app-server";
import { gotoHydrated, launchBrowser, screenshot, seriousA11yViolations, VIEWPORTS } from "./support/browser";
import { readCodeFromMailbox } from "./support/mailbox";
import { completeOnboarding } from "./support/account";

/**
 * The account journey of spec 000 §2/§4 in a real browser against the built
 * app: sign up, read the code from the dev mailbox, confirm, log out, log in.
 */
let server: AppServer;
let browser: Browser;

const PASSWORD = "Reader#2024";
const unique = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`.replace(/[^a-z0-9]/gi, "");

async function expectAccessible(page: Page, where: string) {
  const violations = await seriousA11yViolations(page);
  expect(violations, `serious/critical axe violations on ${where}`).toEqual([]);
}

/** A visible toast with this text (Radix also mirrors it into a live region, hence the test id). */
const toast = (page: Page, text: string) => page.getByTestId("toast").filter({ hasText: text }).first();

async function newPage(viewport: { width: number; height: number }): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  return { context, page };
}

/** Fills the sign-up form and submits it; returns the account's username and email. */
async function submitSignup(page: Page) {
  const username = `reader${unique()}`;
  const email = `${username}@example.com`;
  await gotoHydrated(page, `${server.url}/signup`);
  await page.getByLabel("Username").fill(username);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByLabel("Password", { exact: true }).blur();
  const signup = page.getByRole("button", { name: "Signup" });
  await expect.poll(() => signup.isEnabled()).toBe(true);
  await signup.click();
  await page.getByRole("dialog", { name: "Complete Signup" }).waitFor();
  return { username, email };
}

async function enterCode(page: Page, code: string) {
  await page.getByLabel("Digit 1 of 6").click();
  await page.keyboard.type(code);
  for (let i = 0; i < 6; i++) expect(await page.getByLabel(`Digit ${i + 1} of 6`).inputValue()).toBe(code[i]);
}

beforeAll(async () => {
  server = await startAppServer();
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe("signed-out visitors", () => {
  it("land on /login when they open /", async () => {
    const { context, page } = await newPage(VIEWPORTS.desktop);
    await page.goto(`${server.url}/`);
    expect(new URL(page.url()).pathname).toBe("/login");
    await expect.poll(() => page.getByRole("heading", { name: "Welcome Back" }).isVisible()).toBe(true);
    await expectAccessible(page, "/login");
    await screenshot(page, "login-1440");
    await context.close();
  });

  it("see '404! Page Not Found' on an unknown path", async () => {
    const { context, page } = await newPage(VIEWPORTS.desktop);
    const response = await page.goto(`${server.url}/no/such/page`);
    expect(response?.status()).toBe(404);
    expect(await page.getByRole("heading", { name: "404! Page Not Found" }).isVisible()).toBe(true);
    expect(await page.getByRole("img").count()).toBeGreaterThan(0);
    await expectAccessible(page, "404 page");
    await context.close();
  });
});

describe("validation", () => {
  it("shows the spec's messages and keeps Signup disabled for bad input", async () => {
    const { context, page } = await newPage(VIEWPORTS.desktop);
    await page.goto(`${server.url}/signup`);
    const signup = page.getByRole("button", { name: "Signup" });
    await expect.poll(() => signup.isDisabled()).toBe(true);

    await page.getByLabel("Username").fill("bad name");
    await page.getByLabel("Username").blur();
    await page.getByText("Username should not contain spaces").waitFor();
    await page.getByLabel("Username").fill("bad$name");
    await page.getByText("Username should not contain special characters").waitFor();

    await page.getByLabel("Email").fill("not-an-email");
    await page.getByLabel("Email").blur();
    await page.getByText("Must be a valid email").waitFor();

    const password = page.getByLabel("Password", { exact: true });
    await password.fill("short");
    await password.blur();
    await page.getByText("Password must be at least 8 characters long").waitFor();
    await password.fill("alllowercase1!");
    await page.getByText("Password must contain at least one uppercase letter").waitFor();
    expect(await signup.isDisabled()).toBe(true);
    await expectAccessible(page, "/signup with errors");

    await gotoHydrated(page, `${server.url}/login`);
    const login = page.getByRole("button", { name: "Login" });
    await page.getByLabel("Username").fill("two words");
    await page.getByLabel("Username").blur();
    await page.getByText("Username should not contain spaces").waitFor();
    await page.getByLabel("Password", { exact: true }).fill("anything");
    expect(await login.isDisabled()).toBe(true);
    await context.close();
  });

  it("rejects a wrong password with the spec's message", async () => {
    const { context, page } = await newPage(VIEWPORTS.desktop);
    await gotoHydrated(page, `${server.url}/login`);
    await page.getByLabel("Username").fill("nobody");
    await page.getByLabel("Password", { exact: true }).fill("Wrong#Pass1");
    await page.getByRole("button", { name: "Login" }).click();
    await page.getByText("Incorrect username or password.").waitFor();
    await context.close();
  });
});

describe("the sign-up journey", () => {
  it("signs up, confirms the code, logs out and logs back in (1440×900)", async () => {
    const { context, page } = await newPage(VIEWPORTS.desktop);
    await page.goto(`${server.url}/signup?refCode=FRIEND42`);
    expect(await page.locator('input[name="refCode"]').inputValue()).toBe("FRIEND42");
    await expectAccessible(page, "/signup");
    await screenshot(page, "signup-1440");

    const { username, email } = await submitSignup(page);
    const dialog = page.getByRole("dialog", { name: "Complete Signup" });
    expect(await dialog.getByTestId("resend-timer").textContent()).toMatch(/Resend code in 0:[0-3]\d/);

    // Submitting with empty boxes flags them.
    await dialog.getByRole("button", { name: "Confirm" }).click();
    await dialog.getByText("Enter all 6 digits of the code.").waitFor();
    await expectAccessible(page, "the Complete Signup dialog");
    await screenshot(page, "code-step-1440");

    const code = await readCodeFromMailbox(browser, server.url, email);
    await enterCode(page, code);
    await dialog.getByRole("button", { name: "Confirm" }).click();

    // A new account is sent to onboarding first (spec 000 §2).
    await page.waitForURL(`${server.url}/onboarding`);
    await completeOnboarding(page, server.url, { firstName: "Reader", lastName: "One" });
    await page.getByRole("heading", { name: "Hi, Reader" }).waitFor();
    await expectAccessible(page, "the dashboard");
    await screenshot(page, "dashboard-1440");

    // Log out through the confirmation dialog.
    await page.getByTestId("logout-button").click();
    const logout = page.getByRole("alertdialog");
    await logout.getByText("Are you sure you want to log out?").waitFor();
    await logout.getByRole("button", { name: "Log out" }).click();
    await page.waitForURL(/\/login/);
    await toast(page, "Logged out successfully").waitFor();

    // Log back in.
    await page.getByLabel("Username").fill(username);
    await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await page.getByRole("button", { name: "Login" }).click();
    await page.waitForURL(`${server.url}/`);
    await page.getByRole("heading", { name: "Hi, Reader" }).waitFor();
    await toast(page, "Logged In Successfully").waitFor();
    await context.close();
  });

  it("takes the same journey on a phone (390×844)", async () => {
    const { context, page } = await newPage(VIEWPORTS.mobile);
    await page.goto(`${server.url}/signup`);
    await screenshot(page, "signup-390");
    const { email } = await submitSignup(page);
    await screenshot(page, "code-step-390");
    const code = await readCodeFromMailbox(browser, server.url, email);
    await enterCode(page, code);
    await page.getByRole("dialog", { name: "Complete Signup" }).getByRole("button", { name: "Confirm" }).click();
    await page.waitForURL(`${server.url}/onboarding`);
    await completeOnboarding(page, server.url, { firstName: "Reader", lastName: "Two" });
    await page.getByRole("heading", { name: "Hi, Reader" }).waitFor();
    await expectAccessible(page, "the dashboard on a phone");
    await screenshot(page, "dashboard-390");

    // The sidebar is a slide-in panel behind the hamburger.
    await page.getByRole("button", { name: "Open menu" }).click();
    const drawer = page.getByRole("dialog", { name: "Navigation" });
    await drawer.getByRole("link", { name: "Home", exact: true }).waitFor();
    await screenshot(page, "menu-390");
    await context.close();
  });

  it("opens 'Pending Verification' when an unconfirmed user logs in", async () => {
    const { context, page } = await newPage(VIEWPORTS.desktop);
    const { username, email } = await submitSignup(page);

    // The name is now reserved: the on-blur check on another sign-up says so.
    const other = await newPage(VIEWPORTS.desktop);
    await gotoHydrated(other.page, `${server.url}/signup`);
    await other.page.getByLabel("Username").fill(username);
    await other.page.getByLabel("Username").blur();
    await other.page.getByText("Username already present").waitFor();
    await other.context.close();

    await gotoHydrated(page, `${server.url}/login`);
    await page.getByLabel("Username").fill(username);
    await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await page.getByRole("button", { name: "Login" }).click();
    const dialog = page.getByRole("dialog", { name: "Pending Verification" });
    await dialog.waitFor();
    await dialog.getByRole("button", { name: "Confirm" }).click();
    // Step 2: the boxes. The sign-up code is seconds old, so the resend may be refused
    // as too soon; the dialog then still moves on and the newest mailed code works.
    await dialog.getByLabel("Digit 1 of 6").waitFor();
    await screenshot(page, "pending-verification-1440");
    const code = await readCodeFromMailbox(browser, server.url, email);
    await enterCode(page, code);
    await dialog.getByRole("button", { name: "Confirm" }).click();
    await page.waitForURL(`${server.url}/onboarding`);
    await completeOnboarding(page, server.url, { firstName: "Reader", lastName: "Three" });
    await page.getByRole("heading", { name: "Hi, Reader" }).waitFor();
    await context.close();
  });
});
