import { describe, expect, it } from "vitest";
import { startAppServer } from "./support/app-server";
import { gotoHydrated, launchBrowser, screenshot, seriousA11yViolations, VIEWPORTS, waitForHydration } from "./support/browser";
import { signUpNewUser, uploadTextDocument, waitForActive, waitUntil } from "./support/workspace";

/**
 * The built-in embedding model as a person meets it, with no keys (issue #13
 * item 4, docs/decisions/070), in Debian's Chromium against the built app:
 * Chat Settings shows it as the embedding default, a new workspace gets it,
 * and Workspace Settings shows its documents being indexed, then indexed.
 */
describe("semantic search with no keys", () => {
  it("is the embedding default, and a new workspace's documents are indexed with it in the background", async () => {
    const server = await startAppServer();
    const browser = await launchBrowser();
    try {
      await journey(server.url, browser);
    } finally {
      await browser.close();
      await server.stop();
    }
  }, 300_000);
});

async function journey(baseUrl: string, browser: Awaited<ReturnType<typeof launchBrowser>>) {
  const { storageState } = await signUpNewUser(browser, baseUrl);
  const context = await browser.newContext({ viewport: VIEWPORTS.desktop, storageState });
  const page = await context.newPage();

  await gotoHydrated(page, `${baseUrl}/profile/chat-settings`);
  await page.getByTestId("tab-embedding").click();
  const select = page.getByTestId("default-select-embedding");
  await expect(select.inputValue()).resolves.toBe("docuchat::docuchat-sentence-encoder");
  await expect(select.locator("option:checked").textContent()).resolves.toBe("DocuChat built-in: semantic search (offline)");
  // Keyword search only stays a choice.
  await expect(select.locator("option").allTextContents()).resolves.toContain("Keyword search only (built-in): no embedding model");
  await screenshot(page, "embedding-chat-settings-1440");

  await page.goto(`${baseUrl}/`);
  const text = Array.from({ length: 12 }, (_, i) => `Section ${i + 1}. Staff may carry over at most five unused vacation days into the next year.`).join(
    "\n\n"
  );
  const documentId = await uploadTextDocument(page, "handbook.txt", text);
  await waitForActive(page, [documentId]);

  await gotoHydrated(page, `${baseUrl}/workspace/create?documentIds=${documentId}&quick=1`);
  await page.getByRole("button", { name: "Save and Launch" }).click();
  await page.waitForURL(/\/workspace\/[^/]+$/, { timeout: 60_000 });
  await page.getByTestId("workspace-screen").waitFor();
  await waitForHydration(page);

  await page.getByTestId("open-settings").click();
  const dialog = page.getByRole("dialog", { name: "Workspace Settings" });
  await dialog.getByRole("tab", { name: "Chat Preferences" }).click();
  await expect(dialog.getByTestId("pref-embedding").textContent()).resolves.toBe("DocuChat built-in: semantic search (offline)");
  const index = dialog.getByTestId("embedding-index");
  await index.waitFor();
  // The dialog polls while it is open: the run ends "ready" without a reload.
  await waitUntil(async () => (await index.getAttribute("data-status")) === "ready", "the document indexed with the built-in model", 120_000);
  await expect(index.textContent()).resolves.toContain("Documents indexed with the built-in model: 1 of 1.");
  await screenshot(page, "embedding-workspace-settings-1440");
  expect(await seriousA11yViolations(page), "serious/critical axe violations in Workspace Settings").toEqual([]);
  await context.close();
}
