import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HttpSession } from "../support/http-session";
import { startSmtpInbox } from "../support/smtp-inbox";
import { startAppServer, type AppServer } from "./support/app-server";
import { gotoHydrated, launchBrowser, screenshot, seriousA11yViolations, VIEWPORTS } from "./support/browser";
import { decodeSignedCookie, form, mailedCode, pageCsrf, setCookieValue, signUpOverHttp } from "./support/accounts";

/**
 * Forgot password, change password, log out of all devices and cross-tab
 * sync in Chromium; cookie, CSRF and session-rotation checks over HTTP.
 */
let app: AppServer;
let browser: Browser;
let counter = 0;
const PASSWORD = "Reader#2024";
const NEW_PASSWORD = "Writer#2025";

beforeAll(async () => {
  app = await startAppServer();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await app?.stop();
});

async function newAccount() {
  const username = `acct${Date.now().toString(36)}${++counter}`;
  const account = { username, email: `${username}@example.com`, password: PASSWORD };
  await signUpOverHttp(new HttpSession(), app.url, account);
  return account;
}

const toast = (page: Page, text: string) => page.getByTestId("toast").filter({ hasText: text }).first();

async function logIn(context: BrowserContext, username: string, password: string): Promise<Page> {
  const page = await context.newPage();
  await page.goto(`${app.url}/login`);
  await page.getByLabel("Username").fill(username);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Login" }).click();
  await page.waitForURL(`${app.url}/`);
  return page;
}

describe("forgot password (Chromium)", () => {
  it("mails a code, takes six digits and a new password, and the new password logs in", async () => {
    const account = await newAccount();
    const context = await browser.newContext({ viewport: VIEWPORTS.desktop });
    const page = await context.newPage();
    // Before hydration the link opens the page form instead (the no-script path, tested below).
    await gotoHydrated(page, `${app.url}/login`);
    await page.getByRole("link", { name: "Forgot Password" }).click();
    const dialog = page.getByRole("dialog", { name: "Forgot Your Password" });
    await dialog.waitFor();
    await dialog.getByRole("button", { name: "Confirm" }).click();
    await dialog.getByText("Username is required").waitFor();
    await dialog.getByLabel("Username").fill(account.username);
    await dialog.getByRole("button", { name: "Confirm" }).click();
    await toast(page, "Verification code has been sent successfully").waitFor();
    await dialog.getByTestId("reset-resend-timer").waitFor();

    const code = await mailedCode(new HttpSession(), app.url, account.email);
    await dialog.getByLabel("New password", { exact: true }).fill("short");
    await dialog.getByLabel("New password", { exact: true }).blur();
    await dialog.getByText("Password must be at least 8 characters long").waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, "forgot-password-code-1440");
    await dialog.getByLabel("Digit 1 of 6").click();
    await page.keyboard.type(code);
    await dialog.getByLabel("New password", { exact: true }).fill(NEW_PASSWORD);
    await dialog.getByRole("button", { name: "Update" }).click();
    await toast(page, "Password reset successfully!").waitFor();
    await dialog.waitFor({ state: "detached" });

    await page.getByLabel("Username").fill(account.username);
    await page.getByLabel("Password", { exact: true }).fill(NEW_PASSWORD);
    await page.getByRole("button", { name: "Login" }).click();
    await page.waitForURL(`${app.url}/`);
    await context.close();
  });

  it("works without JavaScript as a page", async () => {
    const account = await newAccount();
    const context = await browser.newContext({ viewport: VIEWPORTS.mobile, javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${app.url}/login`);
    await page.getByRole("link", { name: "Forgot Password" }).click();
    await page.waitForURL(`${app.url}/forgot-password`);
    await page.getByLabel("Username").fill(account.username);
    await page.getByRole("button", { name: "Confirm" }).click();
    const code = await mailedCode(new HttpSession(), app.url, account.email);
    await page.getByLabel("Code (6 digits)").fill(code);
    await page.getByLabel("New password", { exact: true }).fill(NEW_PASSWORD);
    await page.getByRole("button", { name: "Update" }).click();
    await page.waitForURL(`${app.url}/login`);
    await context.close();
    const session = new HttpSession();
    const csrf = await pageCsrf(session, `${app.url}/login`);
    const login = await session.request(`${app.url}/login`, form({ csrf, intent: "login", username: account.username, password: NEW_PASSWORD }));
    expect(login.status).toBe(302);
  });
});

describe("change password and log out of all devices (Chromium)", () => {
  it("refuses a wrong old password, then changes it", async () => {
    const account = await newAccount();
    const context = await browser.newContext({ viewport: VIEWPORTS.desktop });
    const page = await logIn(context, account.username, PASSWORD);
    await gotoHydrated(page, `${app.url}/account/security`);
    const formEl = page.getByRole("form", { name: "Change password" });
    await formEl.getByRole("button", { name: "Change Password" }).click();
    expect(await formEl.getByText("Password is required").count()).toBe(2);
    await formEl.getByLabel("Old password", { exact: true }).fill("Wrong#Pass1");
    await formEl.getByLabel("New password", { exact: true }).fill(NEW_PASSWORD);
    await formEl.getByRole("button", { name: "Change Password" }).click();
    await formEl.getByText("The old password is incorrect.").waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await formEl.getByLabel("Old password", { exact: true }).fill(PASSWORD);
    await formEl.getByRole("button", { name: "Change Password" }).click();
    await toast(page, "Password changed successfully!").waitFor();
    await context.close();

    const fresh = await browser.newContext();
    await logIn(fresh, account.username, NEW_PASSWORD);
    await fresh.close();
  });

  it("logs out every device, and the other tab of this browser follows", async () => {
    const account = await newAccount();
    const laptop = await browser.newContext({ viewport: VIEWPORTS.desktop });
    const phone = await browser.newContext({ viewport: VIEWPORTS.mobile });
    const tabA = await logIn(laptop, account.username, PASSWORD);
    const tabB = await laptop.newPage();
    await tabB.goto(`${app.url}/`);
    await tabB.getByTestId("greeting").waitFor();
    const phonePage = await logIn(phone, account.username, PASSWORD);

    await tabA.goto(`${app.url}/account/security`);
    await tabA.getByRole("button", { name: "Log out of all Devices" }).click();
    const dialog = tabA.getByRole("alertdialog", { name: "Log out of all devices" });
    await dialog.waitFor();
    const violations = await seriousA11yViolations(tabA);
    expect(violations, JSON.stringify(violations)).toEqual([]);
    await dialog.getByRole("button", { name: "Log out of all Devices" }).click();
    await tabA.waitForURL(`${app.url}/login`);
    await toast(tabA, "Logged out of all devices successfully").waitFor();

    // The other tab notices through the storage event, without being touched.
    await tabB.waitForURL(`${app.url}/login`, { timeout: 10_000 });
    // The other device is logged out on its next request.
    await phonePage.goto(`${app.url}/`);
    expect(new URL(phonePage.url()).pathname).toBe("/login");
    await laptop.close();
    await phone.close();
  });

  it("a plain logout in one tab logs the other tab out too", async () => {
    const account = await newAccount();
    const context = await browser.newContext({ viewport: VIEWPORTS.desktop });
    const tabA = await logIn(context, account.username, PASSWORD);
    const tabB = await context.newPage();
    await tabB.goto(`${app.url}/account/security`);
    await tabB.getByRole("heading", { name: "Account security" }).waitFor();
    await tabA.getByTestId("logout-button").click();
    await tabA.getByRole("alertdialog").getByRole("button", { name: "Log out" }).click();
    await toast(tabA, "Logged out successfully").waitFor();
    await tabB.waitForURL((url) => url.pathname === "/login", { timeout: 10_000 });
    await context.close();
  });
});

describe("sessions, cookies and CSRF (HTTP)", () => {
  it("issues a new session token at every login, and a logged-out token stays dead", async () => {
    const account = await newAccount();
    const login = async (session: HttpSession) => {
      const csrf = await pageCsrf(session, `${app.url}/login`);
      return session.request(`${app.url}/login`, form({ csrf, intent: "login", username: account.username, password: PASSWORD }));
    };
    const a = new HttpSession();
    const first = setCookieValue(await login(a), "__session")!.value;
    const b = new HttpSession();
    const second = setCookieValue(await login(b), "__session")!.value;
    expect(first).toBeTruthy();
    expect(second).not.toBe(first);

    // A browser that is already signed in is told so (spec 000 §8) and keeps its session.
    const csrfA = await pageCsrf(a, `${app.url}/account/security`);
    const again = await a.request(`${app.url}/login`, form({ csrf: csrfA, intent: "login", username: account.username, password: PASSWORD }));
    expect(again.status).toBe(302);
    expect(decodeSignedCookie(setCookieValue(again, "__toast")?.value)).toEqual({ type: "info", message: "There is already a signed in user." });
    expect(setCookieValue(again, "__session")).toBeUndefined();

    // Logging out revokes the token on the server: replaying the old cookie gets nothing.
    await a.request(`${app.url}/logout`, form({ csrf: csrfA }));
    const replay = new HttpSession();
    replay.setCookie(app.url, "__session", first);
    expect(await (await replay.request(`${app.url}/api/session`)).json()).toEqual({ signedIn: false });
    // Logging in again from that browser (old cookie still sent) gets a fresh token.
    const third = setCookieValue(await login(replay), "__session")!.value;
    expect(third).not.toBe(first);
    expect(await (await replay.request(`${app.url}/api/session`)).json()).toEqual({ signedIn: true });
  });

  it("sets httpOnly SameSite=Lax cookies, without Secure outside production", async () => {
    const account = await newAccount();
    const session = new HttpSession();
    const page = await session.request(`${app.url}/login`);
    const csrfCookie = setCookieValue(page, "__csrf")!;
    expect(csrfCookie.attributes).toMatch(/HttpOnly/i);
    expect(csrfCookie.attributes).toMatch(/SameSite=Lax/i);
    const csrf = await pageCsrf(session, `${app.url}/login`);
    const login = await session.request(`${app.url}/login`, form({ csrf, intent: "login", username: account.username, password: PASSWORD }));
    const cookie = setCookieValue(login, "__session")!;
    expect(cookie.attributes).toMatch(/HttpOnly/i);
    expect(cookie.attributes).toMatch(/SameSite=Lax/i);
    expect(cookie.attributes).not.toMatch(/Secure/i);
  });

  it("refuses every form action without the CSRF token (403)", async () => {
    const account = await newAccount();
    const session = new HttpSession();
    const csrf = await pageCsrf(session, `${app.url}/login`);
    await session.request(`${app.url}/login`, form({ csrf, intent: "login", username: account.username, password: PASSWORD }));
    const routes = ["/login", "/signup", "/forgot-password", "/logout", "/auth/oidc/start", "/profile/password", "/profile/sessions"];
    for (const route of routes) {
      const missing = await session.request(`${app.url}${route}`, form({ username: account.username, intent: "request" }));
      expect(missing.status, `${route} without a token`).toBe(403);
      const wrong = await session.request(`${app.url}${route}`, form({ csrf: "x".repeat(csrf.length), username: account.username }));
      expect(wrong.status, `${route} with a wrong token`).toBe(403);
    }
    // Still signed in: none of them did anything.
    expect(await (await session.request(`${app.url}/api/session`)).json()).toEqual({ signedIn: true });
  });
});

describe("production cookies", () => {
  it("are Secure when DEPLOYMENT_ENV=production", async () => {
    // Production mails codes over SMTP: there is no dev mailbox to read them from.
    const inbox = await startSmtpInbox();
    const prod = await startAppServer({ env: { DEPLOYMENT_ENV: "production", COOKIE_SECURE: "", SMTP_URL: inbox.url } });
    try {
      const session = new HttpSession();
      const page = await session.request(`${prod.url}/login`);
      const csrfCookie = setCookieValue(page, "__csrf")!;
      expect(csrfCookie.attributes).toMatch(/Secure/i);
      const username = `prod${Date.now().toString(36)}`;
      await signUpOverHttp(session, prod.url, { username, email: `${username}@example.com`, password: PASSWORD }, (email) => inbox.codeFor(email));
      const fresh = new HttpSession();
      const csrf = await pageCsrf(fresh, `${prod.url}/login`);
      const login = await fresh.request(`${prod.url}/login`, form({ csrf, intent: "login", username, password: PASSWORD }));
      expect(login.status).toBe(302);
      const cookie = setCookieValue(login, "__session")!;
      expect(cookie.attributes).toMatch(/Secure/i);
      expect(cookie.attributes).toMatch(/HttpOnly/i);
      expect(cookie.attributes).toMatch(/SameSite=Lax/i);
    } finally {
      await prod.stop();
      await inbox.close();
    }
  });
});
