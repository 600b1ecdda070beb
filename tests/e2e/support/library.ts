import http from "node:http";
import { PDFDocument, StandardFonts } from "pdf-lib";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { completeOnboarding, signUpAndConfirm } from "./account";

/** Helpers for the library journey: accounts, test files and a tiny local website. */

export { PASSWORD } from "./account";

/** Signs a new user up through the UI and the dev mailbox and completes onboarding; returns the signed-in context's storage state. */
export async function signUpNewUser(browser: Browser, baseUrl: string): Promise<{ username: string; storageState: Awaited<ReturnType<BrowserContext["storageState"]>> }> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  try {
    const { username } = await signUpAndConfirm(browser, page, baseUrl);
    await completeOnboarding(page, baseUrl, { firstName: "Lena", lastName: "Reader" });
    return { username, storageState: await context.storageState() };
  } finally {
    await context.close();
  }
}

export async function waitUntil(check: () => Promise<boolean>, what: string, timeoutMs = 20_000, everyMs = 250): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for: ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** A small valid PDF with a line of text on each page. */
export async function makePdf(pages: string[]): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (const text of pages) {
    const page = pdf.addPage([595, 842]);
    page.drawText(text, { x: 60, y: 760, size: 14, font });
    page.drawText("DocuChat end-to-end test document.", { x: 60, y: 730, size: 11, font });
  }
  return Buffer.from(await pdf.save());
}

/** The status badge of the My Documents row whose name is `name`. */
export async function rowStatus(page: Page, name: string): Promise<string | null> {
  const badge = page.locator(`[data-testid="document-row"][data-name="${name}"] [data-testid="status-badge"]`);
  return (await badge.count()) === 0 ? null : badge.first().getAttribute("data-status");
}

/** Reloads My Documents until every named row shows `status` (ingestion runs in the server's durable runner). */
export async function waitForStatuses(page: Page, names: string[], status: string, timeoutMs = 60_000): Promise<void> {
  await waitUntil(
    async () => {
      const statuses = await Promise.all(names.map((n) => rowStatus(page, n)));
      if (statuses.every((s) => s === status)) return true;
      if (statuses.some((s) => s === "FAILED") && status !== "FAILED") {
        const reasons = await page.locator('[data-testid="document-row"]').allInnerTexts();
        throw new Error(`A document failed: ${reasons.join(" | ")}`);
      }
      await page.getByRole("button", { name: "Refresh" }).click();
      await page.waitForTimeout(300);
      return false;
    },
    `${names.join(", ")} → ${status}`,
    timeoutMs,
    1000,
  );
}

/**
 * The local website's name: the website form wants a dotted name, so not `localhost`. The app
 * resolves it through its test host table (SITE_ENV) and may reach it only because the
 * allow-list names it; no /etc/hosts entry is needed.
 */
export const SITE_HOST = "site.docuchat.test";
export const SITE_ENV = { EGRESS_TEST_HOSTS: `${SITE_HOST}=127.0.0.1`, EGRESS_ALLOW_PRIVATE_HOSTS: SITE_HOST };

export type LocalSite = { url: string; requested: string[]; close: () => Promise<void> };

/** A tiny three-page website: / links to /guide and /faq; /guide links to /deep (depth 3, not reached at depth 2). */
export function startLocalSite(): Promise<LocalSite> {
  const pages: Record<string, string> = {
    "/": page("Reading Room Home", "Welcome to the reading room. Start with the guide or the FAQ.", ["/guide", "/faq"]),
    "/guide": page("Study Guide", "The study guide explains photosynthesis and the water cycle in detail.", ["/deep"]),
    "/faq": page("Questions", "Frequently asked questions about borrowing books and opening hours.", []),
    "/deep": page("Deep Page", "This page is three levels down and must not be crawled at depth 2.", []),
  };
  const requested: string[] = [];
  const server = http.createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0];
    requested.push(path);
    const body = pages[path];
    if (!body) {
      res.writeHead(404, { "Content-Type": "text/plain" }).end("not found");
      return;
    }
    res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" }).end(body);
  });
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      resolve({
        url: `http://${SITE_HOST}:${port}/`,
        requested,
        close: () => new Promise<void>((done) => server.close(() => done())),
      });
    });
  });
}

function page(title: string, text: string, links: string[]) {
  const anchors = links.map((href) => `<li><a href="${href}">${href.slice(1)}</a></li>`).join("");
  return `<!doctype html><html lang="en"><head><title>${title}</title></head><body><main><h1>${title}</h1><p>${text}</p><ul>${anchors}</ul></main></body></html>`;
}
