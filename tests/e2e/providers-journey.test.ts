import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorBody, writeStream } from "#infrastructure/ai/testing/provider-wire";
import { startAppServer, type AppServer } from "./support/app-server";
import { launchBrowser, screenshot, seriousA11yViolations, VIEWPORTS } from "./support/browser";
import { readCodeFromMailbox } from "./support/mailbox";

/**
 * Chat settings in a real browser against the built app, with a local
 * OpenAI-compatible server on 127.0.0.1 that the app may reach only because
 * its name is in EGRESS_ALLOW_PRIVATE_HOSTS (the name is mapped to 127.0.0.1
 * in /etc/hosts). Add a key, make it a default, reveal it after confirming
 * the password, edit it, switch back to the built-in model, delete it and see
 * the remaining default fall back.
 *
 * The workspace screen is not part of this build yet, so the chat itself
 * runs against this adapter in tests/integration/keysets.test.ts.
 */

const HOST = "llm.docuchat.test";
const KEY = "sk-e2e-LOCAL-5e3c1b9a7f";
const PASSWORD = "Reader#2024";

let server: AppServer;
let browser: Browser;
let llm: http.Server;
let llmPort = 0;
const llmRequests: string[] = [];

beforeAll(async () => {
  llm = http.createServer((req, res) => {
    llmRequests.push(`${req.method} ${req.url}`);
    req.resume();
    req.on("end", () => {
      if (req.headers.authorization !== `Bearer ${KEY}`) {
        const { contentType, body } = errorBody("openai", 401);
        res.writeHead(401, { "content-type": contentType });
        return res.end(body);
      }
      if (req.method === "GET" && req.url === "/v1/models") {
        res.writeHead(200, { "content-type": "application/json" });
        return res.end(JSON.stringify({ object: "list", data: [{ id: "llama3.2", object: "model" }, { id: "qwen2.5", object: "model" }] }));
      }
      writeStream("openai", res, ["OK"], { input: 3, output: 1 }, "llama3.2");
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

async function signUp(page: Page) {
  const username = `keys${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
  const email = `${username}@example.com`;
  await page.goto(`${server.url}/signup`);
  await page.getByLabel("Username").fill(username);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByLabel("Password", { exact: true }).blur();
  const signup = page.getByRole("button", { name: "Signup" });
  await expect.poll(() => signup.isEnabled()).toBe(true);
  await signup.click();
  const dialog = page.getByRole("dialog", { name: "Complete Signup" });
  await dialog.waitFor();
  const code = await readCodeFromMailbox(browser, server.url, email);
  await page.getByLabel("Digit 1 of 6").click();
  await page.keyboard.type(code);
  await dialog.getByRole("button", { name: "Confirm" }).click();
  await page.waitForURL((url) => url.pathname === "/" || url.pathname === "/onboarding");
  if (new URL(page.url()).pathname === "/onboarding") {
    // Tolerate an onboarding step when the branch that builds it is merged.
    await page.getByLabel(/first name/i).fill("Ada");
    await page.getByLabel(/last name/i).fill("Reader");
    const occupation = page.getByLabel(/occupation/i);
    if ((await occupation.evaluate((el) => el.tagName)) === "SELECT") await occupation.selectOption({ index: 1 });
    else await occupation.fill("Engineer");
    await page.getByRole("button", { name: /submit|continue|save/i }).click();
    await page.waitForURL((url) => url.pathname === "/");
  }
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

describe("bring-your-own provider keys", () => {
  it("adds, uses as default, reveals, edits and deletes an OpenAI-compatible key", async () => {
    const context = await browser.newContext({ viewport: VIEWPORTS.desktop });
    const page = await context.newPage();
    await signUp(page);

    await page.goto(`${server.url}/profile/chat-settings`);
    await page.getByRole("heading", { name: "Chat Settings" }).waitFor();
    await page.getByTestId("no-keys").waitFor();
    expect(await page.getByTestId("default-select-text").inputValue()).toBe("docuchat::docuchat-extractive");
    await expectAccessible(page, "chat settings");
    await screenshot(page, "chat-settings-empty-1440");

    // Add Keys Now: Save waits for name, key, provider and sub-provider.
    await page.getByTestId("add-keys-now").click();
    const dialog = page.getByRole("dialog", { name: "Add a key" });
    await dialog.waitFor();
    const save = dialog.getByTestId("save-key");
    expect(await save.isDisabled()).toBe(true);
    await dialog.getByLabel("Key name").fill("My Ollama");
    await dialog.getByLabel("Provider", { exact: true }).selectOption("OpenAI-compatible");
    await dialog.getByLabel("Sub-provider").selectOption("Ollama");
    // A private address that is not allow-listed is refused by the egress rules.
    await dialog.getByLabel(/Base URL/).fill(`http://127.0.0.1:${llmPort}/v1`);
    await dialog.getByLabel(/API key/).fill(KEY);
    expect(await save.isEnabled()).toBe(true);
    await expectAccessible(page, "the Add Keys dialog");
    await save.click();
    await dialog.getByTestId("add-key-error").getByText(/not allowed/).waitFor();
    await screenshot(page, "add-key-refused-1440");
    // The allow-listed name reaches the same server.
    await dialog.getByLabel(/Base URL/).fill(`http://${HOST}:${llmPort}/v1`);
    await save.click();
    await status(page).getByText("The provider accepted the key: 2 models available. Key saved.").waitFor();
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
    // Let the dialog's entry animation finish before measuring contrast.
    await page.waitForTimeout(400);
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

  it("streams a test answer through the built app, and answers another user's keyset id with 404 for read, models, use, edit, delete and reveal", async () => {
    const csrfOf = async (page: Page) => {
      await page.goto(`${server.url}/profile/chat-settings`);
      return page.locator('input[name="csrf"]').first().inputValue();
    };
    const owner = await browser.newContext();
    const ownerPage = await owner.newPage();
    await signUp(ownerPage);
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

    const other = await browser.newContext();
    const otherPage = await other.newPage();
    await signUp(otherPage);
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
