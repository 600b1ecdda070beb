import { readFile } from "node:fs/promises";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeDocx } from "#infrastructure/extraction/test-support/documents";
import { CV_PARAGRAPHS } from "../fixtures/resume/cv";
import { startAppServer, type AppServer } from "./support/app-server";
import { gotoHydrated, launchBrowser, screenshot, phoneLayoutProblems, seriousA11yViolations, VIEWPORTS } from "./support/browser";
import { completeOnboarding, signUpAndConfirm, unique } from "./support/account";
import { uploadThroughApi, waitForActive } from "./support/chat";
import { signUpNewUser } from "./support/workspace";

/**
 * The Resume Builder journey (issue 18) in Debian's Chromium against the built
 * app: upload a CV made as a Word document, create a Resume Builder
 * workspace, find the resume drafted from it and compiled, ask the built-in
 * model to change the summary (it says what it can and cannot do), break the
 * LaTeX by hand, see 'Compile error', Retry, get it repaired, save it, and
 * download the PDF; then the same screen on a phone.
 */
let server: AppServer;
let browser: Browser;
let storageState: Awaited<ReturnType<BrowserContext["storageState"]>>;
let username = "";
let workspaceUrl = "";
const admin = `resumeadmin${unique()}`;

const CV_NAME = "maria-gonzalez-cv.docx";
const DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";

async function signedInPage(viewport: { width: number; height: number }) {
  const context = await browser.newContext({ viewport, storageState, acceptDownloads: true });
  return { context, page: await context.newPage() };
}

async function expectAccessible(page: Page, where: string) {
  expect(await seriousA11yViolations(page), `serious/critical axe violations on ${where}`).toEqual([]);
}

/** The resume's newest LaTeX, as the screen loads it. */
async function savedLatex(page: Page): Promise<{ latex: string; version: number }> {
  const resumeId = await page.getByTestId("resume-workbench").getAttribute("data-resume-id");
  return page.evaluate(async (id) => {
    const body = (await (await fetch(`/api/resumes/${id}`)).json()) as { current: { latex: string; version: number } };
    return body.current;
  }, resumeId);
}

/** Beside the chat the workbench shows Editor and Preview as tabs (decision 205): shows the pane asked for. */
async function showPane(page: Page, name: "Editor" | "Preview") {
  const tab = page.getByRole("tab", { name });
  if (await tab.isVisible()) await tab.click();
}

/** Replaces the editor's whole text, as a paste would. */
async function replaceEditorText(page: Page, text: string) {
  await showPane(page, "Editor");
  await page.locator('[data-testid="latex-editor"][data-ready] .cm-content').click();
  await page.keyboard.press("Control+A");
  await page.keyboard.insertText(text);
}

beforeAll(async () => {
  server = await startAppServer({ env: { ADMIN_USERNAMES: admin }, readyTimeoutMs: 120_000 });
  browser = await launchBrowser();
  ({ storageState, username } = await signUpNewUser(browser, server.url));
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe("the Resume Builder journey", () => {
  it("drafts a compiled resume from an uploaded CV when a Resume Builder workspace is created", async () => {
    const { context, page } = await signedInPage(VIEWPORTS.desktop);
    await page.goto(`${server.url}/`);
    const cv = await uploadThroughApi(page, { name: CV_NAME, type: DOCX, bytes: makeDocx(CV_PARAGRAPHS), pages: 1 });
    await waitForActive(page, [cv]);

    await gotoHydrated(page, `${server.url}/workspace/create`);
    await page.getByLabel("Workspace name").fill("Maria's resume");
    await page.getByRole("radio", { name: /Resume Builder/ }).click();
    await page.getByRole("button", { name: "Next" }).click();
    await page.getByRole("heading", { name: "Customise Chat Preferences" }).waitFor();
    await page.getByRole("button", { name: "Next" }).click();
    await page.getByText(CV_NAME, { exact: true }).click();
    await page.getByRole("button", { name: "Next" }).click();
    await page.getByRole("button", { name: "Save and Launch" }).click();
    await page.getByTestId("launch-step").filter({ hasText: "Creating Resume" }).waitFor();
    await page.waitForURL(/\/workspace\/[^/]+$/, { timeout: 60_000 });
    workspaceUrl = page.url();

    await page.getByTestId("resume-workbench").waitFor({ timeout: 30_000 });
    await page.getByTestId("resume-preview-page").first().waitFor({ timeout: 60_000 });
    await showPane(page, "Editor");
    await page.locator('[data-testid="latex-editor"][data-ready] .cm-content').waitFor();
    await showPane(page, "Preview");
    const draft = await savedLatex(page);
    expect(draft.version).toBe(1);
    expect(draft.latex).toContain("Maria Gonzalez");
    expect(draft.latex).toContain("\\resumeItem{Led the migration of the invoicing service");
    // The drafted version is compiled and saved: nothing to compile or save yet.
    await expect(page.getByTestId("compile-resume").isDisabled()).resolves.toBe(true);
    await expect(page.getByTestId("save-resume").isDisabled()).resolves.toBe(true);
    await expect(page.getByTestId("uncompiled-changes").count()).resolves.toBe(0);
    // Resume Builder workspaces take no more files.
    await expect(page.getByTestId("open-attach").count()).resolves.toBe(0);
    await screenshot(page, "resume-workspace-1440");
    await expectAccessible(page, "/workspace/{id} (Resume Builder)");

    // Each drafted line links to the passage of the CV it came from: a click opens the CV there.
    await page.getByTestId("resume-sources").locator("summary").click();
    await page.getByRole("button", { name: /Led the migration of the invoicing service/ }).click();
    await page.locator("#doc-panel").waitFor({ timeout: 30_000 });
    await page.getByTestId("close-tab").click();
    await page.getByTestId("resume-workbench").waitFor();
    await context.close();
  });

  it("answers a request to change the summary honestly with the built-in model", async () => {
    const { context, page } = await signedInPage(VIEWPORTS.desktop);
    await gotoHydrated(page, workspaceUrl);
    await page.getByTestId("suggested-question").filter({ hasText: "Rewrite my professional summary to be more impactful" }).click();
    const answer = page.locator('[data-testid="bot-message"][data-status="complete"]').last();
    await answer.waitFor({ timeout: 60_000 });
    const text = await answer.getByTestId("answer-text").innerText();
    expect(text).toMatch(/cannot write new text/);
    expect(text).toContain("Backend engineer with 8 years of experience");
    expect(text).toMatch(/repair LaTeX errors/);
    await screenshot(page, "resume-chat-built-in-1440");
    await context.close();
  });

  it("shows a hand-made error as 'Compile error', repairs it on Retry, saves it and downloads the PDF", async () => {
    const { context, page } = await signedInPage(VIEWPORTS.desktop);
    await gotoHydrated(page, workspaceUrl);
    await page.getByTestId("resume-preview-page").first().waitFor({ timeout: 60_000 });
    const { latex } = await savedLatex(page);
    const broken = latex.replace("payment \\& billing", "payment & billing, R&D");
    expect(broken).not.toBe(latex);

    await replaceEditorText(page, broken);
    await page.getByTestId("uncompiled-changes").waitFor();
    await expect(page.getByTestId("save-resume").isDisabled()).resolves.toBe(true);
    await page.getByTestId("compile-resume").click();
    await showPane(page, "Preview");
    await page.getByTestId("compile-error-chip").first().waitFor({ timeout: 60_000 });
    await expect(page.getByTestId("compile-error").innerText()).resolves.toMatch(/Misplaced alignment tab character &/);
    await expect(page.getByTestId("save-resume").isDisabled()).resolves.toBe(true);
    await screenshot(page, "resume-compile-error-1440");

    const answers = page.locator('[data-testid="bot-message"][data-status="complete"]');
    const before = await answers.count();
    await page.getByTestId("retry-editor-compile").click();
    await page.getByText("Fix the latex error in previous response").first().waitFor();
    await expect.poll(() => answers.count(), { timeout: 60_000 }).toBe(before + 1);
    await expect(answers.last().getByTestId("answer-text").innerText()).resolves.toMatch(/I repaired the LaTeX: escaped special characters in text/);
    const repaired = page.locator('[data-testid="latex-answer"][data-state="compiled"]').last();
    await repaired.waitFor({ timeout: 60_000 });
    await screenshot(page, "resume-repaired-in-chat-1440");
    await expectAccessible(page, "/workspace/{id} (compile error, repaired answer in the chat)");

    await repaired.getByTestId("open-in-editor").click();
    await page.getByTestId("uncompiled-changes").waitFor();
    await page.getByTestId("compile-resume").click();
    await expect.poll(() => page.getByTestId("save-resume").isDisabled(), { timeout: 60_000 }).toBe(false);
    await expect(page.getByTestId("compile-error").count()).resolves.toBe(0);
    await page.getByTestId("save-resume").click();
    await page.getByTestId("resume-update-notice").filter({ hasText: "The resume is updated successfully" }).waitFor({ timeout: 60_000 });
    const saved = await savedLatex(page);
    expect(saved.version).toBe(2);
    expect(saved.latex).toContain("payment \\& billing, R\\&D");
    await page.getByTestId("resume-versions").filter({ hasText: "Version 2" }).waitFor();

    const [download] = await Promise.all([page.waitForEvent("download", { timeout: 60_000 }), page.getByTestId("download-resume-pdf").click()]);
    expect(download.suggestedFilename()).toBe("resume-v2.pdf");
    const pdf = await readFile((await download.path())!);
    expect(pdf.subarray(0, 5).toString()).toBe("%PDF-");
    await screenshot(page, "resume-saved-1440");
    await context.close();
  });

  it("puts the editor and the preview in tabs on a phone", async () => {
    const { context, page } = await signedInPage(VIEWPORTS.mobile);
    await gotoHydrated(page, workspaceUrl);
    await page.getByTestId("resume-preview-page").first().waitFor({ timeout: 60_000 });
    await page.getByRole("tab", { name: "Preview" }).waitFor();
    await expect(page.getByTestId("latex-editor").isVisible()).resolves.toBe(false);
    await screenshot(page, "resume-preview-390");
    expect(await phoneLayoutProblems(page), "the Resume Builder's preview at 390 px").toEqual([]);
    await expectAccessible(page, "/workspace/{id} (Resume Builder, phone)");
    await page.getByRole("tab", { name: "Editor" }).click();
    await page.getByTestId("latex-editor").waitFor({ state: "visible" });
    await expect(page.getByTestId("resume-preview-page").first().isVisible()).resolves.toBe(false);
    await screenshot(page, "resume-editor-390");
    await expectAccessible(page, "/workspace/{id} (Resume Builder editor, phone)");
    await context.close();
  });

  it("shows an impersonating admin the compiled resume, refuses nothing, and records the view (issue 44 item 10)", async () => {
    const context = await browser.newContext({ viewport: VIEWPORTS.desktop });
    const page = await context.newPage();
    await signUpAndConfirm(browser, page, server.url, admin);
    await completeOnboarding(page, server.url, { firstName: "Ada", lastName: "Admin" });
    await gotoHydrated(page, `${server.url}/adminDashboard`);
    await page.getByLabel("Search Users").fill(username);
    await page.getByRole("button", { name: "Search" }).click();
    const row = page.getByTestId("admin-user").filter({ hasText: username });
    await row.getByLabel(/Reason for impersonating/).fill("Ticket 5120: the resume preview looks wrong to her");
    await row.getByTestId("impersonate").click();
    await page.getByTestId("exit-admin-mode").waitFor();

    const refused: string[] = [];
    page.on("response", (response) => response.status() >= 400 && refused.push(`${response.status()} ${new URL(response.url()).pathname}`));
    await gotoHydrated(page, workspaceUrl);
    // Viewing is reading: the saved version and the chat's LaTeX answer show compiled, not as a "Compile error".
    await page.getByTestId("resume-preview-page").first().waitFor({ timeout: 60_000 });
    await page.locator('[data-testid="latex-answer"][data-state="compiled"]').last().waitFor({ timeout: 60_000 });
    await expect(page.getByTestId("compile-error-chip").count()).resolves.toBe(0);
    await expect(page.getByTestId("compile-error").count()).resolves.toBe(0);
    expect(refused).toEqual([]);
    await screenshot(page, "resume-builder-impersonated-1440");
    await page.setViewportSize(VIEWPORTS.mobile);
    await showPane(page, "Preview");
    await page.getByTestId("resume-preview-page").first().waitFor();
    await screenshot(page, "resume-builder-impersonated-390");
    await page.setViewportSize(VIEWPORTS.desktop);

    // The history names the resume the admin looked at.
    await page.getByTestId("exit-admin-mode").click();
    await page.waitForURL(/\/adminDashboard$/);
    await expect.poll(async () => (await page.getByTestId("impersonation-history").textContent()) ?? "").toContain("resume “Maria's resume”");
    await context.close();
  });
});
