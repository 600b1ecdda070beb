import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startAppServer, type AppServer } from "./support/app-server";
import { gotoHydrated, launchBrowser, screenshot, phoneLayoutProblems, seriousA11yViolations, VIEWPORTS } from "./support/browser";
import { askAndWait, chatReady, createWorkspace } from "./support/chat";
import { makePdf } from "./support/library";
import { csrfToken, signUpNewUser, toast, uploadTextDocument, waitForActive, waitUntil } from "./support/workspace";

/**
 * Communities in Debian's Chromium against the built app (issue 17), with
 * three people: Ann creates a public community and contributes a PDF from the
 * upload screen; Ben finds it, joins, previews the PDF, adds it to his
 * workspace and gets an answer cited from it; Ann removes the PDF and Ben's
 * next question no longer reaches it; Cy, a viewer of a private community,
 * cannot open anything. Then the abuse cases over the JSON API.
 */
type State = Awaited<ReturnType<BrowserContext["storageState"]>>;
let server: AppServer;
let browser: Browser;
const people: Record<"ann" | "ben" | "cy", { username: string; storageState: State }> = {} as never;
const ids: Record<string, string> = {};

const COMMUNITY = "Solar Energy Circle";
const PDF = "solar-panels-guide.pdf";
const FACT = "A photovoltaic panel converts sunlight into electricity with an efficiency of about twenty percent.";

async function pageOf(who: keyof typeof people, viewport: { width: number; height: number } = VIEWPORTS.desktop) {
  const context = await browser.newContext({ viewport, storageState: people[who].storageState });
  return { context, page: await context.newPage() };
}

async function expectAccessible(page: Page, where: string) {
  expect(await seriousA11yViolations(page), `serious/critical axe violations on ${where}`).toEqual([]);
}

/** A JSON call from the page with its CSRF header: status and body. */
async function api(page: Page, method: string, url: string, body?: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const token = await csrfToken(page);
  return page.evaluate(
    async ({ method, url, body, token }) => {
      const response = await fetch(url, {
        method,
        headers: { "Content-Type": "application/json", Accept: "application/json", "X-CSRF-Token": token },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      let parsed: Record<string, unknown> = {};
      try {
        parsed = JSON.parse(text) as Record<string, unknown>;
      } catch {
        parsed = { text };
      }
      return { status: response.status, body: parsed };
    },
    { method, url, body, token },
  );
}

const status = (page: Page, url: string) => page.evaluate(async (u) => (await fetch(u)).status, url);

beforeAll(async () => {
  server = await startAppServer();
  browser = await launchBrowser();
  people.ann = await signUpNewUser(browser, server.url);
  people.ben = await signUpNewUser(browser, server.url);
  people.cy = await signUpNewUser(browser, server.url);
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe("the community journey", () => {
  it("Ann creates a public community and contributes a PDF from the upload screen", async () => {
    const { context, page } = await pageOf("ann");
    await gotoHydrated(page, `${server.url}/community/publicCommunity`);
    await page.getByRole("heading", { name: "Public Communities" }).waitFor();
    await page.getByTestId("communities-empty").getByText("No Public Community Created yet.").waitFor();
    await expectAccessible(page, "/community/publicCommunity (empty)");

    await page.getByTestId("create-community").click();
    const dialog = page.getByRole("dialog", { name: "Create New Public Community" });
    await dialog.waitFor();
    expect(await dialog.getByTestId("confirm-create-community").isDisabled()).toBe(true);
    await dialog.getByLabel("Community Name").fill(COMMUNITY);
    await dialog.getByLabel("Community Description").focus();
    await dialog.getByLabel("Community Name").focus();
    await dialog.getByText("Community Description is required").waitFor();
    await dialog.getByLabel("Community Description").fill("Guides to solar power for homes and schools.");
    await screenshot(page, "community-create-1440");
    await dialog.getByTestId("confirm-create-community").click();
    await page.waitForURL(/\/community\/publicCommunity\/[^/]+$/);
    ids.community = new URL(page.url()).pathname.split("/")[3];
    await page.getByTestId("community-name").getByText(COMMUNITY).waitFor();
    await page.getByTestId("resources-empty").getByText("No documents available for this community.").waitFor();
    expect(await page.getByTestId("community-role").textContent()).toBe("Owner");

    // Contribute from the upload screen: share with community → Public → this community.
    await gotoHydrated(page, `${server.url}/upload/files`);
    await page.getByTestId("file-input").setInputFiles([{ name: PDF, mimeType: "application/pdf", buffer: await makePdf([FACT, "Panels face south in the northern hemisphere."]) }]);
    await page.getByTestId("advanced-settings-toggle").click();
    await page.getByTestId("share-with-community").click();
    await page.getByRole("radio", { name: "Public" }).click();
    await page.getByTestId("share-community-select").click();
    await page.getByRole("option", { name: COMMUNITY }).click();
    await screenshot(page, "community-upload-share-1440");
    await page.getByTestId("upload-files").click();
    await toast(page, "Uploaded All Files").waitFor({ timeout: 30_000 });

    // Once ingestion made it ACTIVE, the PDF is in the community (a reactor on the library's event).
    await gotoHydrated(page, `${server.url}/community/publicCommunity/${ids.community}`);
    await waitUntil(
      async () => {
        await page.reload();
        return (await page.getByTestId("resource-row").count()) === 1;
      },
      "the uploaded PDF to join the community",
      90_000,
      1500,
    );
    ids.pdf = (await page.getByTestId("resource-row").first().getAttribute("data-document-id")) ?? "";
    // Names are cut at 15 characters, dates are dd-mm-yyyy (spec 001 §9).
    expect(await page.getByTestId("resource-name").first().textContent()).toBe(`${PDF.slice(0, 15)}…`);
    await page.getByTestId("resource-row").first().getByText(/\d{2}-\d{2}-\d{4}/).waitFor();
    await screenshot(page, "community-detail-owner-1440");
    await expectAccessible(page, "/community/publicCommunity/{id} (owner)");
    await context.close();
  }, 180_000);

  it("Ben finds it, joins, previews the PDF, adds it to his workspace and gets a cited answer", async () => {
    const { context, page } = await pageOf("ben");
    await page.goto(`${server.url}/`);
    ids.benNotes = await uploadTextDocument(page, "ben-notes.txt", "Ben keeps a list of garden chores: water the tomatoes, prune the roses.");
    await waitForActive(page, [ids.benNotes]);
    ids.workspace = await createWorkspace(page, "Ben's study", [ids.benNotes]);

    await gotoHydrated(page, `${server.url}/community/publicCommunity`);
    await page.getByLabel("Search Name").fill("SOLAR");
    await page.locator(`[data-testid="community-row"][data-name="${COMMUNITY}"]`).waitFor();
    await page.getByLabel("Search Name").fill("no such community");
    await page.getByText("No matching Community found.").waitFor();
    await page.getByLabel("Search Name").fill("solar");
    await page.getByRole("link", { name: COMMUNITY }).click();
    await page.waitForURL(new RegExp(`/community/publicCommunity/${ids.community}$`));
    await page.getByTestId("resource-row").first().waitFor();
    expect(await page.getByTestId("community-role").textContent()).toBe("Viewer");
    // A viewer sees the list but has nothing to open.
    expect(await page.getByTestId("open-resource").count()).toBe(0);
    expect(await status(page, `/documents/download/${ids.pdf}?inline=1`)).toBe(404);
    await screenshot(page, "community-detail-viewer-1440");

    await page.getByTestId("join-community").click();
    await page.getByRole("alertdialog").getByText("Are you sure you want to join this community?").waitFor();
    await page.getByTestId("confirm-join").click();
    await toast(page, "You joined the community.").waitFor();
    await waitUntil(async () => (await page.getByTestId("community-role").textContent()) === "Member", "Ben to be a member");

    await page.getByTestId("open-resource").first().click();
    const preview = page.getByTestId("resource-preview");
    await preview.waitFor();
    expect(await status(page, `/documents/download/${ids.pdf}?inline=1`)).toBe(200);
    await screenshot(page, "community-detail-member-preview-1440");
    await expectAccessible(page, "/community/publicCommunity/{id} (member)");

    await page.getByTestId("add-to-workspace").first().click();
    // The dialog's picker is the workspace switcher: searched and paged on the server.
    await page.getByTestId("workspace-select").click();
    await page.getByTestId("switcher-item").first().waitFor();
    await screenshot(page, "community-add-to-workspace-1440");
    await page.getByTestId("switcher-item").filter({ hasText: "Ben's study" }).click();
    await page.getByTestId("workspace-select").filter({ hasText: "Ben's study" }).waitFor();
    await page.getByTestId("confirm-add-to-workspace").click();
    await toast(page, "Added to your workspace.").waitFor();

    await page.goto(`${server.url}/workspace/${ids.workspace}`);
    await chatReady(page);
    const { answer } = await askAndWait(page, "What is the efficiency of a photovoltaic panel?");
    await answer.locator(`[data-testid="citation-chip"][data-document-id="${ids.pdf}"]`).first().waitFor();
    expect(await answer.textContent()).toMatch(/converts sunlight into electricity/);
    await screenshot(page, "community-shared-answer-1440");
    await context.close();
  }, 180_000);

  it("Ann removes the PDF, and Ben's next question no longer reaches it", async () => {
    const annSide = await pageOf("ann");
    await gotoHydrated(annSide.page, `${server.url}/community/publicCommunity/${ids.community}`);
    await annSide.page.getByTestId("remove-resource").first().click();
    await toast(annSide.page, "Document removed from the community.").waitFor();
    await annSide.page.getByTestId("resources-empty").waitFor();
    await annSide.context.close();

    const { context, page } = await pageOf("ben");
    await page.goto(`${server.url}/workspace/${ids.workspace}`);
    await chatReady(page);
    const { answer } = await askAndWait(page, "How efficient is a photovoltaic panel at converting sunlight?");
    expect(await answer.locator(`[data-testid="citation-chip"][data-document-id="${ids.pdf}"]`).count()).toBe(0);
    expect(await answer.textContent()).not.toMatch(/converts sunlight into electricity/);
    expect(await status(page, `/documents/download/${ids.pdf}?inline=1`)).toBe(404);
    expect(await status(page, `/api/documents/${ids.pdf}/pages/1`)).toBe(404);
    await context.close();
  }, 120_000);

  it("Ben adds a file, Cy reports it, Ann removes it from Settings, and Ben is told", async () => {
    const ben = await pageOf("ben");
    await ben.page.goto(`${server.url}/`);
    // More ready files than one page of 'Add New Files' (20), so ben-notes.txt, his oldest, is only reached by scrolling.
    const extras: string[] = [];
    for (let n = 1; n <= 20; n++) extras.push(await uploadTextDocument(ben.page, `ben-extra-${String(n).padStart(2, "0")}.txt`, `Extra note ${n}.`));
    await waitForActive(ben.page, extras, 120_000);
    await gotoHydrated(ben.page, `${server.url}/community/publicCommunity/${ids.community}`);
    await ben.page.getByTestId("add-files").click();
    const add = ben.page.getByRole("dialog", { name: "Add New Files" });
    const items = add.getByTestId("add-files-item");
    await waitUntil(async () => (await items.count()) === 20, "the first page of Ben's files");
    expect(await add.getByTestId("confirm-add-files").isDisabled()).toBe(true);
    await expectAccessible(ben.page, "Add New Files");
    await screenshot(ben.page, "community-add-files-1440");
    await add.getByTestId("add-files-list").evaluate((box) => box.scrollTo(0, box.scrollHeight));
    await waitUntil(async () => (await items.count()) === 21, "the next page once the list is scrolled to its end");
    await add.getByText("ben-notes.txt").click();
    // The choice survives a search on the server that hides it.
    await add.getByLabel("Search your files by name").fill("EXTRA-07");
    await waitUntil(async () => (await items.count()) === 1, "the search's one match");
    await add.getByText("ben-extra-07.txt").waitFor();
    expect(await add.getByTestId("confirm-add-files").isDisabled()).toBe(false);
    await add.getByLabel("Search your files by name").fill("");
    await waitUntil(async () => (await items.count()) === 20, "the first page again");
    await add.getByTestId("confirm-add-files").click();
    await toast(ben.page, "File added to the community.").waitFor();
    await ben.page.locator(`[data-testid="resource-row"][data-document-id="${ids.benNotes}"]`).waitFor();
    // Opened again, the file is shown as already in the community and cannot be chosen twice.
    await ben.page.getByTestId("add-files").click();
    await add.getByLabel("Search your files by name").fill("ben-notes");
    const held = add.getByTestId("add-files-item").filter({ hasText: "ben-notes.txt" });
    await held.getByText("Already in this community").waitFor();
    expect(await held.getByRole("checkbox").isDisabled()).toBe(true);
    await screenshot(ben.page, "community-add-files-held-1440");
    await ben.page.keyboard.press("Escape");
    await add.waitFor({ state: "hidden" });
    // On a phone, by keyboard: Tab from the search reaches the first file, Space chooses it.
    const phone = await pageOf("ben", VIEWPORTS.mobile);
    await gotoHydrated(phone.page, `${server.url}/community/publicCommunity/${ids.community}`);
    await phone.page.getByTestId("add-files").click();
    const addOnPhone = phone.page.getByRole("dialog", { name: "Add New Files" });
    await waitUntil(async () => (await addOnPhone.getByTestId("add-files-item").count()) === 20, "the first page on a phone");
    await addOnPhone.getByLabel("Search your files by name").focus();
    await phone.page.keyboard.press("Tab");
    await phone.page.keyboard.press("Space");
    expect(await addOnPhone.getByTestId("confirm-add-files").isDisabled()).toBe(false);
    await screenshot(phone.page, "community-add-files-390");
    await expectAccessible(phone.page, "Add New Files (390 px)");
    await phone.context.close();

    const cy = await pageOf("cy");
    await cy.page.goto(`${server.url}/`);
    expect((await api(cy.page, "POST", `/api/communities/${ids.community}/join`)).body.role).toBe("MEMBER");
    await gotoHydrated(cy.page, `${server.url}/community/publicCommunity/${ids.community}`);
    await cy.page.getByTestId("report-resource").first().click();
    const report = cy.page.getByRole("dialog", { name: /Report/ });
    await report.getByLabel("Reason").fill("Garden chores are off topic here.");
    await report.getByRole("button", { name: "Report" }).click();
    await toast(cy.page, "The moderators will look at it.").waitFor();
    await cy.context.close();

    const ann = await pageOf("ann");
    await gotoHydrated(ann.page, `${server.url}/community/publicCommunity/${ids.community}`);
    await ann.page.getByTestId("community-settings").click();
    const settings = ann.page.getByRole("dialog", { name: "Settings" });
    await settings.getByTestId("report-row").getByText("Garden chores are off topic here.", { exact: false }).waitFor();
    await settings.getByRole("button", { name: "Remove document" }).click();
    await toast(ann.page, "Document removed from the community.").waitFor();
    await ann.context.close();

    await gotoHydrated(ben.page, `${server.url}/community/myCommunity`);
    await ben.page.getByTestId("removal-notices").getByText(/A moderator removed “ben-notes.txt” from Solar Energy Circle/).waitFor();
    await screenshot(ben.page, "community-removal-notice-1440");
    await ben.context.close();
  }, 240_000);

  it("Cy, a viewer of a private community, cannot open anything, and strangers never learn it exists", async () => {
    const ann = await pageOf("ann");
    await ann.page.goto(`${server.url}/`);
    const created = await api(ann.page, "POST", "/api/communities", { community_name: "Board Room", description: "Private minutes", visibility: "PRIVATE" });
    expect(created.status).toBe(201);
    ids.private = created.body.community_id as string;
    ids.minutes = await uploadTextDocument(ann.page, "board-minutes.txt", "The board approved the new budget of four million.");
    await waitForActive(ann.page, [ids.minutes]);
    expect((await api(ann.page, "POST", `/api/communities/${ids.private}/attach_resources`, { resources: [{ id: `DOCUMENT_${ids.minutes}`, type: "DOCUMENT" }] })).status).toBe(200);
    // Settings: add Cy as a viewer by username.
    await gotoHydrated(ann.page, `${server.url}/community/myCommunity/${ids.private}`);
    await ann.page.getByTestId("community-settings").click();
    const settings = ann.page.getByRole("dialog", { name: "Settings" });
    await settings.getByLabel("Add by username").fill(people.cy.username);
    await settings.getByRole("combobox", { name: "Role of the new member" }).click();
    await ann.page.getByRole("option", { name: "Viewer" }).click();
    await settings.getByRole("button", { name: "Add", exact: true }).click();
    await toast(ann.page, "Member added.").waitFor();
    await screenshot(ann.page, "community-settings-1440");
    await ann.context.close();

    const { context, page } = await pageOf("cy", VIEWPORTS.mobile);
    await gotoHydrated(page, `${server.url}/community/myCommunity`);
    await page.getByRole("link", { name: "Board Room" }).click();
    await page.getByTestId("resource-row").first().waitFor();
    expect(await page.getByTestId("community-role").textContent()).toBe("Viewer");
    expect(await page.getByTestId("open-resource").count()).toBe(0);
    await screenshot(page, "community-detail-private-viewer-390");
    expect(await phoneLayoutProblems(page), "the community detail at 390 px").toEqual([]);
    await expectAccessible(page, "/community/myCommunity/{id} (viewer, 390 px)");
    expect(await status(page, `/documents/download/${ids.minutes}?inline=1`)).toBe(404);
    expect(await status(page, `/api/documents/${ids.minutes}/pages/1`)).toBe(404);
    expect((await api(page, "POST", `/api/communities/${ids.private}/resources`, { resource_id: `DOCUMENT_${ids.minutes}`, type: "DOCUMENT" })).status).toBe(404);
    // Adding it to a workspace is refused too.
    const cyNotes = await uploadTextDocument(page, "cy.txt", "Cy's reading list.");
    await waitForActive(page, [cyNotes]);
    const cyWorkspace = await createWorkspace(page, "Cy's desk", [cyNotes]);
    const attach = await api(page, "POST", `/api/workspaces/${cyWorkspace}/attach`, { documentIds: [ids.minutes] });
    expect((attach.body.results as { status: string }[])[0].status).toBe("ATTACH_FAILED");
    await context.close();

    // Ben is a stranger to it: 404 everywhere, never 403, and no trace in the public list.
    const ben = await pageOf("ben", VIEWPORTS.mobile);
    await ben.page.goto(`${server.url}/`);
    expect(await status(ben.page, `/community/myCommunity/${ids.private}`)).toBe(404);
    expect(await status(ben.page, `/community/publicCommunity/${ids.private}`)).toBe(404);
    expect((await api(ben.page, "GET", `/api/communities/${ids.private}`)).status).toBe(404);
    expect((await api(ben.page, "POST", `/api/communities/${ids.private}/join`)).status).toBe(404);
    const listed = await api(ben.page, "GET", "/api/communities/public?q=board");
    expect(listed.body.communities).toEqual([]);
    await gotoHydrated(ben.page, `${server.url}/community/publicCommunity`);
    await ben.page.locator(`[data-testid="community-row"][data-name="${COMMUNITY}"]`).waitFor();
    await screenshot(ben.page, "community-public-list-390");
    expect(await phoneLayoutProblems(ben.page), "Public Communities at 390 px").toEqual([]);
    await expectAccessible(ben.page, "/community/publicCommunity (390 px)");
    await ben.context.close();
  }, 180_000);

  it("refuses duplicate names in any case, someone else's document, and keeps markup in names inert", async () => {
    const { context, page } = await pageOf("ben");
    await page.goto(`${server.url}/`);
    const duplicate = await api(page, "POST", "/api/communities", { community_name: "  solar ENERGY circle ", description: "Copycat", visibility: "PUBLIC" });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body.code).toBe("COMMUNITY_NAME_TAKEN");

    const xss = '<img src=x onerror="window.__pwned=1">';
    const created = await api(page, "POST", "/api/communities", { community_name: `Ben ${xss}`, description: `<script>window.__pwned=2</script>`, visibility: "PUBLIC" });
    expect(created.status).toBe(201);
    const benCommunity = created.body.community_id as string;
    // Ann's document stays Ann's: Ben cannot contribute it.
    const foreign = await api(page, "POST", `/api/communities/${benCommunity}/attach_resources`, { resources: [{ id: `DOCUMENT_${ids.pdf}`, type: "DOCUMENT" }] });
    expect(foreign.status).toBe(404);

    await gotoHydrated(page, `${server.url}/community/publicCommunity/${benCommunity}`);
    await page.getByTestId("community-name").getByText(`Ben ${xss}`).waitFor();
    expect(await page.locator('[data-testid="community-name"] img, [data-testid="community-description"] script').count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned ?? null)).toBeNull();
    await gotoHydrated(page, `${server.url}/community/myCommunity`);
    await page.locator('[data-testid="community-row"]').first().waitFor();
    expect(await page.locator('[data-testid="community-row"] img').count()).toBe(0);
    await screenshot(page, "community-my-list-1440");

    // Delete selected really deletes for the owner.
    await page.getByRole("checkbox", { name: `Select Ben ${xss}` }).click();
    await page.getByTestId("delete-selected").click();
    await page.getByText("Are you sure you want to delete the community?").waitFor();
    await page.getByTestId("confirm-delete").click();
    await toast(page, "Community deleted").waitFor();
    expect((await api(page, "GET", `/api/communities/${benCommunity}`)).status).toBe(404);
    await context.close();
  }, 120_000);
});
