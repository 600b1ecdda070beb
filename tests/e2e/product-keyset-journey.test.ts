import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from "vitest";
import { errorBody, writeStream } from "#infrastructure/ai/testing/provider-wire";
import { startAppServer, type AppServer } from "./support/app-server";
import { gotoHydrated, launchBrowser, screenshot, seriousA11yViolations, VIEWPORTS } from "./support/browser";
import { askAndWait, chatReady, createWorkspace, uploadThroughApi, waitForActive } from "./support/chat";
import { makePdf, signUpNewUser } from "./support/library";

/**
 * The product's own keyset backed by the operator's model (issue #29): the
 * app starts with PRODUCT_KEYSET_TEXT_* pointing at a local OpenAI-compatible
 * server (reached as `localhost` through EGRESS_ALLOW_PRIVATE_HOSTS) that
 * plays a scripted model. A new user with no keys of their own sees the
 * operator's model under the product's name in Chat Settings, asks, gets a
 * streamed answer cited per sentence (a marker naming a passage it was never
 * given is dropped), and finds the message counted on My Usage. The operator's
 * key is in no page and no log line.
 */

const HOST = "localhost";
const KEY = "sk-operator-e2e-7c6b5a4d3e2f";
const MODEL = "llama3.2";
const FACT = "Marisol Quenby counted 417 grey gulls on the breakwater.";
const QUESTION = "How many gulls did Marisol Quenby count?";
const CHUNKS = ["Marisol Quenby ", "counted 417 ", "grey gulls ", "on the breakwater"];

let server: AppServer;
let browser: Browser;
let llm: http.Server;
const streamedPrompts: string[] = [];

/** Answers from the prompt it is handed: the passage that holds the fact is cited by its number, and passage 14, never given, too. */
function answer(body: { stream?: boolean; messages: { role: string; content: string }[] }, res: http.ServerResponse) {
  const prompt = [...body.messages].reverse().find((m) => m.role === "user")?.content ?? "";
  if (!body.stream) {
    // The query rewrite, one short call before retrieval.
    res.writeHead(200, { "content-type": "application/json" });
    return res.end(JSON.stringify({ id: "c", object: "chat.completion", created: 1, model: MODEL, choices: [{ index: 0, message: { role: "assistant", content: "gull census breakwater" }, finish_reason: "stop" }], usage: { prompt_tokens: 9, completion_tokens: 4, total_tokens: 13 } }));
  }
  streamedPrompts.push(prompt);
  const passage = [...prompt.matchAll(/^\[(\d+)\] [^\n]*, page \d+:\n(.*)$/gm)].find((m) => m[2].includes("gulls"))?.[1] ?? "1";
  // Slow frames: the answer visibly grows in the browser.
  writeStream("openai", res, [...CHUNKS, ` [${passage}`, "][14]."], { input: 90, output: 20 }, MODEL, undefined, 120);
}

beforeAll(async () => {
  llm = http.createServer((req, res) => {
    let raw = "";
    req.on("data", (chunk: Buffer) => (raw += chunk.toString()));
    req.on("end", () => {
      if (req.headers.authorization !== `Bearer ${KEY}` || req.url !== "/v1/chat/completions") {
        const { contentType, body } = errorBody("openai", 401);
        return res.writeHead(401, { "content-type": contentType }).end(body);
      }
      answer(JSON.parse(raw), res);
    });
  });
  await new Promise<void>((resolve) => llm.listen(0, "127.0.0.1", resolve));
  const port = (llm.address() as AddressInfo).port;
  server = await startAppServer({
    env: {
      EGRESS_ALLOW_PRIVATE_HOSTS: HOST,
      PRODUCT_KEYSET_TEXT_BASE_URL: `http://${HOST}:${port}/v1`,
      PRODUCT_KEYSET_TEXT_MODEL: MODEL,
      PRODUCT_KEYSET_TEXT_API_KEY: KEY,
      LOG_LEVEL: "debug",
    },
    // Start-up waits for the machine, not for this feature: a loaded runner starts the web processes slowly.
    readyTimeoutMs: 180_000,
  });
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await new Promise<void>((resolve) => (llm ? llm.close(() => resolve()) : resolve()));
});

describe("the product's keyset backed by the operator's model", () => {
  it("answers a new user with no keys from the operator's server: streamed, cited, counted, and named in Chat Settings", async () => {
    const { storageState } = await signUpNewUser(browser, server.url);
    const context = await browser.newContext({ viewport: VIEWPORTS.desktop, storageState });
    const page = await context.newPage();
    onTestFailed(async () => {
      await screenshot(page, "product-keyset-failed-1440").catch(() => undefined);
    });

    // Chat Settings: the text default is the product's keyset, showing the operator's model under the product's name.
    await gotoHydrated(page, `${server.url}/profile/chat-settings`);
    const select = page.getByTestId("default-select-text");
    expect(await select.inputValue()).toBe("docuchat::docuchat-extractive");
    expect(await select.locator("option:checked").textContent()).toBe(`DocuChat — ${MODEL}`);
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, "product-keyset-chat-settings-1440");
    await page.setViewportSize(VIEWPORTS.mobile);
    await screenshot(page, "product-keyset-chat-settings-390");
    await page.setViewportSize(VIEWPORTS.desktop);
    expect(await page.content()).not.toContain(KEY);

    // A workspace on the defaults; the question streams the operator's answer with its one valid citation.
    const documentId = await uploadThroughApi(page, {
      name: "harbour.pdf",
      type: "application/pdf",
      bytes: await makePdf(["Harbour survey: how the counting was done.", FACT]),
      pages: 2,
    });
    await waitForActive(page, [documentId]);
    const workspaceId = await createWorkspace(page, "Harbour", [documentId]);
    await gotoHydrated(page, `${server.url}/workspace/${workspaceId}`);
    await chatReady(page);
    const { answer: reply, lengths } = await askAndWait(page, QUESTION);
    expect(lengths.length, `answer lengths seen while streaming: ${lengths.join(",")}`).toBeGreaterThan(2);
    expect(await reply.getAttribute("data-status")).toBe("complete");
    expect(await reply.getByTestId("answer-text").innerText()).toBe(`${CHUNKS.join("")} [1].`);
    expect(await reply.locator(".dc-chat-model").innerText()).toBe(`openai-compatible:${MODEL}`);
    expect(await reply.getByTestId("offline-note").count()).toBe(0);
    const chips = reply.getByTestId("citation-chip");
    await chips.first().waitFor();
    expect(await chips.count()).toBe(1);
    expect(await chips.first().getAttribute("data-document-id")).toBe(documentId);
    expect(await chips.first().getAttribute("data-page")).toBe("2");
    expect(streamedPrompts).toHaveLength(1);
    expect(streamedPrompts[0]).toContain(`Question: ${QUESTION}`);
    await screenshot(page, "product-keyset-chat-1440");

    // On a phone the chat is a sheet, a new chat: the same model answers there.
    await page.setViewportSize(VIEWPORTS.mobile);
    await page.getByTestId("fab-chat").click();
    const sheet = page.locator(".dc-wsx-sheet [data-testid='chat']");
    await sheet.getByTestId("chat-textarea").fill("Who counted the gulls?");
    await sheet.getByTestId("chat-textarea").press("Enter");
    await sheet.locator("[data-testid='bot-message'][data-status='complete']").getByTestId("citation-chip").waitFor({ timeout: 60_000 });
    await screenshot(page, "product-keyset-chat-390");
    await page.setViewportSize(VIEWPORTS.desktop);

    // Both answers came through the product's keyset: they count against the plan.
    await page.goto(`${server.url}/profile/my-usage`);
    const table = page.getByTestId("usage-table-monthly");
    await expect(table.getByRole("row", { name: /Messages/ }).innerText()).resolves.toMatch(/Messages\s+2\s+500/);

    expect(server.output()).not.toContain(KEY);
    await context.close();
  }, 180_000);
});
