import type { Browser, Page } from "playwright-core";
import { gotoHydrated } from "./browser";
import { readCodeFromMailbox } from "./mailbox";

export const PASSWORD = "Reader#2024";
export const unique = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`.replace(/[^a-z0-9]/gi, "");

/** Fills the sign-up form and submits it; returns the account's username and email. */
export async function submitSignup(page: Page, baseUrl: string, username = `reader${unique()}`) {
  const email = `${username}@example.com`;
  await gotoHydrated(page, `${baseUrl}/signup`);
  await page.getByLabel("Username").fill(username);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByLabel("Password", { exact: true }).blur();
  const signup = page.getByRole("button", { name: "Signup" });
  for (let i = 0; i < 50 && !(await signup.isEnabled()); i++) await page.waitForTimeout(100);
  await signup.click();
  await page.getByRole("dialog", { name: "Complete Signup" }).waitFor();
  return { username, email };
}

export async function enterCode(page: Page, code: string) {
  await page.getByLabel("Digit 1 of 6").click();
  await page.keyboard.type(code);
}

/** Signs up and confirms the code; the new user lands on /onboarding. */
export async function signUpAndConfirm(browser: Browser, page: Page, baseUrl: string, username?: string) {
  const account = await submitSignup(page, baseUrl, username);
  const code = await readCodeFromMailbox(browser, baseUrl, account.email);
  await enterCode(page, code);
  await page.getByRole("dialog", { name: "Complete Signup" }).getByRole("button", { name: "Confirm" }).click();
  await page.waitForURL(/\/onboarding$/);
  return account;
}

/** Fills 'Lets Get You Onboarded!' and submits; the user lands on the dashboard. */
export async function completeOnboarding(
  page: Page,
  baseUrl: string,
  profile: { firstName: string; lastName: string; occupation?: string; language?: string },
) {
  await page.getByRole("heading", { name: "Lets Get You Onboarded!" }).waitFor();
  await page.getByLabel("First name").fill(profile.firstName);
  await page.getByLabel("Last name").fill(profile.lastName);
  await page.getByLabel("Occupation").selectOption(profile.occupation ?? "Engineer");
  await page.getByLabel("Preferred language").fill(profile.language ?? "English");
  await page.getByRole("button", { name: "Submit Form" }).click();
  await page.waitForURL(`${baseUrl}/`);
}
