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
  if (await markFramesWithoutScripts(page)) builder.exclude(`[${NO_SCRIPTS}]`);
  const results = await builder.withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  return results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.map((n) => n.target.join(" ")) }));
}

const NO_SCRIPTS = "data-a11y-no-scripts";

/**
 * Marks the page's frames in which scripts cannot run and says whether there
 * were any (decision 265). A user's text or image opens in a frame our download
 * route sandboxes (`Content-Security-Policy: sandbox`): there no timer fires, so
 * axe-core's rule queue never starts and `analyze()` never returns. What such a
 * frame shows is the user's file as the browser renders it, not our markup; the
 * frame element itself (its title) is still checked. Top-level frames only: no
 * page of ours nests them.
 */
async function markFramesWithoutScripts(page: Page): Promise<boolean> {
  let marked = false;
  for (const frame of page.mainFrame().childFrames()) {
    const timerFires = frame.evaluate(() => new Promise<boolean>((resolve) => setTimeout(() => resolve(true), 0))).catch(() => false);
    if (await Promise.race([timerFires, new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 500))])) continue;
    const element = await frame.frameElement();
    await element.evaluate((el, name) => (el as Element).setAttribute(name, ""), NO_SCRIPTS);
    marked = true;
  }
  return marked;
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

/**
 * What a phone user trips over on the page as it is now (issue 34): the page
 * scrolls sideways, a word is broken across lines (a box squeezed so narrow
 * that its text breaks letter by letter), or a control on screen is covered by
 * something else (a toast, a floating bar). Within `selector` when given.
 */
export async function phoneLayoutProblems(page: Page, selector?: string): Promise<string[]> {
  await settleAnimations(page);
  return page.evaluate((scopeSelector) => {
    const problems: string[] = [];
    const describe = (el: Element) =>
      `<${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ""}${el.getAttribute("data-testid") ? ` data-testid=${el.getAttribute("data-testid")}` : ""}${typeof el.className === "string" && el.className ? ` class="${el.className.slice(0, 60)}"` : ""}> "${(el.textContent ?? "").trim().slice(0, 40)}"`;
    const root = document.scrollingElement ?? document.documentElement;
    if (root.scrollWidth > root.clientWidth + 1) problems.push(`the page scrolls sideways: ${root.scrollWidth} px wide in ${root.clientWidth} px`);
    const scope = (scopeSelector ? document.querySelector(scopeSelector) : null) ?? document.body;
    const shown = (el: Element) => {
      const style = getComputedStyle(el);
      return style.visibility !== "hidden" && Number(style.opacity) > 0.05 && el.getClientRects().length > 0;
    };

    // Words of letters only (ids and addresses may break by design), outside code and editors.
    const range = document.createRange();
    const walker = document.createTreeWalker(scope, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      if (!parent || parent.closest("pre, code, textarea, .cm-editor, [aria-hidden='true'], .dc-visually-hidden") || !shown(parent)) continue;
      for (const match of (node.textContent ?? "").matchAll(/(?<![\p{L}\p{N}@._/-])\p{L}{2,}(?![\p{L}\p{N}@._/-])/gu)) {
        range.setStart(node, match.index);
        range.setEnd(node, match.index + match[0].length);
        const lines = new Set(Array.from(range.getClientRects()).filter((r) => r.width > 0).map((r) => Math.round(r.top)));
        if (lines.size > 1) problems.push(`"${match[0]}" is broken across ${lines.size} lines in ${describe(parent)}`);
      }
    }

    // A control whose centre, on screen, shows something that is neither it nor inside it nor around it.
    for (const control of scope.querySelectorAll("button, a[href], input:not([type='hidden']), select, textarea, [role='button'], [role='tab']")) {
      if (!shown(control) || control.closest(".dc-visually-hidden, .dc-skip-link")) continue;
      const box = control.getBoundingClientRect();
      if (box.width < 2 || box.height < 2) continue;
      const x = box.left + box.width / 2;
      const y = box.top + box.height / 2;
      if (x < 0 || y < 0 || x >= window.innerWidth || y >= window.innerHeight) continue;
      const hit = document.elementFromPoint(x, y);
      if (!hit || hit === control || control.contains(hit) || hit.contains(control)) continue;
      // Toasts pass in seconds and can be dismissed; a journey checks what one may never cover (coveredBy) itself.
      if (hit.closest(".dc-toast-viewport")) continue;
      problems.push(`${describe(control)} is covered by ${describe(hit)}`);
    }
    return problems;
  }, selector ?? null);
}

/** What covers the centre of the element `selector` matches (null when it is on top there itself). */
export async function coveredBy(page: Page, selector: string): Promise<string | null> {
  return page.evaluate((sel) => {
    const el = document.querySelector(sel);
    if (!el) return `nothing matches ${sel}`;
    const box = el.getBoundingClientRect();
    const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    if (!hit || hit === el || el.contains(hit)) return null;
    return `<${hit.tagName.toLowerCase()} class="${typeof hit.className === "string" ? hit.className : ""}"> "${(hit.textContent ?? "").trim().slice(0, 60)}"`;
  }, selector);
}
