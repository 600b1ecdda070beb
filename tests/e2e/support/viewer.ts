import { PDFDocument, StandardFonts } from "pdf-lib";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { gotoHydrated } from "./browser";
import { csrfToken, signUpNewUser, waitUntil } from "./workspace";

/** Helpers for the viewer journey: an account, generated PDFs, uploads through the API, the viewer's state, its events. */

/** A new, onboarded user's signed-in storage state. */
export async function signUpViewerUser(browser: Browser, baseUrl: string): Promise<Awaited<ReturnType<BrowserContext["storageState"]>>> {
  return (await signUpNewUser(browser, baseUrl)).storageState;
}

const WORDS = [
  "heron", "granite", "lantern", "orchard", "meridian", "quartz", "saffron", "tundra", "violet", "walnut",
  "beacon", "canyon", "delta", "ember", "fjord", "glacier", "harbor", "island", "juniper", "kelp",
  "lagoon", "mosaic", "nectar", "opal", "prairie", "quill", "ridge", "summit", "timber", "umber",
];

/** The distinct sentence of page `n` (1-based) of the document `prefix`. */
export function pageSentence(prefix: string, n: number): string {
  const w = (k: number) => WORDS[(n * 7 + k * 3) % WORDS.length];
  return `${prefix} page ${n} describes the ${w(1)} ${w(2)} near the ${w(3)} ${w(4)}`;
}

/** A PDF of `count` A4 pages, each with its own sentence, a second line and the page number. */
export async function makeViewerPdf(prefix: string, count: number): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  for (let n = 1; n <= count; n++) {
    const page = pdf.addPage([595, 842]);
    page.drawText(`${prefix} - chapter ${n}`, { x: 60, y: 780, size: 20, font: bold });
    page.drawText(pageSentence(prefix, n), { x: 60, y: 700, size: 14, font });
    page.drawText(`A separate paragraph that every page of ${prefix} shares.`, { x: 60, y: 600, size: 11, font });
    page.drawText(`${n}`, { x: 290, y: 40, size: 10, font });
  }
  return Buffer.from(await pdf.save());
}

/** Registers a document (POST /api/documents, X-CSRF-Token) and PUTs its bytes to the returned URL; returns its id. */
export async function uploadFile(page: Page, file: { name: string; type: string; bytes: Buffer; pageCount: number }): Promise<string> {
  const token = await csrfToken(page);
  return page.evaluate(
    async ({ name, type, base64, pageCount, token }) => {
      const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
      const registered = await fetch("/api/documents", {
        method: "POST",
        headers: { "Content-Type": "application/json", "X-CSRF-Token": token, Accept: "application/json" },
        body: JSON.stringify({
          document_name: name,
          document_type: type,
          document_size: bytes.byteLength,
          page_count: pageCount,
          media_type: "document",
          document_source: "file",
          embedding_data: null,
          ocr: "false",
          rag_type: "",
        }),
      });
      if (!registered.ok) throw new Error(`register ${name}: ${registered.status} ${await registered.text()}`);
      const body = (await registered.json()) as { url: string; document_id: string; user_id: string };
      const put = await fetch(body.url, {
        method: "PUT",
        headers: { "Content-Type": type, "x-amz-meta-document_id": body.document_id, "x-amz-meta-user_id": body.user_id },
        body: bytes,
      });
      if (!put.ok) throw new Error(`upload ${name}: ${put.status} ${await put.text()}`);
      return body.document_id;
    },
    { name: file.name, type: file.type, base64: file.bytes.toString("base64"), pageCount: file.pageCount, token },
  );
}

/** Creates a workspace through the four wizard steps and waits for the real launch to land on it; returns its id. */
export async function createWorkspaceThroughWizard(page: Page, baseUrl: string, name: string, fileNames: string[]): Promise<string> {
  await gotoHydrated(page, `${baseUrl}/workspace/create`);
  await page.getByRole("heading", { name: "Add Workspace Related Details" }).waitFor();
  await page.getByLabel("Workspace name").fill(name);
  await page.getByLabel("Description").fill("Reading the generated documents");
  await page.getByRole("radio", { name: /Conversation/ }).click();
  await page.getByRole("button", { name: "Next" }).click();
  await page.getByRole("heading", { name: "Customise Chat Preferences" }).waitFor();
  await page.getByRole("button", { name: "Next" }).click();
  await page.getByRole("heading", { name: "Add File Related Details" }).waitFor();
  for (const file of fileNames) await page.getByText(file, { exact: true }).click();
  await page.getByText(`${fileNames.length} of 10 selected`).waitFor();
  await page.getByRole("button", { name: "Next" }).click();
  await page.getByRole("heading", { name: "Review and Launch" }).last().waitFor();
  await page.getByRole("button", { name: "Save and Launch" }).click();
  await page.waitForURL(/\/workspace\/[^/]+$/, { timeout: 45_000 });
  await page.getByTestId("workspace-screen").waitFor();
  return new URL(page.url()).pathname.split("/")[2];
}

export const viewer = (page: Page) => page.locator('[data-testid="document-viewer"]').first();

export async function viewerState(page: Page) {
  return viewer(page).evaluate((el) => ({
    documentId: el.getAttribute("data-document-id"),
    kind: el.getAttribute("data-kind"),
    state: el.getAttribute("data-state"),
    currentPage: Number(el.getAttribute("data-current-page")),
    pageCount: Number(el.getAttribute("data-page-count")),
    zoom: Number(el.getAttribute("data-zoom")),
    citation: el.getAttribute("data-citation"),
    firstPageMs: el.getAttribute("data-first-page-ms"),
  }));
}

/** Waits until the viewer shows `documentId` and is ready (for a PDF: its first page is painted). */
export async function waitForViewer(page: Page, documentId: string, timeoutMs = 30_000) {
  let last: unknown = null;
  await waitUntil(
    async () => {
      const s = await viewerState(page);
      last = s;
      if (s.documentId !== documentId || s.state !== "ready") return false;
      return s.kind !== "pdf" || Boolean(s.firstPageMs);
    },
    `viewer ready for ${documentId}`,
    timeoutMs,
    100,
  ).catch((error: Error) => {
    throw new Error(`${error.message}; last viewer state ${JSON.stringify(last)}`);
  });
}

/** Records the viewer's window events (selection actions, captures) as window.__viewerEvents. */
export async function recordViewerEvents(page: Page) {
  await page.evaluate(() => {
    const w = window as unknown as { __viewerEvents?: { type: string; detail: unknown }[] };
    if (w.__viewerEvents) return;
    w.__viewerEvents = [];
    for (const type of ["docuchat:viewer-selection", "docuchat:viewer-capture"]) {
      window.addEventListener(type, (e) => w.__viewerEvents?.push({ type, detail: (e as CustomEvent).detail }));
    }
  });
}

export async function viewerEvents(page: Page): Promise<{ type: string; detail: { action?: string; text?: string; dataUrl?: string } }[]> {
  return page.evaluate(() => (window as unknown as { __viewerEvents?: never[] }).__viewerEvents ?? []);
}

/** Selects the text of the first text-layer span of page `n` that contains `needle` (a real DOM selection). */
export async function selectTextOnPage(page: Page, n: number, needle: string): Promise<string> {
  const span = page.locator(`[data-page-number="${n}"] .textLayer span`).filter({ hasText: needle }).first();
  await span.waitFor();
  return span.evaluate((el) => {
    const range = document.createRange();
    range.selectNodeContents(el);
    const selection = window.getSelection();
    selection?.removeAllRanges();
    selection?.addRange(range);
    return selection?.toString() ?? "";
  });
}

/** Width and height of a PNG data URL. */
export function pngSize(dataUrl: string): { width: number; height: number } {
  const bytes = Buffer.from(dataUrl.replace(/^data:image\/png;base64,/, ""), "base64");
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

/** A PNG with large, sharp text (OCR reads it), drawn by the browser's canvas. */
export async function makeTextPng(page: Page, lines: string[]): Promise<Buffer> {
  const base64 = await page.evaluate((lines) => {
    const canvas = document.createElement("canvas");
    canvas.width = 900;
    canvas.height = 120 + lines.length * 90;
    const ctx = canvas.getContext("2d");
    if (!ctx) throw new Error("no 2d context");
    ctx.fillStyle = "#ffffff";
    ctx.fillRect(0, 0, canvas.width, canvas.height);
    ctx.fillStyle = "#000000";
    ctx.font = "bold 56px sans-serif";
    lines.forEach((line, i) => ctx.fillText(line, 50, 110 + i * 90));
    return canvas.toDataURL("image/png").split(",")[1];
  }, lines);
  return Buffer.from(base64, "base64");
}
