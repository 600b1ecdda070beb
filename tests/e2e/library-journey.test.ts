import { readFile } from "node:fs/promises";
import { unzipSync } from "fflate";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAppServer, type AppServer } from "./support/app-server";
import { uploadThroughApi } from "./support/chat";
import { gotoHydrated, launchBrowser, screenshot, seriousA11yViolations, VIEWPORTS } from "./support/browser";
import {
  type LocalSite,
  makePdf,
  signUpNewUser,
  SITE_ENV,
  startLocalSite,
  waitForStatuses,
  waitUntil,
} from "./support/library";

/**
 * The library journey of spec 000 §2/§4/§5 in Debian's Chromium against the
 * built app: upload files with progress, watch them become Active, add a
 * website crawled at depth 2 through the server's egress, open a document,
 * download a selection as documents.zip and delete a selection.
 */
let server: AppServer;
let site: LocalSite;
let browser: Browser;
let storageState: Awaited<ReturnType<BrowserContext["storageState"]>>;

const PDF_A = "lecture-notes.pdf";
const PDF_B = "lab-report.pdf";
const TXT = "reading-list.txt";

async function expectAccessible(page: Page, where: string) {
  const violations = await seriousA11yViolations(page);
  expect(violations, `serious/critical axe violations on ${where}`).toEqual([]);
}

const toast = (page: Page, text: string) => page.getByTestId("toast").filter({ hasText: text }).first();

async function signedInPage(viewport: { width: number; height: number }) {
  const context = await browser.newContext({ viewport, storageState, acceptDownloads: true });
  const page = await context.newPage();
  return { context, page };
}

beforeAll(async () => {
  site = await startLocalSite();
  server = await startAppServer({ env: SITE_ENV });
  browser = await launchBrowser();
  ({ storageState } = await signUpNewUser(browser, server.url));
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await site?.close();
});

describe("the library journey", () => {
  it("uploads two PDFs and a text file with progress, then sees them become Active", async () => {
    const { context, page } = await signedInPage(VIEWPORTS.desktop);
    await gotoHydrated(page, `${server.url}/upload`);
    expect(new URL(page.url()).pathname).toBe("/upload/files");
    await page.getByText("No files to show").waitFor();
    await expectAccessible(page, "/upload/files (empty)");

    const files = [
      { name: PDF_A, mimeType: "application/pdf", buffer: await makePdf(["Photosynthesis, page one", "Photosynthesis, page two"]) },
      { name: PDF_B, mimeType: "application/pdf", buffer: await makePdf(["Titration lab report"]) },
      { name: TXT, mimeType: "text/plain", buffer: Buffer.from("Books to read this term:\n- Origin of Species\n- A Brief History of Time\n") },
    ];
    await page.getByTestId("file-input").setInputFiles(files);
    const rows = page.getByTestId("selected-file");
    await waitUntil(async () => (await rows.count()) === 3, "three selected files");
    // PDF pages are counted in the browser with pdf.js.
    await rows.filter({ hasText: PDF_A }).getByText("2 pages").waitFor();
    await rows.filter({ hasText: PDF_B }).getByText("1 page").waitFor();
    await rows.filter({ hasText: TXT }).getByText("1 page").waitFor();

    // An unsupported type is refused with a toast.
    await page.getByTestId("file-input").setInputFiles([{ name: "setup.exe", mimeType: "application/octet-stream", buffer: Buffer.from("MZ") }]);
    await toast(page, "this file type is not supported").waitFor();
    expect(await rows.count()).toBe(3);

    // Preview in a titled dialog (pdf.js renders the pages).
    await page.getByRole("button", { name: `Preview ${PDF_A}` }).click();
    const preview = page.getByRole("dialog", { name: PDF_A });
    await preview.getByRole("img", { name: `Page 1 of ${PDF_A}` }).waitFor();
    await expectAccessible(page, "the preview dialog");
    await screenshot(page, "upload-preview-1440");
    await preview.getByRole("button", { name: "Close preview" }).click();

    await page.getByTestId("advanced-settings-toggle").click();
    await page.getByText("Share with community", { exact: true }).waitFor();
    await expectAccessible(page, "/upload/files with files and settings");
    await screenshot(page, "upload-files-1440");

    // Slow the PUTs down a little so the progress bars are observable.
    await page.route("**/api/documents/*/upload*", async (route) => {
      await new Promise((r) => setTimeout(r, 600));
      await route.continue();
    });
    await page.getByTestId("upload-files").click();
    await page.getByTestId("upload-progress").first().waitFor();
    await toast(page, "Uploaded All Files").waitFor();
    await page.waitForURL(`${server.url}/history/documents`, { timeout: 10_000 });

    await waitForStatuses(page, [PDF_A, PDF_B, TXT], "ACTIVE");
    const activeBadge = page.locator(`[data-testid="document-row"][data-name="${PDF_A}"] [data-testid="status-badge"]`);
    expect(await activeBadge.textContent()).toContain("Active");
    await expectAccessible(page, "/history/documents");
    await screenshot(page, "my-documents-1440");
    await context.close();
  });

  it("validates links and adds a website crawled at depth 2", async () => {
    const { context, page } = await signedInPage(VIEWPORTS.desktop);
    await gotoHydrated(page, `${server.url}/upload/fileUrl`);
    const generate = page.getByTestId("generate-file");
    expect(await generate.getAttribute("aria-disabled")).toBe("true");
    await expectAccessible(page, "/upload/fileUrl");

    // A link to a document the site does not have is answered at submit with the spec's lookup message (000 §5).
    await page.getByLabel("URL", { exact: true }).fill(`${site.url}/no-such-report.pdf`);
    await generate.click();
    await toast(page, "Document Not Found").waitFor();
    expect(new URL(page.url()).pathname).toBe("/upload/fileUrl");

    // The type dropdown switches screens.
    await page.getByTestId("link-type").click();
    await page.getByRole("option", { name: "YouTube" }).click();
    await page.waitForURL(`${server.url}/upload/youtubeVideo`);
    // The URL changes before the new screen renders: typing earlier would fill the old screen's field.
    await page.getByRole("heading", { name: "Add a Video" }).waitFor();
    await page.getByLabel("URL", { exact: true }).fill("https://www.youtube.com/watch?v=short");
    await page.getByLabel("URL", { exact: true }).blur();
    await page.getByText("Invalid YouTube URL").first().waitFor();
    await screenshot(page, "upload-video-1440");

    await page.getByTestId("link-type").click();
    await page.getByRole("option", { name: "Website" }).click();
    await page.waitForURL(`${server.url}/upload/websiteLink`);
    await page.getByRole("heading", { name: "Upload a Website" }).waitFor();
    await page.getByLabel("URL", { exact: true }).fill("not a website");
    await page.getByLabel("URL", { exact: true }).blur();
    await page.getByText("Invalid Website URL").first().waitFor();
    await page.getByLabel("Crawl depth").fill("0");
    await page.getByText("Depth must be between 1 and 5").waitFor();
    await page.getByLabel("URL", { exact: true }).fill(site.url);
    await page.getByTestId("generate-file").click();
    await toast(page, "Depth must be a positive number!").waitFor();
    await page.getByLabel("Crawl depth").fill("2");
    await expectAccessible(page, "/upload/websiteLink");
    await screenshot(page, "upload-website-1440");
    await page.getByTestId("generate-file").click();
    await toast(page, "Uploaded Successfully").waitFor();
    await page.waitForURL(`${server.url}/history/documents`, { timeout: 10_000 });

    // Registered under its host name; the crawler renames it to the start page's title.
    const siteName = "Reading Room Home";
    await waitForStatuses(page, [siteName], "ACTIVE", 90_000);
    expect(site.requested).toEqual(expect.arrayContaining(["/", "/guide", "/faq"]));
    expect(site.requested).not.toContain("/deep");
    await context.close();
  });

  it("opens a document's detail page; another user's id is a 404", async () => {
    const { context, page } = await signedInPage(VIEWPORTS.desktop);
    await gotoHydrated(page, `${server.url}/history/documents`);
    await page.getByRole("link", { name: PDF_A }).click();
    await page.waitForURL(/\/document\//);
    const documentPath = new URL(page.url()).pathname;
    await page.getByRole("heading", { name: PDF_A, level: 1 }).waitFor();
    expect((await page.getByTestId("page-count").textContent())?.trim()).toBe("2");
    // PDFs are drawn with pdf.js from the inline download URL.
    await page.getByRole("img", { name: `Page 2 of ${PDF_A}` }).waitFor();
    const inline = await page.request.get(`${server.url}/documents/download/${documentPath.split("/").pop()}?type=document&inline=1`);
    expect(inline.headers()["content-type"]).toBe("application/pdf");
    expect(inline.headers()["content-disposition"]).toMatch(/^inline; filename="lecture-notes\.pdf"; filename\*=UTF-8''lecture-notes\.pdf$/);
    expect(inline.headers()["x-content-type-options"]).toBe("nosniff");
    const attachment = await page.request.get(`${server.url}/documents/download/${documentPath.split("/").pop()}?type=document`);
    expect(attachment.headers()["content-disposition"]).toMatch(/^attachment;/);
    await page.getByTestId("download-document").waitFor();
    const id = documentPath.split("/").pop();
    // The status wait answers at once for a document that is already there.
    const waited = await page.request.get(`${server.url}/api/documents/${id}/status/ACTIVE?timeout=2`);
    expect(await waited.json()).toMatchObject({ reached: true, status: "ACTIVE" });
    // JSON API writes need the X-CSRF-Token header.
    expect((await page.request.delete(`${server.url}/api/documents/${id}`)).status()).toBe(403);
    expect((await page.request.post(`${server.url}/api/documents`, { data: { document_name: "x.pdf", document_size: 10 } })).status()).toBe(403);
    await expectAccessible(page, "the document detail page");
    await screenshot(page, "document-detail-1440");

    // The text file's detail.
    await gotoHydrated(page, `${server.url}/history/documents`);
    await page.getByRole("link", { name: TXT }).click();
    await page.getByRole("heading", { name: TXT, level: 1 }).waitFor();
    // Plain text shows in a frame on the inline URL (sandboxed text/plain).
    const textSrc = await page.getByTestId("viewer-frame").getAttribute("src");
    const text = await page.request.get(`${server.url}${textSrc}`);
    expect(text.headers()["content-type"]).toBe("text/plain; charset=utf-8");
    expect(text.headers()["content-security-policy"]).toContain("sandbox");

    // Someone else cannot see it.
    const other = await signUpNewUser(browser, server.url);
    const stranger = await browser.newContext({ storageState: other.storageState });
    const strangerPage = await stranger.newPage();
    const response = await strangerPage.goto(`${server.url}${documentPath}`);
    expect(response?.status()).toBe(404);
    expect((await strangerPage.request.get(`${server.url}/api/documents/${id}`)).status()).toBe(404);
    expect((await strangerPage.request.get(`${server.url}/documents/download/${id}?type=document`)).status()).toBe(404);
    await stranger.close();
    await context.close();
  });

  it("downloads two documents as documents.zip and deletes a selection", async () => {
    const { context, page } = await signedInPage(VIEWPORTS.desktop);
    await gotoHydrated(page, `${server.url}/history/documents`);
    await page.getByRole("checkbox", { name: `Select ${PDF_A}` }).click();
    await page.getByRole("checkbox", { name: `Select ${TXT}` }).click();
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByTestId("download-selected").click()]);
    expect(download.suggestedFilename()).toBe("documents.zip");
    const entries = unzipSync(new Uint8Array(await readFile((await download.path()) as string)));
    expect(Object.keys(entries).sort()).toEqual([PDF_A, TXT].sort());
    expect(new TextDecoder().decode(entries[TXT])).toContain("Origin of Species");
    expect(Buffer.from(entries[PDF_A]).subarray(0, 5).toString()).toBe("%PDF-");

    // Delete a selection of two.
    await page.getByRole("checkbox", { name: `Select ${PDF_A}` }).click(); // unselect
    await page.getByRole("checkbox", { name: `Select ${PDF_B}` }).click();
    await page.getByTestId("delete-selected").click();
    const confirm = page.getByRole("alertdialog");
    await confirm.getByText("Are you sure you want to delete the selected documents?").waitFor();
    await expectAccessible(page, "the delete confirmation");
    await confirm.getByTestId("confirm-delete").click();
    await toast(page, "2 documents deleted").waitFor();
    await waitUntil(async () => (await page.getByTestId("document-row").count()) === 2, "two rows left");
    expect(await page.getByRole("link", { name: PDF_B }).count()).toBe(0);
    expect(await page.getByRole("link", { name: TXT }).count()).toBe(0);
    await screenshot(page, "my-documents-after-delete-1440");
    await context.close();
  });

  it("shows the dashboard tiles and the phone layouts", async () => {
    const desktop = await signedInPage(VIEWPORTS.desktop);
    await desktop.page.goto(`${server.url}/`);
    expect((await desktop.page.getByTestId("stat-documents").textContent()) ?? "").toContain("2Documents Uploaded");
    expect(await desktop.page.getByTestId("recent-document").count()).toBe(2);
    await expectAccessible(desktop.page, "the dashboard with documents");
    await screenshot(desktop.page, "dashboard-documents-1440");
    await gotoHydrated(desktop.page, `${server.url}/upload/audio`);
    await desktop.page.getByText("Click to start recording").waitFor();
    await desktop.page.getByText("Or try uploading an audio file").waitFor();
    expect(await desktop.page.getByTestId("upload-audio").getAttribute("aria-disabled")).toBe("true");
    await expectAccessible(desktop.page, "/upload/audio");
    await screenshot(desktop.page, "upload-audio-1440");
    await desktop.context.close();

    const { context, page } = await signedInPage(VIEWPORTS.mobile);
    await gotoHydrated(page, `${server.url}/upload/files`);
    await page.getByText("No files to show").waitFor();
    await expectAccessible(page, "/upload/files on a phone");
    await screenshot(page, "upload-files-390");

    await gotoHydrated(page, `${server.url}/history/documents`);
    const cards = page.getByTestId("document-card");
    await waitUntil(async () => (await cards.count()) === 2, "two document cards");
    await page.getByRole("searchbox", { name: "Search documents" }).fill("LECTURE");
    await waitUntil(async () => (await cards.count()) === 1, "one card matching 'LECTURE'");
    await expectAccessible(page, "/history/documents on a phone");
    await screenshot(page, "my-documents-390");
    await page.getByRole("searchbox", { name: "Search documents" }).fill("nothing-like-this");
    await page.getByText("No documents found").waitFor();

    await page.getByRole("searchbox", { name: "Search documents" }).fill("");
    await waitUntil(async () => (await cards.count()) === 2, "two cards again");
    await cards.filter({ hasText: PDF_A }).getByRole("link", { name: PDF_A }).click();
    await page.getByRole("heading", { name: PDF_A, level: 1 }).waitFor();
    await expectAccessible(page, "document detail on a phone");
    await screenshot(page, "document-detail-390");
    await context.close();

    // Audio goes through the same POST + PUT flow; without a speech model the server fails it with a reason.
    const audio = await signedInPage(VIEWPORTS.desktop);
    await gotoHydrated(audio.page, `${server.url}/upload/audio`);
    await audio.page.getByTestId("audio-input").setInputFiles([{ name: "memo.wav", mimeType: "audio/wav", buffer: Buffer.concat([Buffer.from("RIFF"), Buffer.alloc(2048, 1)]) }]);
    await audio.page.getByTestId("audio-clip").waitFor();
    expect(await audio.page.getByTestId("upload-audio").getAttribute("aria-disabled")).toBeNull();
    await audio.page.getByTestId("upload-audio").click();
    await toast(audio.page, "Uploaded Audio").waitFor();
    await audio.page.waitForURL(`${server.url}/history/documents`, { timeout: 10_000 });
    await waitUntil(async () => (await audio.page.locator('[data-testid="document-row"][data-name="memo.wav"]').count()) === 1, "the audio row");
    await audio.context.close();
  });

  it("loads more rows of My Documents as the table nears the bottom instead of paging (spec 000 §2, §9)", async () => {
    const { context, page } = await signedInPage(VIEWPORTS.desktop);
    await gotoHydrated(page, `${server.url}/history/documents`);
    for (const n of [1, 2, 3, 4]) {
      await uploadThroughApi(page, { name: `scroll-note-${n}.txt`, type: "text/plain", bytes: Buffer.from(`Scroll note ${n}.`), pages: 1 });
    }
    const total = (await (await page.request.get(`${server.url}/api/documents?limit=1`)).json()).total as number;
    expect(total).toBeGreaterThan(5);
    await gotoHydrated(page, `${server.url}/history/documents?size=5`);
    const rows = page.getByTestId("document-row");
    // Five rows do not fill a 900 px window, so the next five follow by themselves; then scrolling brings the rest.
    await waitUntil(async () => (await rows.count()) > 5, "the next page of rows");
    await page.mouse.wheel(0, 5000);
    await waitUntil(async () => (await rows.count()) === total, "every row");
    expect(await page.getByTestId("range").textContent()).toContain(`${total} of ${total}`);
    expect(await page.getByRole("navigation", { name: "Pagination" }).count()).toBe(0);
    await screenshot(page, "my-documents-scrolled-1440");
    await context.close();
  });
});
