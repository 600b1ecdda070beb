import { mkdir } from "node:fs/promises";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { chromium, type Browser, type Page } from "playwright-core";
import { TOUR_KEYS } from "#app/components/tour/tour-state";
import { ROOT } from "./app-server";

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
export const SCREENSHOT_DIR = path.join(ROOT, "tests", ".artifacts", "screenshots");

export const VIEWPORTS = {
  desktop: { width: 1440, height: 900 },
  mobile: { width: 390, height: 844 },
} as const;

/**
 * Debian's Chromium. The guided tours start by themselves for new users and
 * would cover what other journeys click, so their contexts start with the
 * tours already shown this session, unless `tours` asks for them.
 */
export async function launchBrowser(options: { tours?: boolean; args?: string[] } = {}): Promise<Browser> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    // `args`: extra flags (the speech journey's fake microphone).
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", ...(options.args ?? [])],
  });
  if (options.tours) return browser;
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (contextOptions) => {
    const context = await newContext(contextOptions);
    await context.addInitScript(
      (keys) => {
        try {
          for (const key of keys) window.sessionStorage.setItem(key, "1");
        } catch {
          // storage blocked: the tours would not start either
        }
      },
      [TOUR_KEYS.appShownThisSession, TOUR_KEYS.workspaceShownThisSession],
    );
    return context;
  };
  return browser;
}

export async function screenshot(page: Page, name: string): Promise<string> {
  await mkdir(SCREENSHOT_DIR, { recursive: true });
  const file = path.join(SCREENSHOT_DIR, `${name}.png`);
  // Let entry animations (dialogs, toasts) settle.
  await page.waitForTimeout(350);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

export type A11yViolation = { id: string; impact: string | null | undefined; help: string; targets: string[] };

/** Serious and critical axe violations on the page as it is now (WCAG 2 A/AA rules), or within `selector` only. */
export async function seriousA11yViolations(page: Page, selector?: string): Promise<A11yViolation[]> {
  // Colour contrast measured mid-fade (a dialog or toast entering) reads lighter than what settles on screen.
  await settleAnimations(page);
  const builder = selector ? new AxeBuilder({ page }).include(selector) : new AxeBuilder({ page });
  const results = await builder.withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  return results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.map((n) => n.target.join(" ")) }));
}

/**
 * Navigates and waits until the page has hydrated (the root marks <html data-hydrated>
 * after every route's effects): a script-only button clicked before then does nothing.
 */
export async function gotoHydrated(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await waitForHydration(page);
}

/** Waits until the current document has hydrated (immediate after a client-side navigation). */
export async function waitForHydration(page: Page): Promise<void> {
  await page.locator('html[data-hydrated="true"]').waitFor({ state: "attached", timeout: 30_000 });
}

/** Waits until the page's finite CSS animations and transitions have finished (infinite ones, like spinners, are skipped). */
export async function settleAnimations(page: Page, timeoutMs = 2_000): Promise<void> {
  await page
    .evaluate(async (timeout) => {
      const finite = document.getAnimations().filter((a) => a.effect?.getComputedTiming().endTime !== Infinity);
      await Promise.race([Promise.allSettled(finite.map((a) => a.finished)), new Promise((resolve) => setTimeout(resolve, timeout))]);
    }, timeoutMs)
    .catch(() => undefined);
}
