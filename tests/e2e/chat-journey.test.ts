import { readFile } from "node:fs/promises";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from "vitest";
import { startAppServer, type AppServer } from "./support/app-server";
import { gotoHydrated, launchBrowser, screenshot, VIEWPORTS } from "./support/browser";
import { askAndWait, chatA11yViolations, chatReady, csrfToken, createWorkspace, dangerousMarkup, passOnboardingIfAsked, signUpForChat, uploadThroughApi, waitForActive } from "./support/chat";
import { makePdf, waitUntil } from "./support/library";

/**
 * The chat journey of spec 001 §2/§4/§5 in Debian's Chromium against the built
 * app: ask a question about two PDFs, watch the answer stream, open its page-2
 * citation, regenerate and switch versions, dislike, copy, change the chat
 * settings, download the chat as a PDF; then make an answer quote hostile text
 * and check nothing runs.
 */
let server: AppServer;
let browser: Browser;
let storageState: Awaited<ReturnType<BrowserContext["storageState"]>>;
let workspaceId = "";
let docNames: Record<string, string> = {};

const PDF_A = "harbour-survey.pdf";
const PDF_B = "gardening-notes.pdf";
const FACT = "Marisol Quenby counted 417 grey gulls on the breakwater.";
const QUESTION = "How many gulls did Marisol Quenby count on the breakwater?";

const toast = (page: Page, text: string) => page.getByTestId("toast").filter({ hasText: text }).first();

async function signedInPage(viewport: { width: number; height: number }, inTest = true) {
  const context = await browser.newContext({ viewport, storageState, acceptDownloads: true });
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: server.url });
  const page = await context.newPage();
  if (inTest) onTestFailed(async () => {
    await screenshot(page, `failed-${viewport.width}`).catch(() => undefined);
  });
  return { context, page };
}

async function expectChatAccessible(page: Page, where: string) {
  expect(await chatA11yViolations(page), `serious/critical axe violations in the chat (${where})`).toEqual([]);
}

beforeAll(async () => {
  server = await startAppServer();
  browser = await launchBrowser();
  ({ storageState } = await signUpForChat(browser, server.url));
  const { context, page } = await signedInPage(VIEWPORTS.desktop, false);
  await page.goto(`${server.url}/`);
  await passOnboardingIfAsked(page, server.url);
  storageState = await context.storageState();
  const a = await uploadThroughApi(page, {
    name: PDF_A,
    type: "application/pdf",
    bytes: await makePdf(["Harbour survey: introduction and method of counting.", FACT, "Appendix: weather tables."]),
    pages: 3,
  });
  const b = await uploadThroughApi(page, {
    name: PDF_B,
    type: "application/pdf",
    bytes: await makePdf(["Tomatoes need full sun and regular watering.", "Compost improves heavy clay soil."]),
    pages: 2,
  });
  docNames = { [a]: PDF_A, [b]: PDF_B };
  await waitForActive(page, [a, b]);
  workspaceId = await createWorkspace(page, "Harbour research", [a, b]);
  await context.close();
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe("the chat journey", () => {
  it("streams a cited answer, regenerates, rates, copies, changes settings and downloads", async () => {
    const { context, page } = await signedInPage(VIEWPORTS.desktop);
    const dialogs: string[] = [];
    page.on("dialog", (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    await page.goto(`${server.url}/workspace/${workspaceId}`);
    const chat = page.getByTestId("chat").first();
    await chat.getByTestId("suggested-question").first().waitFor();
    await chatReady(page);
    await expectChatAccessible(page, "empty chat");
    await screenshot(page, "chat-empty-1440");

    // Send is disabled while the box is blank.
    expect(await chat.getByTestId("send").isDisabled()).toBe(true);

    // '@' lists the workspace's documents; Enter inserts the highlighted one.
    const box = chat.getByTestId("chat-textarea");
    await box.click();
    await box.pressSequentially("@harb");
    await chat.getByTestId("mention-list").getByRole("option", { name: PDF_A }).waitFor();
    await box.press("Enter");
    expect(await box.inputValue()).toBe(`@${PDF_A} `);
    await box.fill("");

    // Ask; the answer streams (its text grows before the end), then cites page 2.
    const { answer, lengths } = await askAndWait(page, QUESTION);
    expect(lengths.length, `answer lengths seen while streaming: ${lengths.join(",")}`).toBeGreaterThan(1);
    expect(await answer.getAttribute("data-status")).toBe("complete");
    expect(await answer.getByTestId("answer-text").innerText()).toContain("417");
    const chip = answer.locator('[data-testid="citation-chip"][data-page="2"]');
    await chip.waitFor();
    expect(await chip.innerText()).toContain(`${PDF_A.slice(0, 16)} · p.2`);
    await expectChatAccessible(page, "answered chat");
    await screenshot(page, "chat-answer-1440");

    // Opening the citation: the screen's viewer tab if it is wired, otherwise the chat's event.
    await page.evaluate(() => {
      window.addEventListener("docuchat:open-citation", (e) => ((window as unknown as { __citation: unknown }).__citation = (e as CustomEvent).detail));
    });
    await chip.click();
    await waitUntil(
      async () => {
        const viaEvent = await page.evaluate(() => (window as unknown as { __citation?: { pageNumber: number } }).__citation?.pageNumber ?? null);
        if (viaEvent === 2) return true;
        return (await page.getByRole("tab", { name: new RegExp(PDF_A.replace(".", "\\.")) }).count()) > 0;
      },
      "the citation to open",
    );

    // Regenerate keeps the old answer: '2 / 2', then switch back and forth.
    await answer.getByTestId("regenerate").click();
    const counter = chat.getByTestId("version-counter");
    await waitUntil(async () => (await counter.innerText().catch(() => "")) === "2 / 2", "version 2 / 2");
    await waitUntil(async () => (await chat.getByTestId("bot-message").last().getAttribute("data-status")) === "complete", "regenerated answer complete");
    await chat.getByRole("button", { name: "Previous version" }).click();
    expect(await counter.innerText()).toBe("1 / 2");
    await chat.getByRole("button", { name: "Next version" }).click();
    expect(await counter.innerText()).toBe("2 / 2");

    // Dislike: the tooltip becomes 'Remove Dislike', and the rating is saved.
    const latest = chat.getByTestId("bot-message").last();
    const dislike = latest.getByTestId("dislike");
    await dislike.hover();
    await page.getByRole("tooltip", { name: "Dislike" }).first().waitFor();
    const rated = page.waitForResponse((r) => r.url().includes("/feedback") && r.request().method() === "PUT");
    await dislike.click();
    expect((await rated).status()).toBe(200);
    expect(await dislike.getAttribute("aria-label")).toBe("Remove Dislike");
    await page.mouse.move(0, 0);
    await dislike.hover();
    await page.getByRole("tooltip", { name: "Remove Dislike" }).first().waitFor();

    // Copy.
    await latest.getByTestId("copy-answer").click();
    await toast(page, "Text copied to clipboard").waitFor();
    const clipboard = await page.evaluate(() => navigator.clipboard.readText());
    expect(clipboard).toContain("417");

    // Chat Settings: font size Large, chat on the left (saved with the account).
    await latest.getByRole("button", { name: "Chat settings" }).click();
    const support = page.getByRole("dialog", { name: "Chat support" });
    await support.getByRole("tab", { name: "Chat Settings", selected: true }).waitFor();
    await support.getByRole("radio", { name: "Large" }).click();
    await support.getByRole("radio", { name: "Left" }).click();
    await waitUntil(async () => (await chat.getAttribute("data-font-size")) === "Large" && (await chat.getAttribute("data-side")) === "left", "Large, left");
    const chatBox = await chat.boundingBox();
    expect(chatBox && chatBox.x < VIEWPORTS.desktop.width / 2).toBe(true);
    await waitUntil(async () => {
      const saved = (await (await page.request.get(`${server.url}/api/chat-settings`)).json()) as { fontSize: string; isChatOnLeft: boolean };
      return saved.fontSize === "Large" && saved.isChatOnLeft;
    }, "the settings saved with the account");
    await expectChatAccessible(page, "settings open");
    await screenshot(page, "chat-settings-1440");

    // Download the chat as a PDF.
    await support.getByRole("tab", { name: "Download" }).click();
    await support.getByText("PDF (.pdf)").waitFor();
    await support.getByRole("textbox", { name: "Search documents" }).fill("no such file");
    await support.getByText("No matching documents found.").waitFor();
    const [download] = await Promise.all([page.waitForEvent("download"), support.getByTestId("download-pdf").click()]);
    const bytes = await readFile((await download.path()) ?? "");
    expect(bytes.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    await page.keyboard.press("Escape");

    // Another browser (only the session cookie in common) shows the same settings and the chat's two versions.
    const { context: elsewhere, page: other } = await signedInPage(VIEWPORTS.desktop);
    await other.goto(`${server.url}/workspace/${workspaceId}`);
    await other.getByTestId("chat").first().getByTestId("bot-message").first().waitFor();
    expect(await other.getByTestId("chat").first().getAttribute("data-side")).toBe("left");
    expect(await other.getByTestId("chat").first().getAttribute("data-font-size")).toBe("Large");
    await screenshot(other, "chat-left-large-1440");
    await elsewhere.close();
    expect(dialogs).toEqual([]);
    // The other journeys of this account expect the default layout.
    const reset = await page.request.put(`${server.url}/api/chat-settings`, {
      headers: { "X-CSRF-Token": await csrfToken(page), "Content-Type": "application/json" },
      data: { fontSize: "Medium", isChatOnLeft: false },
    });
    expect(await reset.json()).toMatchObject({ fontSize: "Medium", isChatOnLeft: false, chatbotWidth: 47, responseLanguage: "English" });
    await context.close();
  });

  it("shows the chat as a bottom sheet on a phone", async () => {
    const { context, page } = await signedInPage(VIEWPORTS.mobile);
    await gotoHydrated(page, `${server.url}/workspace/${workspaceId}`);
    await page.getByTestId("fab-chat").click();
    const sheet = page.locator(".dc-wsx-sheet [data-testid='chat']");
    await sheet.getByTestId("chat-empty").waitFor();
    await screenshot(page, "chat-sheet-390");
    await sheet.getByTestId("past-chats-toggle").click();
    await sheet.getByTestId("past-chats").getByRole("button").first().click();
    await sheet.getByTestId("bot-message").first().waitFor();
    await screenshot(page, "chat-sheet-history-390");
    await expectChatAccessible(page, "mobile sheet", );
    await context.close();
  });

  it("shows refusals in a red box and marks a cut-off answer as interrupted", async () => {
    const { context, page } = await signedInPage(VIEWPORTS.desktop);
    await gotoHydrated(page, `${server.url}/workspace/${workspaceId}`);
    await page.getByTestId("chat-now").click();
    const chat = page.getByTestId("chat").first();
    await waitUntil(async () => (await chat.getAttribute("data-conversation-id")) === "new-chat", "a new chat");
    const box = chat.getByTestId("chat-textarea");

    await page.route("**/api/conversations", (route) =>
      route.request().method() === "POST"
        ? route.fulfill({ status: 500, contentType: "application/json", body: JSON.stringify({ code: "CONVERSATION_CREATION_FAILURE", message: "The chat could not be started right now." }) })
        : route.continue(),
    );
    await box.fill("Is anyone there?");
    await box.press("Enter");
    const error = chat.getByTestId("chat-error");
    await error.getByText("The chat could not be started right now.").waitFor();
    expect(await error.getAttribute("data-code")).toBe("CONVERSATION_CREATION_FAILURE");
    await page.unroute("**/api/conversations");

    await page.route("**/messages_stream", (route) =>
      route.fulfill({ status: 429, contentType: "application/json", body: JSON.stringify({ code: "MESSAGE_CREATION_FAILURE", message: "You have used this month's 500 messages." }) }),
    );
    await box.fill("Is anyone there?");
    await box.press("Enter");
    await error.getByText("You have used this month's 500 messages.").waitFor();
    expect(await error.getAttribute("data-code")).toBe("MESSAGE_CREATION_FAILURE");
    // The refused question goes back into the box.
    expect(await box.inputValue()).toBe("Is anyone there?");
    await page.unroute("**/messages_stream");

    await page.route("**/messages_stream", (route) => route.fulfill({ status: 200, contentType: "text/plain", body: "The answer starts but the connection" }));
    await box.press("Enter");
    const cut = chat.getByTestId("bot-message").last();
    await cut.getByTestId("interrupted").getByText("This answer was interrupted.").waitFor();
    expect(await cut.getByTestId("answer-text").innerText()).toContain("The answer starts");
    await cut.getByTestId("interrupted").getByRole("button", { name: "Regenerate" }).waitFor();
    await page.unroute("**/messages_stream");

    // Markdown of an answer: no raw HTML, no script links, foreign images as links; code blocks and a mermaid diagram.
    const markdown = [
      "Here is **bold**, a [bad link](javascript:alert(1)), a [good link](https://example.org/a) and ![tracker](https://evil.example/x.png) <b>raw</b>.",
      "",
      "```js",
      "const answer = 42;",
      "```",
      "",
      "```mermaid",
      "graph TD",
      "  A[Question] --> B[Answer]",
      "```",
    ].join("\n");
    const meta = { message_id: "m-markdown", question_id: "", conversation_id: "", citations: [], model: "test-model", usage: null, first_token_ms: 5 };
    await page.route("**/messages_stream", (route) => route.fulfill({ status: 200, contentType: "text/plain", body: `${markdown}[END]${JSON.stringify(meta)}` }));
    await box.fill("Show me some markdown");
    await box.press("Enter");
    const md = chat.getByTestId("bot-message").last();
    await waitUntil(async () => (await md.getAttribute("data-status")) === "complete", "markdown answer complete");
    const body = md.getByTestId("answer-text");
    expect(await body.locator("strong").innerText()).toBe("bold");
    expect(await body.locator("b").count()).toBe(0);
    expect(await body.getByText("bad link").evaluate((el) => el.closest("a")?.getAttribute("href") ?? null)).toBeNull();
    const good = body.getByRole("link", { name: "good link" });
    expect(await good.getAttribute("href")).toBe("https://example.org/a");
    expect(await good.getAttribute("rel")).toBe("noopener noreferrer nofollow");
    expect(await good.getAttribute("target")).toBe("_blank");
    expect(await body.locator('img[src^="https://evil"]').count()).toBe(0);
    expect(await body.getByRole("link", { name: "tracker" }).getAttribute("href")).toBe("https://evil.example/x.png");
    const blocks = md.getByTestId("code-block");
    expect(await blocks.first().locator(".dc-chat-code__lang").innerText()).toBe("js");
    await blocks.nth(1).getByTestId("mermaid-diagram").locator("img").waitFor();
    await blocks.nth(1).getByRole("button", { name: "Source" }).click();
    expect(await blocks.nth(1).locator("pre").innerText()).toContain("graph TD");
    await blocks.nth(1).getByRole("button", { name: "Diagram" }).click();
    await blocks.nth(1).getByTestId("mermaid-diagram").waitFor();
    await blocks.first().getByRole("button", { name: "Collapse code" }).click();
    expect(await blocks.first().locator("pre").isVisible()).toBe(false);
    expect(await dangerousMarkup(page)).toEqual([]);
    await page.unroute("**/messages_stream");

    // The viewer's selection tip: Insert in Chat quotes the text on the draft; Explain asks at once.
    await page.evaluate(() => window.dispatchEvent(new CustomEvent("docuchat:viewer-selection", { detail: { action: "insert", text: "grey gulls on the breakwater" } })));
    await chat.getByTestId("draft-selected-text").getByText("grey gulls on the breakwater").waitFor();
    await chat.getByRole("button", { name: "Remove selected text" }).click();
    await page.evaluate(() => window.dispatchEvent(new CustomEvent("docuchat:viewer-selection", { detail: { action: "explain", text: "grey gulls??" } })));
    await chat.getByTestId("user-message").filter({ hasText: 'Explain "grey gulls"?' }).waitFor();
    await waitUntil(async () => (await chat.getByTestId("bot-message").last().getAttribute("data-status")) === "complete", "explain answered");

    // Images: Add Link is disabled while empty; a device image shows as a thumbnail with the model's limit stated.
    await chat.getByTestId("attach-image").click();
    const attach = page.getByRole("dialog", { name: "Attach image" });
    expect(await attach.getByTestId("add-image-link").isDisabled()).toBe(true);
    const png = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==", "base64");
    await attach.getByTestId("image-file-input").setInputFiles([{ name: "dot.png", mimeType: "image/png", buffer: png }]);
    await chat.getByTestId("draft-image").first().waitFor();
    await chat.getByText("the built-in model reads only your documents' text").waitFor();
    await screenshot(page, "chat-errors-1440");
    await expectChatAccessible(page, "errors");
    // Sent, the image is kept with the chat; the built-in model says plainly that it cannot read it.
    await box.fill("What does this picture show?");
    await box.press("Enter");
    const asked = chat.getByTestId("user-message").filter({ hasText: "What does this picture show?" });
    const sentImage = asked.getByRole("img", { name: "Attached image 1" });
    await waitUntil(async () => (await sentImage.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)) === 1, "the attached image loaded from the server");
    expect(await sentImage.getAttribute("src")).toMatch(/^\/api\/conversations\/[\w-]+\/media\/[\w-]+$/);
    await waitUntil(async () => (await chat.getByTestId("bot-message").last().getAttribute("data-status")) === "complete", "image question answered");
    expect(await chat.getByTestId("bot-message").last().getByTestId("answer-text").innerText()).toMatch(/^I can't read images/);
    expect(await chat.getByTestId("draft-images").count()).toBe(0);
    // An image link the server may not fetch (a loopback address): a red box says why; question and image stay.
    await chat.getByTestId("attach-image").click();
    await page.getByRole("dialog", { name: "Attach image" }).getByLabel("Add Link of Image").fill("https://127.0.0.1/private.png");
    await page.getByRole("dialog", { name: "Attach image" }).getByTestId("add-image-link").click();
    await box.fill("And this one?");
    await box.press("Enter");
    await error.getByText(/^The image could not be fetched: /).waitFor();
    expect(await box.inputValue()).toBe("And this one?");
    expect(await chat.getByTestId("draft-image").count()).toBe(1);
    await chat.getByRole("button", { name: "Remove image 1" }).click();
    await box.fill("");

    // After a reload the question still shows its image.
    await page.reload();
    const reloaded = chat.getByTestId("user-message").filter({ hasText: "What does this picture show?" }).getByRole("img", { name: "Attached image 1" });
    await reloaded.waitFor();
    // Over HTTP: the bytes decide (an SVG claiming to be a PNG is refused), and another user cannot fetch the image.
    const imageUrl = `${server.url}${await reloaded.getAttribute("src")}`;
    const conversationMedia = imageUrl.replace(/\/[\w-]+$/, "");
    const headers = { "X-CSRF-Token": await csrfToken(page), "Content-Type": "image/png" };
    const svg = await page.request.post(conversationMedia, { headers, data: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>') });
    expect(svg.status()).toBe(422);
    expect(await svg.json()).toMatchObject({ message: "Only PNG, JPEG, GIF or WebP images can be attached." });
    const mine = await page.request.get(imageUrl);
    expect([mine.status(), mine.headers()["content-type"], mine.headers()["x-content-type-options"]]).toEqual([200, "image/png", "nosniff"]);
    const { storageState: strangerState } = await signUpForChat(browser, server.url);
    const stranger = await browser.newContext({ storageState: strangerState });
    expect((await stranger.request.get(imageUrl)).status()).toBe(404);
    await stranger.close();

    // "Chat Now" again starts another new chat.
    await page.getByTestId("chat-now").click();
    await waitUntil(async () => (await chat.getAttribute("data-conversation-id")) === "new-chat", "another new chat");
    await chat.getByTestId("chat-empty").waitFor();
    await context.close();
  });

  it("renders hostile document text and names inertly", async () => {
    const { context, page } = await signedInPage(VIEWPORTS.desktop);
    const dialogs: string[] = [];
    page.on("dialog", (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    await page.goto(`${server.url}/`);
    const hostileName = "<svg onload=alert(1)>.txt";
    const text = [
      "The zanzibar quokka festival begins at dawn <img src=x onerror=alert(1)> with drums.",
      "The zanzibar quokka festival tickets are here [click](javascript:alert(1)) for everyone.",
      "The zanzibar quokka festival ends <script>alert(1)</script> at midnight.",
    ].join("\n");
    const id = await uploadThroughApi(page, { name: hostileName, type: "text/plain", bytes: Buffer.from(text, "utf8"), pages: 1 });
    await waitForActive(page, [id]);
    const ws = await createWorkspace(page, "Hostile text", [id]);
    await page.goto(`${server.url}/workspace/${ws}`);
    const chat = page.getByTestId("chat").first();
    await chatReady(page);
    const box = chat.getByTestId("chat-textarea");
    await box.fill("When does the zanzibar quokka festival begin and end?");
    await box.press("Enter");
    await waitUntil(async () => (await chat.getByTestId("bot-message").last().getAttribute("data-status")) === "complete", "hostile answer complete", 60_000);
    const answerText = await chat.getByTestId("bot-message").last().getByTestId("answer-text").innerText();
    expect(answerText).toContain("quokka");
    await chat.locator('[data-testid="citation-chip"]').first().waitFor();
    expect(await chat.locator('[data-testid="citation-chip"]').first().innerText()).toContain(hostileName.slice(0, 16));
    // Mention the hostile name too, so it is rendered in the mention list.
    await box.fill("@<svg");
    await page.waitForTimeout(300);
    expect(await dangerousMarkup(page)).toEqual([]);
    expect(await page.locator('[data-testid="chat"] script, [data-testid="chat"] svg[onload], [data-testid="chat"] img[onerror]').count()).toBe(0);
    await page.waitForTimeout(500);
    expect(dialogs).toEqual([]);
    await screenshot(page, "chat-hostile-1440");
    await context.close();
  });
});
