import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from "vitest";
import { concatenated, speak, speechToolsInstalled, wavSeconds } from "#infrastructure/speech/test-support/spoken";
import { startAppServer, type AppServer } from "./support/app-server";
import { gotoHydrated, launchBrowser, screenshot, seriousA11yViolations, VIEWPORTS } from "./support/browser";
import { askAndWait, chatReady, createWorkspace, csrfToken, passOnboardingIfAsked, signUpForChat, waitForActive } from "./support/chat";
import { waitUntil } from "./support/library";
import { viewerState, waitForViewer } from "./support/viewer";

/**
 * Speech in Debian's Chromium against the built app (issue 21): a clip spoken
 * by flite is played into a fake microphone, recorded on /upload/audio and
 * uploaded; the offline transcriber makes it an Active document marked basic
 * quality; a question about its last sentence is answered from the
 * transcript, and the citation plays the recording from that sentence.
 * Read-aloud works in headless Chromium (no voices) through the server's voice.
 */
const SENTENCES = [
  "The quarterly budget meeting is scheduled for Friday morning.",
  "We will discuss the new marketing plan and hire two engineers.",
  "Please send your travel expenses to the finance office before noon.",
];
const GAP_SECONDS = 2;
const tools = speechToolsInstalled();

let server: AppServer;
let browser: Browser;
let storageState: Awaited<ReturnType<BrowserContext["storageState"]>>;
let dir = "";
let clipSeconds = 0;
/** Where the third sentence starts in the clip (the citation must play from about here). */
let thirdStarts = 0;
let documentId = "";
let workspaceId = "";


async function signedInPage(viewport: { width: number; height: number }) {
  const context = await browser.newContext({ viewport, storageState });
  await context.grantPermissions(["microphone"]);
  const page = await context.newPage();
  onTestFailed(async () => {
    await screenshot(page, `speech-failed-${viewport.width}`).catch(() => undefined);
  });
  return { context, page };
}

describe.skipIf(!tools)(`the speech journey${tools ? "" : " (skipped: flite, ffmpeg or pocketsphinx not installed)"}`, () => {
  beforeAll(async () => {
    const clips = SENTENCES.map((s) => speak(s));
    const spoken = concatenated(clips, GAP_SECONDS);
    clipSeconds = wavSeconds(spoken);
    // concatenated() pads every clip with the gap; the third starts after two clips and two gaps (clips are resampled to 16 kHz).
    thirdStarts = wavSeconds(clips[0]!) + wavSeconds(clips[1]!) + 2 * GAP_SECONDS;
    dir = mkdtempSync(path.join(tmpdir(), "docuchat-speech-e2e-"));
    const mic = path.join(dir, "mic.wav");
    writeFileSync(mic, spoken);
    server = await startAppServer();
    browser = await launchBrowser({
      args: ["--use-fake-ui-for-media-stream", "--use-fake-device-for-media-stream", `--use-file-for-fake-audio-capture=${mic}`, "--autoplay-policy=no-user-gesture-required"],
    });
    ({ storageState } = await signUpForChat(browser, server.url));
    const context = await browser.newContext({ viewport: VIEWPORTS.desktop, storageState });
    const page = await context.newPage();
    await page.goto(`${server.url}/`);
    await passOnboardingIfAsked(page, server.url);
    storageState = await context.storageState();
    await context.close();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("records with the microphone, uploads, and the recording becomes an Active transcript marked basic quality", async () => {
    const { context, page } = await signedInPage(VIEWPORTS.desktop);
    await gotoHydrated(page, `${server.url}/upload/audio`);
    await page.getByTestId("record-button").waitFor();
    await page.getByRole("button", { name: "Click to start recording" }).click();
    await page.getByRole("button", { name: "Click to stop recording" }).waitFor();
    // The fake microphone plays the clip from its start; record all of it.
    await page.waitForTimeout((clipSeconds + 0.8) * 1000);
    await page.getByRole("button", { name: "Click to stop recording" }).click();
    await page.getByTestId("audio-clip").waitFor();
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, "speech-upload-audio-1440");

    await page.getByTestId("upload-audio").click();
    await page.waitForURL(/\/history\/documents/, { timeout: 30_000 });
    documentId = await page.evaluate(async () => {
      const r = await fetch("/api/documents?limit=10");
      const body = (await r.json()) as { documents: { document_id: string; metadata: { document_source: string } }[] };
      return body.documents.find((d) => d.metadata.document_source === "audio")?.document_id ?? "";
    });
    expect(documentId).not.toBe("");
    await waitForActive(page, [documentId], 180_000);
    await page.reload();
    await page.getByText("transcribed offline — basic quality; add a key for better transcripts").first().waitFor();
    await screenshot(page, "speech-my-documents-1440");

    // The document page: the transcript with its times, the player, and the read-aloud control.
    await page.goto(`${server.url}/document/${documentId}`);
    await page.getByTestId("transcript").waitFor();
    const times = await page.getByTestId("transcript-segment").locator("button").allTextContents();
    expect(times.length).toBeGreaterThanOrEqual(2);
    expect(times[0]).toMatch(/^0:0\d$/);
    const transcript = (await page.getByTestId("transcript").innerText()).toLowerCase();
    expect(transcript).toContain("finance office");
    expect(await seriousA11yViolations(page)).toEqual([]);
    await screenshot(page, "speech-document-1440");
    await context.close();
  }, 300_000);

  it("answers from the transcript, says so, and the citation plays the recording from the cited sentence", async () => {
    const { context, page } = await signedInPage(VIEWPORTS.desktop);
    await page.goto(`${server.url}/`);
    workspaceId = await createWorkspace(page, "Meeting notes", [documentId]);
    await page.goto(`${server.url}/workspace/${workspaceId}`);
    await chatReady(page);
    const { answer } = await askAndWait(page, "Where should I send my travel expenses?");
    const text = await answer.getByTestId("answer-text").innerText();
    expect(text.toLowerCase()).toContain("finance office");
    expect(text).toContain("transcript of a recording");

    const chip = answer.locator(`[data-testid="citation-chip"][data-document-id="${documentId}"]`).first();
    await chip.click();
    await waitForViewer(page, documentId);
    await waitUntil(async () => /:done$/.test((await viewerState(page)).citation ?? ""), "the citation to be opened", 30_000);
    const transcript = page.locator('[data-testid="document-viewer"] [data-testid="transcript"]');
    await waitUntil(async () => (await transcript.getAttribute("data-seeked-to")) !== null, "the player to seek", 30_000);
    const seekedTo = Number(await transcript.getAttribute("data-seeked-to"));
    expect(Math.abs(seekedTo - thirdStarts), `played from ${seekedTo} s; the sentence starts at ${thirdStarts.toFixed(1)} s`).toBeLessThan(2);
    expect((await transcript.getByTestId("citation-highlight").innerText()).toLowerCase()).toContain("finance");
    // The player really is at that time.
    const at = await transcript.getByTestId("transcript-audio").evaluate((el) => (el as HTMLAudioElement).currentTime);
    expect(Math.abs(at - seekedTo)).toBeLessThan(2);
    await screenshot(page, "speech-citation-1440");
    await context.close();
  }, 240_000);

  it("reads an answer aloud and takes a dictated question in headless Chromium, through the server's voice and transcriber", async () => {
    const { context, page } = await signedInPage(VIEWPORTS.desktop);
    const voices = [] as string[];
    page.on("request", (r) => r.url().includes("/api/speech/voice") && voices.push(r.url()));
    await gotoHydrated(page, `${server.url}/workspace/${workspaceId}`);
    await chatReady(page);
    const readAloud = page.getByTestId("chat").first().getByTestId("bot-message").last().getByTestId("read-aloud");
    await readAloud.click();
    await waitUntil(async () => (await readAloud.getAttribute("data-state")) === "playing", "the answer to be read aloud", 30_000);
    expect(voices.length).toBeGreaterThan(0);
    expect(await page.getByText(/Speech error/).count()).toBe(0);
    await readAloud.click();
    await waitUntil(async () => (await readAloud.getAttribute("data-state")) === "idle", "reading to stop");

    // Dictation: Chromium here has no recognition service, so the question is recorded and transcribed by the server.
    const chat = page.getByTestId("chat").first();
    const mic = chat.getByTestId("mic");
    await mic.click();
    await waitUntil(async () => (await mic.getAttribute("data-state")) === "listening", "the microphone to listen", 30_000);
    await page.waitForTimeout(5_000);
    await mic.click();
    await waitUntil(async () => /budget|meeting|friday/i.test(await chat.getByTestId("chat-textarea").inputValue()), "the dictated words in the question box", 60_000);
    expect(await chat.getByTestId("speech-error").count()).toBe(0);

    // No cloud speech service is configured: the speech token route says so rather than inventing a token.
    const token = await csrfToken(page);
    const auth = await page.evaluate(async (csrf) => {
      const r = await fetch("/profiles/auth", { method: "POST", headers: { "X-CSRF-Token": csrf, "Content-Type": "application/json" }, body: "{}" });
      return { status: r.status, body: (await r.json()) as { code: string; message: string; access_token?: string } };
    }, token);
    expect(auth).toMatchObject({ status: 501, body: { code: "SPEECH_NOT_CONFIGURED", message: expect.stringMatching(/^No cloud speech service is configured/) } });
    expect(auth.body.access_token).toBeUndefined();

    // The document page's read-aloud control, on a phone.
    await page.setViewportSize(VIEWPORTS.mobile);
    await gotoHydrated(page, `${server.url}/document/${documentId}`);
    const control = page.getByTestId("document-read-aloud");
    await control.click();
    await waitUntil(async () => (await control.getAttribute("data-state")) === "playing", "the document to be read aloud", 30_000);
    await screenshot(page, "speech-document-390");
    await context.close();
  }, 120_000);
});
