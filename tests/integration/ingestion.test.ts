import { readFileSync } from "node:fs";
import { join } from "node:path";
import { PDFDocument } from "pdf-lib";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { TOKENS } from "#application/tokens";
import type { SearchIndex } from "#application/ports/search-index";
import type { Transcriber } from "#application/ports/web-sources";
import type { WorkflowEngine } from "#application/ports/workflow";
import type { RequestContext } from "#application/shared/request-context";
import { LibraryQueries } from "#application/library/library-queries";
import { LibraryService } from "#application/library/library-service";
import { egressFor, type LocalSite, startLocalSite } from "#infrastructure/egress/testing/local-site";
import { makeDocx, makePdf, makePptx, renderTextPng } from "#infrastructure/extraction/test-support/documents";
import { ocrToolsInstalled } from "#infrastructure/extraction/test-support/ocr-tools";
import type { TextExtractorOptions } from "#infrastructure/extraction/text-extractor";
import { EgressVideoSource } from "#infrastructure/video/video-source";
import { createTestRuntime } from "../support/test-runtime";

const HOST = "docs.example.test";
const owner = "owner-1";
const ctx: RequestContext = { requestId: "req", clientAddress: "127.0.0.1", actorId: owner };

let site: LocalSite;
let files: Record<string, { type: string; body: Buffer | string }> = {};

beforeAll(async () => {
  site = await startLocalSite((req, res) => {
    const path = (req.url ?? "/").split("?")[0];
    const file = files[path];
    if (!file) {
      res.writeHead(404, { "content-type": "text/plain" }).end("not found");
      return;
    }
    res.writeHead(200, { "content-type": file.type }).end(file.body);
  }, HOST);
});
afterAll(async () => site.close());

let env: Awaited<ReturnType<typeof createTestRuntime>>;
afterEach(async () => env?.cleanup());

async function start(options: { transcriber?: Transcriber; textExtractor?: TextExtractorOptions } = {}) {
  const egress = egressFor(HOST);
  env = await createTestRuntime({ egress, videoSource: new EgressVideoSource(egress, { baseUrl: site.origin }), ...options });
  return {
    library: env.runtime.container.get(LibraryService),
    queries: env.runtime.container.get(LibraryQueries),
    search: env.runtime.get<SearchIndex>(TOKENS.SearchIndex),
    engine: env.runtime.get<WorkflowEngine>(TOKENS.WorkflowEngine),
  };
}

type Services = Awaited<ReturnType<typeof start>>;

async function upload(s: Services, name: string, body: Buffer, pages = 1, type = "application/octet-stream") {
  const registered = await s.library.registerUpload(owner, { document_name: name, document_type: type, document_size: body.length, page_count: pages }, ctx);
  const token = new URL(registered.url, "http://x").searchParams.get("token")!;
  await s.library.receiveUpload(registered.document_id, token, body, type, ctx);
  return registered.document_id;
}

async function finished(s: Services, documentId: string) {
  await s.engine.waitForCompletion(`ingestion-${documentId}`, 30_000);
  await env.runtime.get<{ waitForPosition(p: number): Promise<boolean> }>(TOKENS.ProjectionWaiter).waitForPosition(
    await env.runtime.get<{ headPosition(): Promise<number> }>(TOKENS.EventStore).headPosition(),
  );
  return s.queries.getDocument(owner, documentId);
}

describe("ingesting an uploaded file", () => {
  it("puts each page's text on its page number, with layout boxes, and makes the PDF Active", async () => {
    const s = await start();
    const pdf = await makePdf([
      { lines: ["Photosynthesis converts light into chemical energy."] },
      { lines: ["The mitochondria is the powerhouse of the cell."] },
      { lines: ["Osmosis moves water across a membrane."] },
    ]);
    const id = await upload(s, "biology.pdf", pdf, 3, "application/pdf");
    const document = await finished(s, id);
    expect(document).toMatchObject({ status: "ACTIVE", pageCount: 3, name: "biology.pdf", kind: "pdf" });
    const pages = await s.queries.pages(owner, id);
    expect(pages[1].text).toContain("mitochondria");
    const [block] = await s.queries.layout(owner, id, 2);
    expect(block.text).toContain("mitochondria");
    expect(block.box.left).toBeGreaterThan(0);
    expect(block.box.left + block.box.width).toBeLessThanOrEqual(596);
    const [hit] = await s.search.searchText("powerhouse cell", { documentIds: [id] }, 3);
    expect(hit.chunk.pageNumber).toBe(2);
  });

  it("reads DOCX, PPTX and text files, and OCRs an image", async () => {
    const s = await start();
    const docx = await upload(s, "notes.docx", makeDocx(["Thermodynamics has three laws."]));
    const pptx = await upload(s, "deck.pptx", makePptx([["Slide one intro"], ["Quarterly revenue grew"]]));
    const txt = await upload(s, "readme.md", Buffer.from("# Readme\nInstall with npm."), 1, "text/plain");
    const png = await upload(s, "scan.png", await renderTextPng(["Invoice number 4471"]), 1, "image/png");
    expect((await finished(s, docx)).status).toBe("ACTIVE");
    const deck = await finished(s, pptx);
    expect(deck).toMatchObject({ status: "ACTIVE", pageCount: 2 });
    expect((await s.queries.pages(owner, pptx))[1].text).toContain("Quarterly revenue grew");
    expect((await finished(s, txt)).status).toBe("ACTIVE");
    const scan = await finished(s, png);
    expect(scan.status).toBe("ACTIVE");
    expect((await s.queries.pages(owner, png))[0].text).toMatch(/Invoice number 4471/);
  });

  it("refuses a file whose content does not match its name, and records why", async () => {
    const s = await start();
    await expect(upload(s, "fake.pdf", Buffer.from("just some text"))).rejects.toMatchObject({ code: "FILE_REJECTED" });
    const { documents } = await s.queries.listDocuments(owner);
    expect(documents[0]).toMatchObject({ status: "FAILED" });
    expect(documents[0].failureReason).toMatch(/not a PDF/);
  });

  it("fails a file that claims to be a recording and is not, with a readable reason", async () => {
    const s = await start();
    const id = await upload(s, "memo.webm", Buffer.from("fake audio bytes"), 0, "audio/webm");
    const document = await finished(s, id);
    expect(document.status).toBe("FAILED");
    expect(document.failureReason).toMatch(/not a recording that could be read/);
  });

  it("transcribes a recording through the configured speech model", async () => {
    const s = await start({ transcriber: { transcribe: async () => ({ text: "Meeting notes: ship on Friday." }) } });
    const id = await upload(s, "memo.webm", Buffer.from("fake audio bytes"), 0, "audio/webm");
    expect(await finished(s, id)).toMatchObject({ status: "ACTIVE", source: "audio" });
    expect((await s.queries.pages(owner, id))[0].text).toContain("ship on Friday");
  });

  it("counts pages against the monthly allowance before the upload", async () => {
    const s = await start();
    await expect(
      s.library.registerUpload(owner, { document_name: "big.pdf", document_size: 10, page_count: 201 }, ctx),
    ).rejects.toMatchObject({ message: "Upload exceeds the total available page limit. You have 200 pages remaining." });
  });

  it("refuses an upload URL that was tampered with", async () => {
    const s = await start();
    const registered = await s.library.registerUpload(owner, { document_name: "a.txt", document_size: 5, page_count: 1 }, ctx);
    await expect(s.library.receiveUpload(registered.document_id, "123.bad", Buffer.from("hello"), "text/plain", ctx)).rejects.toMatchObject({
      code: "UPLOAD_URL_INVALID",
    });
  });
});

const madeDocument = (name: string) => readFileSync(join(import.meta.dirname, "..", "fixtures", "documents", name));
const ocrTools = ocrToolsInstalled();
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F]/;

describe("a PDF whose text layer is garbage (fonts without a text mapping)", () => {
  it.skipIf(!ocrTools)("is read by OCR although the OCR switch is off, and the document says so", { timeout: 180_000 }, async () => {
    const s = await start();
    const id = await upload(s, "lichen-review.pdf", madeDocument("lichen-review-broken-fonts.pdf"), 2, "application/pdf");
    const document = await finished(s, id);
    expect(document).toMatchObject({ status: "ACTIVE", pageCount: 2, pagesReadByOcr: [1, 2], unreadablePages: [] });
    const pages = await s.queries.pages(owner, id);
    expect(pages.map((p) => p.text).join("\n")).not.toMatch(CONTROL);
    const [hit] = await s.search.searchText("nitrogen index heavy deposition", { documentIds: [id] }, 3);
    expect(hit.chunk.pageNumber).toBe(1);
    expect(hit.chunk.text).not.toMatch(CONTROL);
  });

  it("is left out as unreadable when OCR is not available, and never indexed", { timeout: 120_000 }, async () => {
    const s = await start({ textExtractor: { ocrCommand: "/nonexistent/tesseract" } });
    // A readable paper with the broken article appended, as a merged upload would be.
    const merged = await PDFDocument.create();
    for (const file of ["kestrel-paper.pdf", "lichen-review-broken-fonts.pdf"]) {
      const source = await PDFDocument.load(madeDocument(file));
      for (const page of await merged.copyPages(source, source.getPageIndices())) merged.addPage(page);
    }
    const id = await upload(s, "merged.pdf", Buffer.from(await merged.save()), 5, "application/pdf");
    const document = await finished(s, id);
    expect(document).toMatchObject({ status: "ACTIVE", pageCount: 5, pagesReadByOcr: [], unreadablePages: [4, 5] });
    const pages = await s.queries.pages(owner, id);
    expect(pages[3].text).toBe("");
    expect(pages[4].text).toBe("");
    // Every indexed passage is readable text, and none comes from the unreadable pages.
    const hits = await s.search.searchText("lichen nitrogen speculation benchmark", { documentIds: [id] }, 50);
    expect(hits.length).toBeGreaterThan(0);
    expect(hits.every((h) => h.chunk.pageNumber <= 3 && !CONTROL.test(h.chunk.text))).toBe(true);
    const [table] = await s.search.searchText("access-nbody speedup", { documentIds: [id] }, 1);
    expect(table.chunk.pageNumber).toBe(2);
    expect(table.chunk.text).toContain("access-nbody | 4.19× | 11.8");
  });
});

describe("ingesting a link", () => {
  it("fetches a document link through the egress and makes it Active", async () => {
    const s = await start();
    files = { "/papers/report.pdf": { type: "application/pdf", body: await makePdf([{ lines: ["Annual report of the river survey."] }]) } };
    const { documentId } = await s.library.registerLink(owner, { source: "document_url", url: `${site.origin}/papers/report.pdf` }, ctx);
    expect(await finished(s, documentId)).toMatchObject({ status: "ACTIVE", name: "report.pdf", source: "document_url" });
  });

  it("crawls a website to the chosen depth, one page per crawled page", async () => {
    const s = await start();
    const page = (title: string, body: string, links: string[] = []) => ({
      type: "text/html",
      body: `<html><head><title>${title}</title></head><body><p>${body}</p>${links.map((l) => `<a href="${l}">${l}</a>`).join("")}</body></html>`,
    });
    files = {
      "/": page("Home", "Welcome to the orchard.", ["/apples", "/pears"]),
      "/apples": page("Apples", "Apples ripen in autumn.", ["/apples/cider"]),
      "/pears": page("Pears", "Pears bruise easily."),
      "/apples/cider": page("Cider", "Cider is pressed from apples."),
      "/robots.txt": { type: "text/plain", body: "User-agent: *\nAllow: /\n" },
    };
    const { documentId } = await s.library.registerLink(owner, { source: "website_url", url: `${site.origin}/`, maxDepth: 2 }, ctx);
    const document = await finished(s, documentId);
    expect(document).toMatchObject({ status: "ACTIVE", pageCount: 3, name: "Home" });
    const text = (await s.queries.pages(owner, documentId)).map((p) => p.text).join("\n");
    expect(text).toContain("Pears bruise easily");
    expect(text).not.toContain("Cider is pressed");
  });

  it("takes a video's title and transcript when reachable", async () => {
    const s = await start();
    const player = { captions: { playerCaptionsTracklistRenderer: { captionTracks: [{ baseUrl: `${site.origin}/api/timedtext?v=dQw4w9WgXcQ`, languageCode: "en" }] } } };
    files = {
      "/watch": { type: "text/html", body: `<html><head><meta property="og:title" content="Rivers of Europe"></head><body><script>var ytInitialPlayerResponse = ${JSON.stringify(player)};</script></body></html>` },
      "/api/timedtext": { type: "text/xml", body: `<transcript><text start="0" dur="2">The Danube flows east.</text></transcript>` },
    };
    const { documentId } = await s.library.registerLink(owner, { source: "youtube_link", url: "https://youtu.be/dQw4w9WgXcQ" }, ctx);
    const document = await finished(s, documentId);
    expect(document).toMatchObject({ status: "ACTIVE", name: "Rivers of Europe" });
  });

  it("fails with the egress's reason when a link points to a private address", async () => {
    const s = await start();
    const { documentId } = await s.library.registerLink(owner, { source: "document_url", url: "http://10.0.0.8/secret.pdf" }, ctx);
    const document = await finished(s, documentId);
    expect(document.status).toBe("FAILED");
    expect(document.failureReason).toMatch(/private/i);
  });

  it("refuses malformed links with the spec's messages", async () => {
    const s = await start();
    await expect(s.library.registerLink(owner, { source: "youtube_link", url: "https://youtube.com/watch?v=short" }, ctx)).rejects.toMatchObject({
      message: "Invalid YouTube URL",
    });
    await expect(s.library.registerLink(owner, { source: "website_url", url: "https://example.com", maxDepth: 9 }, ctx)).rejects.toMatchObject({
      message: "Depth must be between 1 and 5",
    });
  });
});

describe("a document of another user", () => {
  it("answers exactly like a missing one", async () => {
    const s = await start();
    const id = await upload(s, "mine.txt", Buffer.from("private notes"), 1, "text/plain");
    await finished(s, id);
    await expect(s.queries.getDocument("someone-else", id)).rejects.toMatchObject({ code: "DOCUMENT_NOT_FOUND" });
    await expect(s.queries.layout("someone-else", id, 1)).rejects.toMatchObject({ code: "DOCUMENT_NOT_FOUND" });
    await expect(s.library.deleteDocuments("someone-else", [id], ctx)).rejects.toMatchObject({ code: "DOCUMENT_NOT_FOUND" });
  });
});
