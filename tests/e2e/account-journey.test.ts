import { execFile } from "node:child_process";
import { promisify } from "node:util";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { completeOnboarding, PASSWORD, signUpAndConfirm, unique } from "./support/account";
import { ROOT, startAppServer, type AppServer } from "./support/app-server";
import { gotoHydrated, launchBrowser, screenshot, seriousA11yViolations, VIEWPORTS } from "./support/browser";

/**
 * Onboarding, My Account (edit, picture crop), account deletion with its
 * banner, retrieval, and a real purge after a short grace period (spec 000 §2,
 * 001 §2/§4/§5), in Chromium against the built app.
 */
let server: AppServer;
let browser: Browser;

async function expectAccessible(page: Page, where: string) {
  const violations = await seriousA11yViolations(page);
  expect(violations, `serious/critical axe violations on ${where}`).toEqual([]);
}
const toast = (page: Page, text: string) => page.getByTestId("toast").filter({ hasText: text }).first();

async function newPage(viewport: { width: number; height: number } = VIEWPORTS.desktop): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport });
  return { context, page: await context.newPage() };
}

/** The page's CSRF token, as every form carries it (from the root loader's data). */
const csrfToken = (page: Page) =>
  page.evaluate(() => (window as unknown as { __remixContext: { state: { loaderData: { root: { csrfToken: string } } } } }).__remixContext.state.loaderData.root.csrfToken);

/** A real JPEG made by the browser's own canvas (a gradient, so cropping shows something). */
async function makeJpeg(page: Page): Promise<Buffer> {
  const base64 = await page.evaluate(async () => {
    const canvas = document.createElement("canvas");
    canvas.width = 640;
    canvas.height = 480;
    const ctx = canvas.getContext("2d")!;
    const gradient = ctx.createLinearGradient(0, 0, 640, 480);
    gradient.addColorStop(0, "#4f46e5");
    gradient.addColorStop(1, "#f59e0b");
    ctx.fillStyle = gradient;
    ctx.fillRect(0, 0, 640, 480);
    ctx.fillStyle = "#fff";
    ctx.beginPath();
    ctx.arc(320, 200, 90, 0, Math.PI * 2);
    ctx.fill();
    const blob = await new Promise<Blob>((resolve) => canvas.toBlob((b) => resolve(b!), "image/jpeg", 0.9));
    const bytes = new Uint8Array(await blob.arrayBuffer());
    let binary = "";
    for (const byte of bytes) binary += String.fromCharCode(byte);
    return btoa(binary);
  });
  return Buffer.from(base64, "base64");
}

beforeAll(async () => {
  server = await startAppServer();
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe("onboarding", () => {
  it("sends a new user to /onboarding with the toast, validates, and reaches the dashboard", async () => {
    const { context, page } = await newPage();
    await signUpAndConfirm(browser, page, server.url);
    await toast(page, "Please complete onboarding").waitFor();
    expect(await page.getByLabel("Email").inputValue()).toMatch(/@example\.com$/);
    expect(await page.getByLabel("Email").getAttribute("readonly")).not.toBeNull();

    // Every protected page sends the user back here until the form is done.
    await page.goto(`${server.url}/profile/my-account`);
    await page.waitForURL(`${server.url}/onboarding`);
    await toast(page, "Please complete onboarding").waitFor();

    await page.getByRole("button", { name: "Submit Form" }).click();
    await page.getByText("Occupation type is required").waitFor();
    expect(new URL(page.url()).pathname).toBe("/onboarding");
    await expectAccessible(page, "/onboarding with errors");
    await screenshot(page, "onboarding-1440");

    await completeOnboarding(page, server.url, { firstName: "Ada", lastName: "Lovelace", language: "French" });
    await page.getByRole("heading", { name: "Hi, Ada Lovelace" }).waitFor();
    expect(await page.getByTestId("profile-card").textContent()).toContain("Ada Lovelace");
    // Done: /onboarding now goes home.
    await page.goto(`${server.url}/onboarding`);
    await page.waitForURL(`${server.url}/`);
    await context.close();
  });

  it("fits a phone (390 px)", async () => {
    const { context, page } = await newPage(VIEWPORTS.mobile);
    await signUpAndConfirm(browser, page, server.url);
    await page.getByRole("heading", { name: "Lets Get You Onboarded!" }).waitFor();
    await expectAccessible(page, "/onboarding on a phone");
    await screenshot(page, "onboarding-390");
    await context.close();
  });
});

describe("my account", () => {
  it("edits personal details (cancel reverts, save persists) and changes the picture with a crop", async () => {
    const { context, page } = await newPage();
    const { username } = await signUpAndConfirm(browser, page, server.url);
    await completeOnboarding(page, server.url, { firstName: "Grace", lastName: "Hopper" });

    await page.goto(`${server.url}/profile/my-account`);
    const details = page.getByTestId("personal-details");
    await details.getByText("Hopper").waitFor();
    // Every profile tab is a link (My Plan, My Usage and My Referral: issue 16).
    const tabs = page.getByRole("navigation", { name: "Profile sections" });
    expect(await tabs.getByRole("link", { name: "Chat Settings" }).getAttribute("href")).toBe("/profile/chat-settings");
    expect(await tabs.getByRole("link", { name: "My Plan" }).getAttribute("href")).toBe("/profile/my-plan");
    expect(await tabs.getByRole("link", { name: "My Referral" }).getAttribute("href")).toBe("/profile/my-referral");
    await expectAccessible(page, "/profile/my-account");

    await page.getByTestId("edit-profile").click();
    await page.getByLabel("Last name").fill("Murray");
    await page.getByRole("button", { name: "Cancel" }).click();
    await details.getByText("Hopper").waitFor();

    await page.getByTestId("edit-profile").click();
    await page.getByLabel("Last name").fill("Murray");
    await page.getByLabel("Occupation").selectOption("Lawyer");
    await page.getByLabel("Language").fill("");
    await page.getByText("Please select a language").waitFor();
    await page.getByLabel("Language").fill("German");
    await page.getByTestId("save-profile").click();
    await toast(page, "Profile updated successfully").waitFor();
    await details.getByText("Murray").waitFor();
    await details.getByText("Lawyer").waitFor();

    // Picture: a PNG is refused in the browser, a JPEG is cropped and uploaded as a 250×250 PNG.
    const input = page.getByTestId("picture-input");
    await input.setInputFiles({ name: "me.png", mimeType: "image/png", buffer: Buffer.from("not really") });
    await page.getByText("Only JPG and JPEG images are allowed.").waitFor();
    await input.setInputFiles({ name: "me.jpg", mimeType: "image/jpeg", buffer: await makeJpeg(page) });
    const dialog = page.getByRole("dialog", { name: "Crop your picture" });
    await dialog.waitFor();
    await dialog.locator(".reactEasyCrop_Container img").waitFor();
    await expectAccessible(page, "the crop dialog");
    await dialog.getByTestId("save-picture").click();
    await toast(page, "Profile picture updated").waitFor();
    const avatar = page.getByTestId("profile-card").getByTestId("avatar-image");
    await avatar.waitFor();
    expect(await avatar.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(250);
    const src = (await avatar.getAttribute("src"))!;
    const response = await page.request.get(`${server.url}${src}`);
    expect(response.status()).toBe(200);
    expect(response.headers()["content-type"]).toBe("image/png");
    expect(response.headers()["x-content-type-options"]).toBe("nosniff");

    // Someone else's picture is a 404.
    const stranger = await newPage();
    expect((await stranger.page.request.get(`${server.url}${src}`)).status()).toBe(404);
    await stranger.context.close();

    // The server checks the bytes: a JPEG posted straight to the upload route is refused.
    const csrf = await csrfToken(page);
    const forged = await page.request.post(`${server.url}/profile/picture`, {
      multipart: { csrf, picture: { name: "profile-picture.png", mimeType: "image/png", buffer: await makeJpeg(page) } },
    });
    expect(forged.status()).toBe(400);
    expect((await forged.json()).error).toBe("The profile picture must be a PNG image.");

    await screenshot(page, "my-account-1440");
    await page.setViewportSize(VIEWPORTS.mobile);
    await page.reload();
    await details.waitFor();
    await screenshot(page, "my-account-390");
    expect(username).toBeTruthy();
    await context.close();
  });
});

describe("account deletion", () => {
  it("schedules deletion, shows the banner everywhere, refuses changes, and retrieves", async () => {
    const { context, page } = await newPage();
    await signUpAndConfirm(browser, page, server.url);
    await completeOnboarding(page, server.url, { firstName: "Alan", lastName: "Turing" });

    await page.goto(`${server.url}/profile/my-account`);
    await page.getByTestId("delete-account-link").click();
    await page.waitForURL(`${server.url}/delete-account`);
    const confirm = page.getByTestId("confirm-delete");
    expect(await confirm.isDisabled()).toBe(true);
    await page.getByLabel("Lack of Use").check();
    await page.getByLabel(/Type Delete My Account to confirm/).fill("delete my account");
    expect(await confirm.isDisabled()).toBe(true);
    await page.getByLabel(/Type Delete My Account to confirm/).fill("Delete My Account");
    expect(await confirm.isEnabled()).toBe(true);
    await expectAccessible(page, "/delete-account");
    await confirm.click();

    await page.waitForURL(`${server.url}/profile/my-account`);
    const banner = page.getByTestId("deletion-banner");
    await banner.waitFor();
    expect(await banner.textContent()).toMatch(/Account Deletion is in Progress\. You have (9|10) minutes? .* to retrieve the account\. Retrieve Now\?/);
    await page.goto(`${server.url}/`);
    await banner.waitFor();
    await expectAccessible(page, "the dashboard with the deletion banner");
    await screenshot(page, "deletion-banner-1440");

    // Read-only: the profile form is refused on the server, whatever the browser sends.
    const csrf = await csrfToken(page);
    const refused = await page.request.post(`${server.url}/profile/my-account`, {
      form: { csrf, firstName: "X", lastName: "Y", occupation: "Other", language: "English" },
      maxRedirects: 0,
    });
    expect(refused.status()).toBe(302);
    await page.goto(`${server.url}/profile/my-account`);
    await toast(page, "Your account is scheduled for deletion. Retrieve it to make changes.").waitFor();
    expect(await page.getByTestId("personal-details").textContent()).toContain("Turing");

    await page.setViewportSize(VIEWPORTS.mobile);
    await page.reload();
    await banner.waitFor();
    await screenshot(page, "deletion-banner-390");
    await page.setViewportSize(VIEWPORTS.desktop);

    await banner.getByRole("button", { name: "Retrieve Now?" }).click();
    await toast(page, "Your account has been retrieved.").waitFor();
    expect(await page.getByTestId("deletion-banner").count()).toBe(0);
    await context.close();
  });
});

describe("account purge after a short grace period", () => {
  let quick: AppServer;
  const admin = `auditor${unique()}`;
  beforeAll(async () => {
    quick = await startAppServer({ env: { ACCOUNT_DELETION_GRACE_MS: "3000", ADMIN_USERNAMES: admin } });
  });
  afterAll(async () => quick?.stop());

  it("purges when the timer fires: the session ends, login is refused, and the audit shows what happened", async () => {
    const { context, page } = await newPage();
    const { username } = await signUpAndConfirm(browser, page, quick.url);
    await completeOnboarding(page, quick.url, { firstName: "Hedy", lastName: "Lamarr" });
    await gotoHydrated(page, `${quick.url}/delete-account`);
    await page.getByLabel("Privacy Concerns").check();
    await page.getByLabel(/Type Delete My Account to confirm/).fill("Delete My Account");
    await page.getByTestId("confirm-delete").click();
    await page.getByTestId("deletion-banner").waitFor();

    // The workflow's timer fires after 3 s; the purge revokes the session.
    const deadline = Date.now() + 20_000;
    for (;;) {
      await page.goto(`${quick.url}/profile/my-account`);
      if (new URL(page.url()).pathname === "/login") break;
      if (Date.now() > deadline) throw new Error(`no purge within 20 s:\n${quick.output()}`);
      await page.waitForTimeout(500);
    }
    await page.getByLabel("Username").fill(username);
    await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await page.getByRole("button", { name: "Login" }).click();
    await page.getByText("Incorrect username or password.").waitFor();
    await context.close();

    // An admin replays the account from the event store.
    const adminPage = await newPage();
    await signUpAndConfirm(browser, adminPage.page, quick.url, admin);
    await completeOnboarding(adminPage.page, quick.url, { firstName: "Audit", lastName: "Admin" });
    await adminPage.page.goto(`${quick.url}/admin/audit/account?username=${username}`);
    const table = adminPage.page.getByTestId("audit-table");
    await table.waitFor();
    const text = (await table.textContent()) ?? "";
    for (const type of ["UserRegistered", "ProfileCompleted", "AccountDeletionScheduled", "AccountPurgeStarted", "AccountPurged"]) {
      expect(text).toContain(type);
    }
    expect(text).toContain("(personal data erased)");
    expect(text).not.toContain("Lamarr");
    await expectAccessible(adminPage.page, "/admin/audit/account");
    await screenshot(adminPage.page, "account-audit-1440");
    await adminPage.context.close();

    // A member gets 404 there.
    const member = await newPage();
    await signUpAndConfirm(browser, member.page, quick.url);
    await completeOnboarding(member.page, quick.url, { firstName: "Just", lastName: "Member" });
    const response = await member.page.goto(`${quick.url}/admin/audit/account?username=${username}`);
    expect(response?.status()).toBe(404);
    await member.context.close();

    // The CLI prints the same history from the same stores.
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [`${ROOT}/node_modules/tsx/dist/cli.mjs`, "scripts/audit.ts", "account", username],
      { cwd: ROOT, env: { ...process.env, DATA_DIR: quick.dataDir, APP_SECRET: "e2e-secret-e2e-secret-e2e-secret-0123", LOG_LEVEL: "silent" } },
    );
    expect(stdout).toContain("AccountPurged");
    expect(stdout.indexOf("AccountDeletionScheduled")).toBeLessThan(stdout.indexOf("AccountPurged"));
  });
});
