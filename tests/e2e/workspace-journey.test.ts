import { writeFile } from "node:fs/promises";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAppServer, type AppServer } from "./support/app-server";
import { gotoHydrated, launchBrowser, screenshot, seriousA11yViolations, VIEWPORTS } from "./support/browser";
import { signUpNewUser, toast, uploadTextDocument, waitForActive, waitUntil } from "./support/workspace";

/**
 * The workspace journey of spec 000 §2/§4 and 001 §2/§4 in Debian's Chromium
 * against the built app: create a workspace through the four wizard steps,
 * follow the real launch workflow, rename it, attach a document, open two
 * files, leave and come back to find them open, delete it from My Workspaces;
 * then a quick workspace on a phone, and the assessment page.
 */
let server: AppServer;
let browser: Browser;
let storageState: Awaited<ReturnType<BrowserContext["storageState"]>>;
const ids: Record<string, string> = {};

const DOC_A = "cell-biology.txt";
const DOC_B = "genetics-notes.txt";
const DOC_C = "ecology-summary.txt";

async function expectAccessible(page: Page, where: string) {
  const violations = await seriousA11yViolations(page);
  expect(violations, `serious/critical axe violations on ${where}`).toEqual([]);
}

async function signedInPage(viewport: { width: number; height: number }) {
  const context = await browser.newContext({ viewport, storageState });
  const page = await context.newPage();
  return { context, page };
}

const workspaceIdFrom = (page: Page) => new URL(page.url()).pathname.split("/")[2];

beforeAll(async () => {
  server = await startAppServer();
  browser = await launchBrowser();
  ({ storageState } = await signUpNewUser(browser, server.url));
  const { context, page } = await signedInPage(VIEWPORTS.desktop);
  await page.goto(`${server.url}/`);
  ids.a = await uploadTextDocument(page, DOC_A, "Cells are the basic unit of life. Mitochondria make energy for the cell.\n");
  ids.b = await uploadTextDocument(page, DOC_B, "Genes are made of DNA. Mendel studied inheritance in pea plants.\n");
  ids.c = await uploadTextDocument(page, DOC_C, "Ecosystems cycle energy and matter. Producers, consumers and decomposers.\n");
  await waitForActive(page, [ids.a, ids.b, ids.c]);
  await context.close();
});

afterAll(async () => {
  if (process.env.WS_E2E_SERVER_LOG && server) await writeFile(process.env.WS_E2E_SERVER_LOG, server.output());
  await browser?.close();
  await server?.stop();
});

describe("the workspace journey", () => {
  let workspaceId = "";

  it("creates a workspace through all four steps and lands in it after the real launch", async () => {
    const { context, page } = await signedInPage(VIEWPORTS.desktop);
    await gotoHydrated(page, `${server.url}/workspace/create`);
    await page.getByRole("heading", { name: "Create a New Workspace" }).waitFor();
    await page.getByRole("heading", { name: "Add Workspace Related Details" }).waitFor();
    await screenshot(page, "workspace-wizard-details-1440");
    await expectAccessible(page, "/workspace/create (details)");

    // Next validates the details form first.
    await page.getByRole("button", { name: "Next" }).click();
    await page.getByText("This field is required").waitFor();
    await page.getByLabel("Workspace name").fill("Biology revision");
    await page.getByLabel("Description").fill("Cells and genes before the exam");
    await page.getByRole("radio", { name: /Conversation/ }).click();
    await page.getByRole("button", { name: "Next" }).click();

    await page.getByRole("heading", { name: "Customise Chat Preferences" }).waitFor();
    await page.getByText("DocuChat built-in (extractive)").first().waitFor();
    await page.getByRole("button", { name: "Next" }).click();

    await page.getByRole("heading", { name: "Add File Related Details" }).waitFor();
    // Search is case-insensitive on part of the name.
    await page.getByLabel("Search files by name").fill("GENE");
    await waitUntil(async () => (await page.getByTestId("picker-item").count()) === 1, "search narrows to one file");
    await page.getByLabel("Search files by name").fill("");
    await page.getByText(DOC_A, { exact: true }).click();
    await page.getByText(DOC_B, { exact: true }).click();
    await page.getByText("2 of 10 selected").waitFor();
    // Picking again toggles off, then on.
    await page.getByText(DOC_B, { exact: true }).click();
    await page.getByText("1 of 10 selected").waitFor();
    await page.getByText(DOC_B, { exact: true }).click();
    await screenshot(page, "workspace-wizard-files-1440");
    await expectAccessible(page, "/workspace/create (files)");
    await page.getByRole("button", { name: "Next" }).click();

    await page.getByRole("heading", { name: "Review and Launch" }).last().waitFor();
    const review = page.getByTestId("review");
    await review.getByText("Biology revision").waitFor();
    await review.getByText(DOC_A).waitFor();
    await screenshot(page, "workspace-wizard-review-1440");

    await page.getByRole("button", { name: "Save and Launch" }).click();
    await page.waitForURL(/\/workspace\/[^/]+\/launch$/);
    await page.getByTestId("launch-progress").waitFor();
    await page.getByTestId("launch-step").filter({ hasText: "Creating Workspace" }).waitFor();
    await page.getByTestId("launch-step").filter({ hasText: "Creating Conversation" }).waitFor();
    await screenshot(page, "workspace-launch-1440");
    await page.waitForURL(/\/workspace\/[^/]+$/, { timeout: 30_000 });
    workspaceId = workspaceIdFrom(page);

    await page.getByTestId("workspace-screen").waitFor();
    await expect(page.getByTestId("workspace-name").first().textContent()).resolves.toBe("Biology revision");
    // On creation the first file is the open one.
    await page.getByTestId("doc-tab").first().waitFor();
    // The chat panel hosts the conversation feature's slot; its header names the chat.
    await page.getByTestId("chat-panel").getByTestId("chat-slot").waitFor();
    await page.getByTestId("chat-title").waitFor();
    await screenshot(page, "workspace-screen-1440");
    await expectAccessible(page, "/workspace/{id}");
    await context.close();
  });

  it("renames the workspace in Workspace Settings", async () => {
    const { context, page } = await signedInPage(VIEWPORTS.desktop);
    await gotoHydrated(page, `${server.url}/workspace/${workspaceId}`);
    await page.getByTestId("open-settings").click();
    const dialog = page.getByRole("dialog", { name: "Workspace Settings" });
    await dialog.waitFor();
    await dialog.getByLabel("Workspace name").fill("");
    await dialog.getByRole("button", { name: "Save" }).click();
    await dialog.getByText("Workspace name is required").waitFor();
    await dialog.getByLabel("Workspace name").fill("Biology exams");
    await screenshot(page, "workspace-settings-1440");
    await expectAccessible(page, "Workspace Settings dialog");
    await dialog.getByRole("button", { name: "Save" }).click();
    await toast(page, "Workspace details saved").waitFor();
    await waitUntil(async () => (await page.getByTestId("workspace-name").first().textContent()) === "Biology exams", "new name shown");
    await context.close();
  });

  it("attaches another document", async () => {
    const { context, page } = await signedInPage(VIEWPORTS.desktop);
    await gotoHydrated(page, `${server.url}/workspace/${workspaceId}`);
    await page.getByTestId("open-attach").click();
    const dialog = page.getByRole("dialog", { name: "Attach Files" });
    await dialog.waitFor();
    await expect(dialog.getByRole("button", { name: "Attach" }).isDisabled()).resolves.toBe(true);
    // Already attached files are not offered again.
    await expect(dialog.getByText(DOC_A, { exact: true }).count()).resolves.toBe(0);
    await dialog.getByText(DOC_C, { exact: true }).click();
    await screenshot(page, "workspace-attach-1440");
    await expectAccessible(page, "Attach Files dialog");
    await dialog.getByRole("button", { name: "Attach" }).click();
    await toast(page, "Document attached").waitFor();
    await dialog.waitFor({ state: "hidden" });
    await page.locator(`[data-testid="related-file"][data-name="${DOC_C}"]`).waitFor();
    await context.close();
  });

  it("reopens the files that were open after leaving and coming back", async () => {
    const { context, page } = await signedInPage(VIEWPORTS.desktop);
    await gotoHydrated(page, `${server.url}/workspace/${workspaceId}`);
    await page.locator(`[data-testid="related-file"][data-name="${DOC_B}"]`).click();
    await page.locator(`[data-testid="related-file"][data-name="${DOC_C}"]`).click();
    await waitUntil(async () => (await page.getByTestId("doc-tab").count()) === 3, "three tabs");
    // Closing a tab selects the previous one.
    await page.getByTestId("close-tab").click();
    await waitUntil(async () => (await page.getByTestId("doc-tab").count()) === 2, "two tabs");
    await expect(page.locator('[data-testid="doc-tab"][aria-selected="true"]').getAttribute("data-name")).resolves.toBe(DOC_B);
    // The active tab's document is shown (by the document viewer, or the plain frame it replaces).
    await waitUntil(async () => (await page.locator("#doc-panel [data-document-id]").first().getAttribute("data-document-id")) === ids.b, "viewer shows the active tab");
    await page.getByTestId("collapse-sidebar").click();
    await page.getByTestId("expand-sidebar").waitFor();
    await page.getByTestId("expand-sidebar").click();

    // Leave (in-app navigation to /), then come back.
    const saved = page.waitForResponse((r) => r.url().includes(`/api/workspaces/${workspaceId}/session`) && r.request().method() === "POST");
    await page.getByRole("link", { name: /home/i }).first().click();
    await page.waitForURL(`${server.url}/`);
    expect((await saved).status()).toBe(200);
    await gotoHydrated(page, `${server.url}/workspace/${workspaceId}`);
    await waitUntil(async () => (await page.getByTestId("doc-tab").count()) === 2, "two tabs restored");
    const names = await page.getByTestId("doc-tab").evaluateAll((els) => els.map((e) => e.getAttribute("data-name")));
    expect(names).toEqual([DOC_A, DOC_B]);
    await expect(page.locator('[data-testid="doc-tab"][aria-selected="true"]').getAttribute("data-name")).resolves.toBe(DOC_B);

    // The switcher searches by name.
    await page.getByTestId("workspace-switcher").click();
    await page.getByLabel("Search Workspace Name").fill("nothing like this");
    await page.getByText("No Workspace Found").waitFor();
    await page.keyboard.press("Escape");
    await context.close();
  });

  it("lists, searches and deletes it in My Workspaces", async () => {
    const { context, page } = await signedInPage(VIEWPORTS.desktop);
    await gotoHydrated(page, `${server.url}/history/workspaces`);
    const row = page.locator('[data-testid="workspace-row"][data-name="Biology exams"]');
    await row.waitFor();
    await expect(row.textContent()).resolves.toMatch(/Conversation\s*3\s*Active/);
    await screenshot(page, "my-workspaces-1440");
    await expectAccessible(page, "/history/workspaces");
    await page.getByLabel("Search workspaces by name").first().fill("zzz");
    await page.getByText("No matching workspaces found.").waitFor();
    await page.getByLabel("Search workspaces by name").first().fill("BIOLOGY");
    await row.waitFor();
    await row.getByRole("checkbox").click();
    await page.getByTestId("delete-selected-workspaces").click();
    const confirm = page.getByRole("alertdialog");
    await confirm.getByText("Are you sure you want to delete the workspace?").waitFor();
    await confirm.getByRole("button", { name: "Delete" }).click();
    await toast(page, "Workspace deleted").waitFor();
    await page.getByText("No matching workspaces found.").first().waitFor();
    await page.getByLabel("Search workspaces by name").first().fill("");
    await page.getByText("No Workspace Created yet.").waitFor();

    // The deleted workspace is gone: its screen sends the user back with the server's message.
    await gotoHydrated(page, `${server.url}/workspace/${workspaceId}`);
    await page.waitForURL(`${server.url}/history/workspaces`);
    await toast(page, "Workspace does not exist").waitFor();
    await context.close();
  });

  it("launches a Resume Builder workspace with the 'Creating Resume' step and no add-files icon", async () => {
    const { context, page } = await signedInPage(VIEWPORTS.desktop);
    await gotoHydrated(page, `${server.url}/workspace/create`);
    await page.getByLabel("Workspace name").fill("My CV");
    await page.getByRole("radio", { name: /Resume Builder/ }).click();
    await page.getByRole("button", { name: "Next" }).click();
    await page.getByRole("heading", { name: "Customise Chat Preferences" }).waitFor();
    await page.getByRole("button", { name: "Next" }).click();
    await page.getByRole("heading", { name: "Add File Related Details" }).waitFor();
    await page.getByRole("button", { name: "Next" }).click();
    // No files picked: Save and Launch stays disabled.
    await expect(page.getByRole("button", { name: "Save and Launch" }).isDisabled()).resolves.toBe(true);
    await page.getByRole("button", { name: "Previous" }).click();
    await page.getByText(DOC_A, { exact: true }).click();
    await page.getByRole("button", { name: "Next" }).click();
    await page.getByRole("button", { name: "Save and Launch" }).click();
    await page.waitForURL(/\/launch$/);
    await page.getByTestId("launch-step").filter({ hasText: "Creating Resume" }).waitFor();
    await page.waitForURL(/\/workspace\/[^/]+$/, { timeout: 30_000 });
    await page.getByTestId("workspace-screen").waitFor();
    await expect(page.getByTestId("open-attach").count()).resolves.toBe(0);
    await context.close();
  });

  it("creates a quick workspace on a phone and shows the mobile layout", async () => {
    const { context, page } = await signedInPage(VIEWPORTS.mobile);
    await gotoHydrated(page, `${server.url}/workspace/create?documentIds=${ids.a},${ids.c}&quick=1`);
    await page.getByRole("heading", { name: "Quick Workspace" }).waitFor();
    await expect(page.getByLabel("Workspace name").inputValue()).resolves.toMatch(/^Quick Workspace \d{2}\/\d{2}$/);
    await page.getByTestId("quick-files").getByText(DOC_C).waitFor();
    await screenshot(page, "workspace-quick-390");
    await expectAccessible(page, "/workspace/create?quick=1 (mobile)");
    await page.getByRole("button", { name: "Save and Launch" }).click();
    await page.waitForURL(/\/launch$/);
    await screenshot(page, "workspace-launch-390");
    await page.waitForURL(/\/workspace\/[^/]+$/, { timeout: 30_000 });
    await page.getByTestId("mobile-navbar").waitFor();
    await expect(page.getByTestId("workspace-sidebar").isVisible()).resolves.toBe(false);
    await page.getByTestId("mobile-filebar").waitFor();
    await screenshot(page, "workspace-screen-file-390");
    await page.getByRole("button", { name: "All files" }).click();
    await page.getByTestId("file-grid").waitFor();
    await expect(page.getByTestId("file-card").count()).resolves.toBe(2);
    await page.getByTestId("fab-chat").waitFor();
    await screenshot(page, "workspace-screen-390");
    await expectAccessible(page, "/workspace/{id} (mobile)");
    await page.getByTestId("fab-chat").click();
    await page.getByRole("dialog", { name: "New Chat" }).waitFor();
    await screenshot(page, "workspace-chat-sheet-390");
    await page.keyboard.press("Escape");

    await gotoHydrated(page, `${server.url}/history/workspaces`);
    await page.getByTestId("workspace-card").first().waitFor();
    await screenshot(page, "my-workspaces-390");
    await expectAccessible(page, "/history/workspaces (mobile)");
    await context.close();
  });

  it("starts the assessment with a resume chosen from a list that pages, and counts down on the server's deadline", async () => {
    const { context, page } = await signedInPage(VIEWPORTS.desktop);
    await page.goto(`${server.url}/`);
    // More ready files than the resume list's first page (20): the oldest ones are reached by scrolling its box.
    const resumes: string[] = [];
    for (let n = 1; n <= 20; n++) resumes.push(await uploadTextDocument(page, `resume-${String(n).padStart(2, "0")}.txt`, `Resume draft ${n}: led a team of ${n}.`));
    await waitForActive(page, resumes, 120_000);
    await gotoHydrated(page, `${server.url}/interview`);
    await page.getByRole("button", { name: "Start Interview" }).waitFor();
    const options = page.getByRole("radiogroup", { name: "Your resume" }).getByRole("radio");
    expect(await options.count()).toBe(20);
    // The newest is chosen until the candidate picks another.
    expect(await page.getByTestId("resume-chosen").textContent()).toBe("Chosen: resume-20.txt");
    await screenshot(page, "interview-1440");
    await expectAccessible(page, "/interview");
    await page.getByTestId("resume-list").evaluate((box) => box.scrollTo(0, box.scrollHeight));
    const ready = (await (await page.request.get(`${server.url}/api/documents?status=ACTIVE&limit=1`)).json()).total as number;
    expect(ready).toBeGreaterThan(20);
    await waitUntil(async () => (await options.count()) === ready, "the next page once the list is scrolled to its end");
    await page.getByRole("radio", { name: DOC_A }).click();
    expect(await page.getByTestId("resume-chosen").textContent()).toBe(`Chosen: ${DOC_A}`);
    // By keyboard: arrows move the choice within the list.
    // (Held down as a person does: Radix moves the choice with the focus only while an arrow key is down.)
    await page.getByRole("radio", { name: DOC_A }).focus();
    await page.keyboard.down("ArrowUp");
    await waitUntil(async () => (await page.getByTestId("resume-chosen").textContent()) === `Chosen: ${DOC_B}`, "ArrowUp to choose the file above", 5000);
    await page.keyboard.up("ArrowUp");
    // A server search that hides the choice keeps it.
    await page.getByLabel("Search your ready files by name").fill("RESUME-1");
    await waitUntil(async () => (await options.count()) === 10, "resume-10 to resume-19");
    expect(await page.getByTestId("resume-chosen").textContent()).toBe(`Chosen: ${DOC_B}`);
    await page.getByLabel("Search your ready files by name").fill("no such file");
    await page.getByText("No matching files found.").waitFor();

    const phone = await signedInPage(VIEWPORTS.mobile);
    await gotoHydrated(phone.page, `${server.url}/interview`);
    await phone.page.getByRole("radiogroup", { name: "Your resume" }).waitFor();
    await screenshot(phone.page, "interview-390");
    await expectAccessible(phone.page, "/interview (390 px)");
    await phone.context.close();

    await page.getByRole("button", { name: "Start Interview" }).click();
    await page.waitForURL(/\/workspace\/[^/]+(\/launch)?$/);
    await page.waitForURL(/\/workspace\/[^/]+$/, { timeout: 30_000 });
    await page.getByTestId("workspace-sidebar").getByText(DOC_B).first().waitFor();
    await gotoHydrated(page, `${server.url}/interview`);
    const button = page.getByTestId("interview-button");
    await waitUntil(async () => /^Continue (59|60)m \d{1,2}s$/.test((await button.textContent()) ?? ""), "Continue countdown");
    const first = await button.textContent();
    await waitUntil(async () => (await button.textContent()) !== first, "countdown ticks", 5000);
    await screenshot(page, "interview-running-1440");
    await context.close();
  });
});
