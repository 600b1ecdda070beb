import { seriousA11yViolations, waitForHydration } from "./browser";
import type { Browser, Locator, Page } from "playwright-core";
import { signUpNewUser, waitUntil } from "./library";

/** Helpers for the chat journey: API uploads, a workspace through the wizard's action, and DOM checks. */

/**
 * The root loader's CSRF token of the page. Waits until the page's own
 * requests have settled first: a token read while a response is still setting
 * the cookie can be one the server no longer expects (seen on a busy machine
 * right after sign-up); the page is then reloaded once so page and cookie agree.
 */
export async function csrfToken(page: Page): Promise<string> {
  const read = () =>
    page.evaluate(() => {
      const field = document.querySelector<HTMLInputElement>('input[name="csrf"]');
      if (field?.value) return field.value;
      const ctx = (window as unknown as { __remixContext?: { state?: { loaderData?: Record<string, { csrfToken?: string } | undefined> } } }).__remixContext;
      return ctx?.state?.loaderData?.root?.csrfToken ?? "";
    });
  await page.waitForLoadState("networkidle").catch(() => undefined);
  let token = await read();
  if (!token) {
    await page.reload();
    await page.waitForLoadState("networkidle").catch(() => undefined);
    token = await read();
  }
  if (!token) throw new Error("No CSRF token on the page");
  return token;
}

/** Finishes onboarding if the app asks for it (first name, last name, occupation, language when asked). */
export async function passOnboardingIfAsked(page: Page, baseUrl: string): Promise<void> {
  if (!new URL(page.url()).pathname.startsWith("/onboarding")) return;
  await page.getByLabel("First name").fill("Chat");
  await page.getByLabel("Last name").fill("Reader");
  await page.getByLabel("Occupation").selectOption({ index: 1 });
  const language = page.getByLabel("Language", { exact: true });
  if ((await language.count()) > 0 && (await language.evaluate((el) => el.tagName)) === "SELECT") {
    await language.selectOption({ label: "English" }).catch(() => language.selectOption({ index: 1 }));
  }
  await page.getByTestId("submit-onboarding").click();
  await page.waitForURL((u) => !u.pathname.startsWith("/onboarding"), { timeout: 20_000 });
  await page.goto(`${baseUrl}/`);
}

/** A new, onboarded user (returns the username and signed-in storage state). */
export const signUpForChat = signUpNewUser;

/** POST /api/documents then PUT the bytes to the returned URL, like the upload screen. Returns the document id. */
export async function uploadThroughApi(page: Page, file: { name: string; type: string; bytes: Buffer; pages: number }): Promise<string> {
  const token = await csrfToken(page);
  return page.evaluate(
    async ({ name, type, base64, pages, token }) => {
      const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
      const registered = await fetch("/api/documents", {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json", "X-CSRF-Token": token },
        body: JSON.stringify({ document_name: name, document_type: type, document_size: bytes.length, page_count: pages, media_type: "document", document_source: "file" }),
      });
      if (!registered.ok) throw new Error(`register ${name}: ${registered.status} ${await registered.text()}`);
      const r = (await registered.json()) as { url: string; document_id: string; user_id: string };
      const put = await fetch(r.url, {
        method: "PUT",
        headers: { "Content-Type": type, "x-amz-meta-document_id": r.document_id, "x-amz-meta-user_id": r.user_id, "X-CSRF-Token": token },
        body: bytes,
      });
      if (!put.ok) throw new Error(`upload ${name}: ${put.status} ${await put.text()}`);
      return r.document_id;
    },
    { name: file.name, type: file.type, base64: file.bytes.toString("base64"), pages: file.pages, token },
  );
}

/** Polls GET /api/documents until every id is ACTIVE. */
export async function waitForActive(page: Page, ids: string[], timeoutMs = 90_000): Promise<void> {
  await waitUntil(
    async () => {
      const statuses = await page.evaluate(async () => {
        const r = await fetch("/api/documents?limit=100");
        const body = (await r.json()) as { documents: { document_id: string; status: string; failure_reason: string | null }[] };
        return body.documents;
      });
      const mine = statuses.filter((d) => ids.includes(d.document_id));
      const failed = mine.find((d) => d.status === "FAILED");
      if (failed) throw new Error(`Document failed: ${failed.failure_reason}`);
      return mine.length === ids.length && mine.every((d) => d.status === "ACTIVE");
    },
    `documents ${ids.join(", ")} ACTIVE`,
    timeoutMs,
    1000,
  );
}

/** Creates a Conversation workspace by posting the creation wizard's form, then waits until it is ACTIVE. */
export async function createWorkspace(page: Page, name: string, documentIds: string[], timeoutMs = 90_000): Promise<string> {
  const token = await csrfToken(page);
  const finalUrl = await page.evaluate(
    async ({ name, documentIds, token }) => {
      const form = new FormData();
      form.set("csrf", token);
      form.set("name", name);
      form.set("description", "Created by the chat journey");
      form.set("type", "Conversation");
      for (const id of documentIds) form.append("documentId", id);
      const r = await fetch("/workspace/create", { method: "POST", body: form });
      return r.url;
    },
    { name, documentIds, token },
  );
  const id = /\/workspace\/([^/]+)\/launch/.exec(new URL(finalUrl).pathname)?.[1];
  if (!id) throw new Error(`The wizard did not redirect to a launch page: ${finalUrl}`);
  await waitUntil(
    async () =>
      page.evaluate(async (wid) => {
        const r = await fetch(`/api/workspaces/${wid}`);
        const body = (await r.json()) as { workspace?: { status?: string } };
        if (body.workspace?.status === "FAILED") throw new Error("workspace launch failed");
        return body.workspace?.status === "ACTIVE";
      }, id),
    `workspace ${id} ACTIVE`,
    timeoutMs,
    1000,
  );
  return id;
}

/** Serious/critical axe violations inside the chat only (the screen around it is another journey's). */
export const chatA11yViolations = (page: Page, selector = '[data-testid="chat"]') => seriousA11yViolations(page, selector);

/** Script elements, event-handler attributes and script URLs inside the chat. */
export async function dangerousMarkup(page: Page, selector = '[data-testid="chat"]'): Promise<string[]> {
  return page.evaluate((sel) => {
    const found: string[] = [];
    for (const root of Array.from(document.querySelectorAll(sel))) {
      for (const el of [root, ...Array.from(root.querySelectorAll("*"))]) {
        if (el.tagName.toLowerCase() === "script") found.push("script element");
        for (const attr of Array.from(el.attributes)) {
          if (/^on/i.test(attr.name)) found.push(`${el.tagName}[${attr.name}]`);
          if (/^(href|src|xlink:href|action|formaction)$/i.test(attr.name) && /^\s*(javascript|vbscript|data:text)/i.test(attr.value)) found.push(`${el.tagName}[${attr.name}=${attr.value}]`);
        }
      }
    }
    return found;
  }, selector);
}

/** Starts recording, in the page, every length the newest answer's text takes (a growing answer streams). */
export async function recordStreaming(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as { __lengths: number[]; __observer?: MutationObserver };
    w.__lengths = [];
    w.__observer?.disconnect();
    const log = document.querySelector('[data-testid="chat"] [data-testid="chat-log"]');
    if (!log) throw new Error("no chat log");
    w.__observer = new MutationObserver(() => {
      const answers = log.querySelectorAll('[data-testid="bot-message"] [data-testid="answer-text"]');
      const last = answers[answers.length - 1];
      const n = last?.textContent?.length ?? 0;
      if (n > 0 && w.__lengths[w.__lengths.length - 1] !== n) w.__lengths.push(n);
    });
    w.__observer.observe(log, { subtree: true, childList: true, characterData: true });
  });
}

/** Waits for the newest answer to finish; returns the text lengths recorded while it streamed. */
export async function streamedLengths(page: Page, timeoutMs = 60_000): Promise<number[]> {
  const last = page.getByTestId("chat").first().getByTestId("bot-message").last();
  await waitUntil(async () => ["complete", "interrupted"].includes((await last.getAttribute("data-status")) ?? ""), "the answer to finish", timeoutMs, 100);
  return page.evaluate(() => {
    const w = window as unknown as { __lengths: number[]; __observer?: MutationObserver };
    w.__observer?.disconnect();
    return w.__lengths;
  });
}

/** Waits until the chat on the page has hydrated and loaded its messages (sending is blocked until then). */
export async function chatReady(page: Page): Promise<void> {
  const log = page.getByTestId("chat").first().getByTestId("chat-log");
  await log.waitFor();
  // A new chat is not busy in the server's markup: text typed before hydration would be lost.
  await waitForHydration(page);
  await waitUntil(async () => (await log.getAttribute("aria-busy")) === "false", "the chat to load");
}

/** Asks `question` in the chat (Enter sends) and waits for the answer to finish; returns it and the text lengths it went through while streaming. */
export async function askAndWait(page: Page, question: string): Promise<{ answer: Locator; lengths: number[] }> {
  const chat = page.getByTestId("chat").first();
  const box = chat.getByTestId("chat-textarea");
  await box.fill(question);
  await recordStreaming(page);
  await box.press("Enter");
  await chat.getByTestId("user-message").filter({ hasText: question }).waitFor();
  const lengths = await streamedLengths(page);
  return { answer: chat.getByTestId("bot-message").last(), lengths };
}
