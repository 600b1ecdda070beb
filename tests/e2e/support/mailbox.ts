import type { Browser } from "playwright-core";

/** Reads the newest 6-digit code mailed to `email` from /dev/mailbox (waits for it to arrive). */
export async function readCodeFromMailbox(browser: Browser, baseUrl: string, email: string, after?: string): Promise<string> {
  const context = await browser.newContext();
  const page = await context.newPage();
  try {
    const deadline = Date.now() + 20_000;
    for (;;) {
      await page.goto(`${baseUrl}/dev/mailbox`);
      const row = page.locator(`[data-testid="mail-row"][data-to="${email}"]`).first();
      if ((await row.count()) > 0) {
        const code = (await row.locator('[data-testid="mail-code"]').textContent())?.trim() ?? "";
        if (/^\d{6}$/.test(code) && code !== after) return code;
      }
      if (Date.now() > deadline) throw new Error(`No verification code for ${email} in the dev mailbox`);
      await page.waitForTimeout(500);
    }
  } finally {
    await context.close();
  }
}
