import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Browser, BrowserContext, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from "vitest";
import { embeddingRequest, embeddingResponse, errorBody, writeStream } from "#infrastructure/ai/testing/provider-wire";
import { PASSWORD } from "./support/account";
import { startAppServer, type AppServer } from "./support/app-server";
import { gotoHydrated, launchBrowser, screenshot, seriousA11yViolations, VIEWPORTS } from "./support/browser";
import { askAndWait, chatReady, createWorkspace, uploadThroughApi, waitForActive } from "./support/chat";
import { makePdf, signUpNewUser, waitUntil } from "./support/library";
import { createWorkspaceThroughWizard, viewerState, waitForViewer } from "./support/viewer";
import { toast } from "./support/workspace";

/**
 * AI providers (issue #9) in a real browser against the built app, with a
 * local OpenAI-compatible server on 127.0.0.1 that the app may reach only
 * because its name is in EGRESS_ALLOW_PRIVATE_HOSTS. The name is `localhost`,
 * which every machine resolves to loopback, so the journey needs no
 * /etc/hosts entry; the bare address 127.0.0.1 stays refused.
 *
 * - Chat Settings: add a key (a private address that is not allow-listed is
 *   refused), make it a default, reveal it after confirming the password,
 *   edit it, switch back to the built-in model, delete it and see the
 *   remaining default fall back; the key is in no page data or log.
 * - The chat: with the key as the text default, a workspace made in the
 *   wizard starts on the key's model; a question there streams the local
 *   server's answer, which it builds from the prompt it receives: it cites the
 *   passage that holds the fact (valid, shown as a chip that opens the PDF at
 *   that page) and a passage it was never given (dropped). Switched back to
 *   the built-in model in Workspace Settings, the workspace answers without
 *   the server. A workspace made before the key picks the key's model in
 *   Workspace Settings; deleting the key brings the text default and that
 *   workspace back to the built-in model.
 * - The keyset API streams a test answer, and answers another user's keyset
 *   id with 404 everywhere.
 */

/** The egress allow-list matches names only, so this name passes while the literal 127.0.0.1 does not. */
const HOST = "localhost";
const KEY = "sk-e2e-LOCAL-5e3c1b9a7f";
const LLM_MODEL = "llama3.2";
const EMBEDDING_MODEL = "nomic-embed-text";

let server: AppServer;
let browser: Browser;
let llm: http.Server;
let llmPort = 0;
const llmRequests: string[] = [];
/** The chat completions the local server answered: streamed (an answer) or not (a summary, suggested questions). */
const completions: { stream: boolean; question: string | null }[] = [];
/** The questions of streamed answers, without the keyset API's test round trip. */
const streamedQuestions = () => completions.filter((c) => c.stream && c.question !== "Reply with the single word OK.").map((c) => c.question);

/** The passages of a prompt as the provider adapter numbers them: `[1] name, page n:\ntext`. */
function passagesIn(prompt: string) {
  const tags = [...prompt.matchAll(/^\[(\d+)\] [^\n]*, page (\d+):\n/gm)];
  return tags.map((m, i) => ({
    number: Number(m[1]),
    text: prompt.slice(m.index! + m[0].length, tags[i + 1]?.index ?? prompt.lastIndexOf("Question:")),
  }));
}

/** The local model's answer, in the text deltas it streams. */
const ANSWER_CHUNKS = ["The local model read that ", "Marisol Quenby counted ", "417 grey gulls ", "on the breakwater"];
/** As shown: the marker of the passage it was given becomes the first source, the one naming a passage it never had ([12]) is gone. */
const LOCAL_ANSWER = `${ANSWER_CHUNKS.join("")} [1].`;

/** A chat completion built from the request: the answer cites the passage that holds the fact, and a passage it was not given. */
function answerChat(body: { stream?: boolean; messages?: { role: string; content: string | { type: string; text?: string }[] }[] }, res: http.ServerResponse) {
  const last = [...(body.messages ?? [])].reverse().find((m) => m.role === "user");
  const prompt = typeof last?.content === "string" ? last.content : (last?.content ?? []).map((p) => p.text ?? "").join("\n");
  const question = /Question: ([^\n]*)\s*$/.exec(prompt)?.[1] ?? null;
  completions.push({ stream: body.stream === true, question });
  if (!body.stream) {
    // The workspace overview (summary, suggested questions) and the query rewrite ask without streaming.
    const content = /questions/i.test(prompt) ? "How many gulls were counted?\nWho counted them?" : "A harbour survey that counts grey gulls.";
    res.writeHead(200, { "content-type": "application/json" });
    return res.end(JSON.stringify({ id: "chatcmpl-1", object: "chat.completion", created: 1_731_000_000, model: LLM_MODEL, choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }], usage: { prompt_tokens: 20, completion_tokens: 8, total_tokens: 28 } }));
  }
  const passages = passagesIn(prompt);
  if (passages.length === 0) return writeStream("openai", res, ["OK"], { input: 3, output: 1 }, LLM_MODEL);
  const used = passages.find((p) => /gulls/.test(p.text)) ?? passages[0];
  // Slow frames, so the answer visibly grows in the browser; the markers are split like a real model's tokens.
  writeStream("openai", res, [...ANSWER_CHUNKS, ` [${used.number}`, "][12]."], { input: 120, output: 30 }, LLM_MODEL, undefined, 150);
}

beforeAll(async () => {
  llm = http.createServer((req, res) => {
    llmRequests.push(`${req.method} ${req.url}`);
    let raw = "";
    req.on("data", (chunk: Buffer) => (raw += chunk.toString()));
    req.on("end", () => {
      if (req.headers.authorization !== `Bearer ${KEY}`) {
        const { contentType, body } = errorBody("openai", 401);
        res.writeHead(401, { "content-type": contentType });
        return res.end(body);
      }
      if (req.method === "GET" && req.url === "/v1/models") {
        res.writeHead(200, { "content-type": "application/json" });
        return res.end(
          JSON.stringify({ object: "list", data: [{ id: LLM_MODEL, object: "model" }, { id: "qwen2.5", object: "model" }, { id: EMBEDDING_MODEL, object: "model" }] }),
        );
      }
      if (req.method === "POST" && req.url === "/v1/embeddings") {
        const request = embeddingRequest("openai", JSON.parse(raw));
        if (!request) return res.writeHead(400).end();
        // Any fixed-size vectors do: this journey checks the indexing the user sees, retrieval has its own tests.
        const vectors = request.texts.map((text) => [text.length % 7, 1, text.includes("gull") ? 1 : 0]);
        res.writeHead(200, { "content-type": "application/json" });
        return res.end(JSON.stringify(embeddingResponse("openai", vectors, request.texts, request.model ?? EMBEDDING_MODEL)));
      }
      if (req.method === "POST" && req.url === "/v1/chat/completions") return answerChat(JSON.parse(raw), res);
      res.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: "not found" } }));
    });
  });
  await new Promise<void>((resolve) => llm.listen(0, "127.0.0.1", resolve));
  llmPort = (llm.address() as AddressInfo).port;
  server = await startAppServer({ env: { EGRESS_ALLOW_PRIVATE_HOSTS: HOST, LOG_LEVEL: "debug" } });
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await new Promise<void>((resolve) => (llm ? llm.close(() => resolve()) : resolve()));
});

async function expectAccessible(page: Page, where: string) {
  expect(await seriousA11yViolations(page), `serious/critical axe violations on ${where}`).toEqual([]);
}

/** A new, onboarded user's signed-in context (desktop viewport). */
async function signedInContext(): Promise<BrowserContext> {
  const { storageState } = await signUpNewUser(browser, server.url);
  return browser.newContext({ viewport: VIEWPORTS.desktop, storageState });
}

const status = (page: Page) => page.getByTestId("settings-status");

async function chooseDefault(page: Page, scope: "text" | "image" | "embedding", label: RegExp) {
  await page.getByTestId(`tab-${scope}`).click();
  const select = page.getByTestId(`default-select-${scope}`);
  const value = await select.locator("option").filter({ hasText: label }).first().getAttribute("value");
  await select.selectOption(value!);
  await page.getByTestId(`save-default-${scope}`).click();
  await status(page).getByText(/default saved/).waitFor();
  return value!;
}

/** Opens 'Add Keys Now' (shown while the user has no key). */
async function openAddKey(page: Page): Promise<Locator> {
  await page.getByTestId("add-keys-now").click();
  const dialog = page.getByRole("dialog", { name: "Add a key" });
  await dialog.waitFor();
  return dialog;
}

/** Fills the Add Keys dialog for the local OpenAI-compatible server at `baseUrl`. */
async function fillLocalKey(dialog: Locator, name: string, baseUrl: string) {
  await dialog.getByLabel("Key name").fill(name);
  await dialog.getByLabel("Provider", { exact: true }).selectOption("OpenAI-compatible");
  await dialog.getByLabel("Sub-provider").selectOption("Ollama");
  await dialog.getByLabel(/Base URL/).fill(baseUrl);
  await dialog.getByLabel(/API key/).fill(KEY);
}

const KEY_ACCEPTED = "The provider accepted the key: 3 models available. Key saved.";

/** Opens Workspace Settings on its Chat Preferences tab. */
async function openChatPreferences(page: Page) {
  await page.getByTestId("open-settings").click();
  const dialog = page.getByRole("dialog", { name: "Workspace Settings" });
  await dialog.waitFor();
  await dialog.getByRole("tab", { name: "Chat Preferences" }).click();
  await page.getByTestId("pref-text").waitFor();
}

/** Picks the text model in the open Chat Preferences tab (opening its list unless it is open) and saves. */
async function chooseWorkspaceModel(page: Page, label: string) {
  const dialog = page.getByRole("dialog", { name: "Workspace Settings" });
  const trigger = page.getByTestId("pref-text");
  if ((await trigger.getAttribute("aria-expanded")) !== "true") await trigger.click();
  await page.getByRole("option", { name: label }).click();
  expect(await page.getByTestId("pref-text").innerText()).toBe(label);
  await dialog.getByRole("button", { name: "Save" }).click();
  await toast(page, "Chat preferences saved").waitFor();
  await dialog.waitFor({ state: "hidden" });
}

describe("bring-your-own provider keys", () => {
  it("adds, uses as default, reveals, edits and deletes an OpenAI-compatible key", async () => {
    const context = await signedInContext();
    const page = await context.newPage();

    await page.goto(`${server.url}/profile/chat-settings`);
    await page.getByRole("heading", { name: "Chat Settings" }).waitFor();
    await page.getByTestId("no-keys").waitFor();
    expect(await page.getByTestId("default-select-text").inputValue()).toBe("docuchat::docuchat-extractive");
    await expectAccessible(page, "chat settings");
    await screenshot(page, "chat-settings-empty-1440");

    // Add Keys Now: Save waits for name, key, provider and sub-provider.
    const dialog = await openAddKey(page);
    const save = dialog.getByTestId("save-key");
    expect(await save.isDisabled()).toBe(true);
    // A private address that is not allow-listed is refused by the egress rules.
    await fillLocalKey(dialog, "My Ollama", `http://127.0.0.1:${llmPort}/v1`);
    expect(await save.isEnabled()).toBe(true);
    await expectAccessible(page, "the Add Keys dialog");
    await save.click();
    await dialog.getByTestId("add-key-error").getByText(/not allowed/).waitFor();
    await screenshot(page, "add-key-refused-1440");
    // The allow-listed name reaches the same server.
    await dialog.getByLabel(/Base URL/).fill(`http://${HOST}:${llmPort}/v1`);
    await save.click();
    await status(page).getByText(KEY_ACCEPTED).waitFor();
    const row = page.getByTestId("key-row").filter({ hasText: "My Ollama" });
    await row.waitFor();
    expect(await row.textContent()).toContain("OpenAI-compatible");
    expect(await row.textContent()).toContain("Ollama");
    expect(llmRequests).toContain("GET /v1/models");

    // Text and Image defaults on the new key.
    await chooseDefault(page, "text", /My Ollama — llama3\.2/);
    await chooseDefault(page, "image", /My Ollama — qwen2\.5/);
    await page.reload();
    expect(await page.getByTestId("default-select-text").inputValue()).toMatch(/::llama3\.2$/);
    await screenshot(page, "chat-settings-with-key-1440");

    // Reveal: the placeholder first, then the password confirmation, then the key.
    await row.getByTestId("reveal-key").click();
    await row.getByText("Revealing…").waitFor();
    const confirm = page.getByRole("dialog", { name: "Confirm your password" });
    await confirm.waitFor();
    await expectAccessible(page, "the password confirmation");
    await confirm.getByLabel("Password").fill("wrong-password");
    await confirm.getByTestId("confirm-password").click();
    await confirm.getByText("That password is not correct.").waitFor();
    await confirm.getByLabel("Password").fill(PASSWORD);
    await confirm.getByTestId("confirm-password").click();
    await expect.poll(() => row.getByTestId("key-value").textContent(), { timeout: 10_000 }).toBe(KEY);

    // The key is in no page data except the reveal answer.
    const html = await (await context.request.get(`${server.url}/profile/chat-settings`)).text();
    expect(html).not.toContain(KEY);
    const data = await (await context.request.get(`${server.url}/profile/chat-settings.data`)).text();
    expect(data).toContain("My Ollama");
    expect(data).not.toContain(KEY);
    const api = await (await context.request.get(`${server.url}/api/keysets`)).text();
    expect(api).toContain("My Ollama");
    expect(api).not.toContain(KEY);

    // Edit: rename.
    await row.getByTestId("edit-key").click();
    const edit = page.getByRole("dialog", { name: "Edit My Ollama" });
    await edit.getByLabel("Key name").fill("Home Ollama");
    await edit.getByRole("button", { name: "Save" }).click();
    await status(page).getByText("Key updated.").waitFor();
    const renamed = page.getByTestId("key-row").filter({ hasText: "Home Ollama" });
    await renamed.waitFor();

    // Back to the built-in model for text.
    await chooseDefault(page, "text", /DocuChat \(built-in\)/);

    // Delete: the image default that used the key falls back to the built-in one.
    await renamed.getByTestId("delete-key").click();
    const del = page.getByRole("alertdialog", { name: "Delete Home Ollama?" });
    await del.waitFor();
    await expectAccessible(page, "the delete confirmation");
    await del.getByTestId("confirm-delete-key").click();
    await status(page).getByText(/Key deleted/).waitFor();
    await page.getByTestId("no-keys").waitFor();
    await page.reload();
    await page.getByTestId("tab-image").click();
    expect(await page.getByTestId("default-select-image").inputValue()).toBe("docuchat::docuchat-extractive");
    await page.getByTestId("tab-text").click();
    expect(await page.getByTestId("default-select-text").inputValue()).toBe("docuchat::docuchat-extractive");
    await expectAccessible(page, "chat settings after deleting");
    await screenshot(page, "chat-settings-after-delete-1440");

    // The help articles the page links to.
    await page.getByRole("link", { name: "How to get an API key" }).click();
    await page.getByRole("heading", { name: "How to get an API key" }).waitFor();
    expect(await page.getByRole("heading", { name: /OpenAI-compatible endpoint/ }).isVisible()).toBe(true);
    await expectAccessible(page, "/help/keys");

    expect(server.output()).not.toContain(KEY);
    await context.close();
  });

  it("chats in a workspace through the key with valid citations, back on the built-in model, then falls back when the key is deleted", async () => {
    const PDF = "harbour-survey.pdf";
    const FACT = "Marisol Quenby counted 417 grey gulls on the breakwater.";
    const QUESTION = "How many gulls did Marisol Quenby count on the breakwater?";
    const context = await signedInContext();
    const page = await context.newPage();
    onTestFailed(async () => {
      await screenshot(page, "providers-chat-failed-1440").catch(() => undefined);
    });

    // A PDF, and a workspace made before there is any key: it starts on the built-in model.
    await page.goto(`${server.url}/`);
    const documentId = await uploadThroughApi(page, {
      name: PDF,
      type: "application/pdf",
      bytes: await makePdf(["Harbour survey: introduction and method of counting.", FACT, "Appendix: weather tables."]),
      pages: 3,
    });
    await waitForActive(page, [documentId]);
    const earlier = await createWorkspace(page, "Harbour before the key", [documentId]);

    // The key, and its model as the text default.
    await gotoHydrated(page, `${server.url}/profile/chat-settings`);
    const dialog = await openAddKey(page);
    await fillLocalKey(dialog, "Local LLM", `http://${HOST}:${llmPort}/v1`);
    await dialog.getByTestId("save-key").click();
    await status(page).getByText(KEY_ACCEPTED).waitFor();
    const keyValue = await chooseDefault(page, "text", /Local LLM — llama3\.2/);
    const keyModel = "Local LLM · llama3.2";
    const builtInModel = "DocuChat built-in (extractive)";

    // A workspace made in the wizard now starts on the text default.
    await createWorkspaceThroughWizard(page, server.url, "Harbour with my model", [PDF]);
    await openChatPreferences(page);
    expect(await page.getByTestId("pref-text").innerText()).toBe(keyModel);
    await page.keyboard.press("Escape");
    await page.getByRole("dialog", { name: "Workspace Settings" }).waitFor({ state: "hidden" });

    // Ask: the local server's answer streams in, with its valid citation only.
    await chatReady(page);
    const { answer, lengths } = await askAndWait(page, QUESTION);
    expect(lengths.length, `answer lengths seen while streaming: ${lengths.join(",")}`).toBeGreaterThan(2);
    expect(await answer.getAttribute("data-status")).toBe("complete");
    expect(await answer.getByTestId("answer-text").innerText()).toBe(LOCAL_ANSWER);
    expect(await answer.locator(".dc-chat-model").innerText()).toBe(`openai-compatible:${LLM_MODEL}`);
    expect(await answer.getByTestId("offline-note").count()).toBe(0);
    expect(streamedQuestions()).toEqual([QUESTION]);
    const chips = answer.getByTestId("citation-chip");
    await chips.first().waitFor();
    expect(await chips.count()).toBe(1);
    const chip = chips.first();
    expect(await chip.getAttribute("data-document-id")).toBe(documentId);
    expect(await chip.getAttribute("data-page")).toBe("2");
    expect(await chip.innerText()).toContain(`${PDF.slice(0, 16)} · p.2`);
    await waitForViewer(page, documentId);
    await expectAccessible(page, "the workspace with the provider's answer");
    await screenshot(page, "providers-chat-answer-1440");

    // The chip opens the PDF at the cited page.
    expect((await viewerState(page)).currentPage).toBe(1);
    await chip.click();
    await waitUntil(async () => (await viewerState(page)).currentPage === 2, "the viewer on page 2");

    // Back to the built-in model in Workspace Settings: the next answer does not reach the server.
    await openChatPreferences(page);
    await chooseWorkspaceModel(page, builtInModel);
    await chatReady(page);
    const { answer: builtIn } = await askAndWait(page, "Who counted the grey gulls?");
    expect(await builtIn.getAttribute("data-status")).toBe("complete");
    expect(await builtIn.locator(".dc-chat-model").innerText()).toBe("docuchat-extractive");
    expect(await builtIn.getByTestId("answer-text").innerText()).toContain("Marisol Quenby");
    // The offline model says what it is, in one line under its answer (decision 192).
    expect(await builtIn.getByTestId("offline-note").innerText()).toMatch(/^Quoted from your documents by the offline model\./);
    await screenshot(page, "providers-offline-note-1440");
    await builtIn.locator(`[data-testid="citation-chip"][data-document-id="${documentId}"][data-page="2"]`).waitFor();
    expect(streamedQuestions()).toEqual([QUESTION]);

    // The workspace made before the key picks the key's model in Workspace Settings.
    await gotoHydrated(page, `${server.url}/workspace/${earlier}`);
    await page.getByTestId("workspace-screen").waitFor();
    await openChatPreferences(page);
    expect(await page.getByTestId("pref-text").innerText()).toBe(builtInModel);
    await page.getByTestId("pref-text").click();
    await page.getByRole("option", { name: keyModel }).waitFor();
    await expectAccessible(page, "Workspace Settings with the key's models");
    await chooseWorkspaceModel(page, keyModel);
    await openChatPreferences(page);
    expect(await page.getByTestId("pref-text").innerText()).toBe(keyModel);
    await screenshot(page, "providers-workspace-key-model-1440");

    // The key's embedding model: the workspace's documents are indexed with it, and the progress shows.
    await page.getByTestId("pref-embedding").click();
    await page.getByRole("option", { name: `Local LLM · ${EMBEDDING_MODEL}` }).click();
    await page.getByRole("dialog", { name: "Workspace Settings" }).getByRole("button", { name: "Save" }).click();
    await toast(page, "Chat preferences saved").waitFor();
    await openChatPreferences(page);
    const indexing = page.getByTestId("embedding-index");
    await waitUntil(async () => (await indexing.getAttribute("data-status")) === "ready", "the documents indexed with the embedding model", 30_000);
    expect(await indexing.innerText()).toContain(`Documents indexed with ${EMBEDDING_MODEL}: 1 of 1.`);
    expect(llmRequests).toContain("POST /v1/embeddings");
    await expectAccessible(page, "Workspace Settings with the embedding index");
    await screenshot(page, "providers-workspace-embedding-1440");
    await page.keyboard.press("Escape");

    // Deleting the key: the text default and that workspace fall back to the built-in model.
    await gotoHydrated(page, `${server.url}/profile/chat-settings`);
    expect(await page.getByTestId("default-select-text").inputValue()).toBe(keyValue);
    await page.getByTestId("key-row").filter({ hasText: "Local LLM" }).getByTestId("delete-key").click();
    await page.getByRole("alertdialog", { name: "Delete Local LLM?" }).getByTestId("confirm-delete-key").click();
    await status(page).getByText(/Key deleted/).waitFor();
    await page.reload();
    await page.getByTestId("no-keys").waitFor();
    expect(await page.getByTestId("default-select-text").inputValue()).toBe("docuchat::docuchat-extractive");
    await screenshot(page, "providers-chat-settings-after-delete-1440");
    await gotoHydrated(page, `${server.url}/workspace/${earlier}`);
    await page.getByTestId("workspace-screen").waitFor();
    await openChatPreferences(page);
    expect(await page.getByTestId("pref-text").innerText()).toBe(builtInModel);
    expect(await page.getByRole("dialog", { name: "Workspace Settings" }).getByText(keyModel).count()).toBe(0);

    expect(server.output()).not.toContain(KEY);
    await context.close();
  }, 300_000);

  it("streams a test answer through the built app, and answers another user's keyset id with 404 for read, models, use, edit, delete and reveal", async () => {
    const csrfOf = async (page: Page) => {
      await page.goto(`${server.url}/profile/chat-settings`);
      return page.locator('input[name="csrf"]').first().inputValue();
    };
    const owner = await signedInContext();
    const ownerPage = await owner.newPage();
    const ownerCsrf = await csrfOf(ownerPage);
    const created = await owner.request.post(`${server.url}/api/keysets`, {
      headers: { "X-CSRF-Token": ownerCsrf, "Content-Type": "application/json" },
      data: { keySet_name: "Owner key", apikey: KEY, provider: "OpenAI-compatible", sub_provider: "vLLM", endpoint: `http://${HOST}:${llmPort}/v1` },
    });
    expect(created.status()).toBe(201);
    const { keySet_id: id } = (await created.json()) as { keySet_id: string };
    expect((await owner.request.get(`${server.url}/api/keysets/${id}`)).status()).toBe(200);
    // The built app streams an answer from the keyset's model through the egress (the chat's path).
    const tried = await owner.request.post(`${server.url}/api/keysets/${id}/try`, { headers: { "X-CSRF-Token": ownerCsrf, "Content-Type": "application/json" }, data: {} });
    expect(tried.status()).toBe(200);
    const streamed = await tried.text();
    expect(streamed).toMatch(/^OK\[END\]/);
    expect(JSON.parse(streamed.split("[END]")[1])).toEqual({ model: "openai-compatible:llama3.2", usage: { inputTokens: 3, outputTokens: 1 } });

    const other = await signedInContext();
    const otherPage = await other.newPage();
    const csrf = await csrfOf(otherPage);
    const headers = { "X-CSRF-Token": csrf, "Content-Type": "application/json" };
    expect((await other.request.get(`${server.url}/api/keysets/${id}`)).status()).toBe(404);
    expect((await other.request.get(`${server.url}/api/keysets/${id}/models`)).status()).toBe(404);
    expect((await other.request.put(`${server.url}/api/keysets/${id}`, { headers, data: { keySet_name: "mine" } })).status()).toBe(404);
    expect((await other.request.delete(`${server.url}/api/keysets/${id}`, { headers })).status()).toBe(404);
    expect((await other.request.post(`${server.url}/api/keysets/${id}/try`, { headers, data: {} })).status()).toBe(404);
    // Single fetch: the route's action answers at <path>.data (turbo-stream encoded).
    const reveal = await other.request.post(`${server.url}/profile/chat-settings.data`, {
      form: { csrf, intent: "reveal", id },
    });
    const revealed = await reveal.text();
    expect(revealed).toContain("Key not found");
    expect(revealed).not.toContain(KEY);
    // Still there for its owner.
    expect((await owner.request.get(`${server.url}/api/keysets/${id}`)).status()).toBe(200);
    await owner.close();
    await other.close();
  });
});
