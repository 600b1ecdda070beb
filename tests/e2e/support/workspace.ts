import type { Browser, BrowserContext, Page } from "playwright-core";
import { readCodeFromMailbox } from "./mailbox";

/** Helpers for the workspace journey: an account, documents uploaded through the API, waiting. */

export const PASSWORD = "Reader#2024";
const unique = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`.replace(/[^a-z0-9]/gi, "");

export async function waitUntil(check: () => Promise<boolean>, what: string, timeoutMs = 20_000, everyMs = 250): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for: ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/**
 * Signs a new user up through the UI and the dev mailbox. Tolerates the
 * onboarding gate: if sign-up lands on /onboarding, fills it in and submits.
 */
export async function signUpNewUser(browser: Browser, baseUrl: string): Promise<{ username: string; storageState: Awaited<ReturnType<BrowserContext["storageState"]>> }> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  try {
    const username = `reader${unique()}`;
    const email = `${username}@example.com`;
    await page.goto(`${baseUrl}/signup`);
    await page.getByLabel("Username").fill(username);
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await page.getByLabel("Password", { exact: true }).blur();
    const signup = page.getByRole("button", { name: "Signup" });
    await waitUntil(() => signup.isEnabled(), "Signup enabled");
    await signup.click();
    const dialog = page.getByRole("dialog", { name: "Complete Signup" });
    await dialog.waitFor();
    const code = await readCodeFromMailbox(browser, baseUrl, email);
    await page.getByLabel("Digit 1 of 6").click();
    await page.keyboard.type(code);
    await dialog.getByRole("button", { name: "Confirm" }).click();
    await page.waitForURL((url) => url.pathname === "/" || url.pathname.startsWith("/onboarding"));
    if (new URL(page.url()).pathname.startsWith("/onboarding")) await completeOnboarding(page);
    return { username, storageState: await context.storageState() };
  } finally {
    await context.close();
  }
}

/** Best effort over the onboarding form (built by another engineer): names, occupation, submit. */
async function completeOnboarding(page: Page) {
  const fillIf = async (label: RegExp, value: string) => {
    const field = page.getByLabel(label).first();
    if ((await field.count()) > 0 && (await field.isEditable().catch(() => false))) await field.fill(value);
  };
  await fillIf(/first name/i, "Rosalind");
  await fillIf(/last name/i, "Franklin");
  const occupation = page.getByLabel(/occupation/i).first();
  if ((await occupation.count()) > 0) {
    const tag = await occupation.evaluate((el) => el.tagName.toLowerCase());
    if (tag === "select") await occupation.selectOption({ label: "Student" });
    else {
      await occupation.click();
      await page.getByRole("option", { name: "Student" }).click();
    }
  }
  await page.getByRole("button", { name: /submit|continue|save|get started/i }).first().click();
  await page.waitForURL((url) => !url.pathname.startsWith("/onboarding"), { timeout: 20_000 });
}

/** The root loader's CSRF token, as the page holds it. */
export async function csrfToken(page: Page): Promise<string> {
  return page.evaluate(() => {
    const ctx = (window as unknown as { __remixContext?: { state?: { loaderData?: Record<string, { csrfToken?: string } | undefined> } } }).__remixContext;
    return ctx?.state?.loaderData?.root?.csrfToken ?? "";
  });
}

/**
 * Uploads a text document the way the upload page does: POST /api/documents
 * (X-CSRF-Token), then PUT the bytes to the returned upload URL. Returns its id.
 */
export async function uploadTextDocument(page: Page, name: string, text: string): Promise<string> {
  const token = await csrfToken(page);
  return page.evaluate(
    async ({ name, text, token }) => {
      const bytes = new TextEncoder().encode(text);
      const registered = await fetch("/api/documents", {
        method: "POST",
        headers: { "Content-Type": "application/json", "X-CSRF-Token": token, Accept: "application/json" },
        body: JSON.stringify({
          document_name: name,
          document_type: "text/plain",
          document_size: bytes.byteLength,
          page_count: 1,
          media_type: "document",
          document_source: "file",
          embedding_data: null,
          ocr: "false",
          rag_type: "",
        }),
      });
      if (!registered.ok) throw new Error(`register ${name}: ${registered.status} ${await registered.text()}`);
      const body = (await registered.json()) as { url: string; document_id: string; user_id: string };
      const put = await fetch(body.url, {
        method: "PUT",
        headers: { "Content-Type": "text/plain", "x-amz-meta-document_id": body.document_id, "x-amz-meta-user_id": body.user_id },
        body: bytes,
      });
      if (!put.ok) throw new Error(`upload ${name}: ${put.status} ${await put.text()}`);
      return body.document_id;
    },
    { name, text, token },
  );
}

/** Polls GET /api/documents until every id is ACTIVE. */
export async function waitForActive(page: Page, ids: string[], timeoutMs = 60_000): Promise<void> {
  await waitUntil(
    async () => {
      const statuses = await page.evaluate(async () => {
        const response = await fetch("/api/documents?limit=100", { headers: { Accept: "application/json" } });
        const body = (await response.json()) as { documents: { document_id: string; status: string; failure_reason: string | null }[] };
        return body.documents.map((d) => ({ id: d.document_id, status: d.status, reason: d.failure_reason }));
      });
      const mine = statuses.filter((s) => ids.includes(s.id));
      const failed = mine.find((s) => s.status === "FAILED");
      if (failed) throw new Error(`Document failed: ${failed.reason}`);
      return mine.length === ids.length && mine.every((s) => s.status === "ACTIVE");
    },
    `documents ${ids.join(", ")} Active`,
    timeoutMs,
    500,
  );
}

export const toast = (page: Page, text: string | RegExp) => page.getByTestId("toast").filter({ hasText: text }).first();

/** Navigates and waits until the workspace page has hydrated (its handlers are attached). */
export async function gotoHydrated(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await page.locator('[data-ws-hydrated="true"]').first().waitFor({ timeout: 30_000 });
}
