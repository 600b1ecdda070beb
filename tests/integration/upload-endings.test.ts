import { afterEach, describe, expect, it } from "vitest";
import { TOKENS } from "#application/tokens";
import type { BlobStore } from "#application/ports/blob-store";
import type { SearchIndex } from "#application/ports/search-index";
import type { WorkflowEngine } from "#application/ports/workflow";
import type { RequestContext } from "#application/shared/request-context";
import { LibraryQueries } from "#application/library/library-queries";
import { LibraryService } from "#application/library/library-service";
import { makePdf } from "#infrastructure/extraction/test-support/documents";
import { uploadDeadlineWorkflowId } from "#workflows/upload-deadline";
import { settle } from "../support/library-fixtures";
import { createTestRuntime } from "../support/test-runtime";

/** Issue 19, items 3 and 4: uploads that end, and page limits on what really arrived. */

const owner = "owner-1";
const ctx: RequestContext = { requestId: "req", clientAddress: "127.0.0.1", actorId: owner };
const DEADLINE_MS = 30 * 60_000;
const FREE_PLAN_PAGES = 200;
const limitMessage = (remaining: number) => `Upload exceeds the total available page limit. You have ${remaining} pages remaining.`;

let env: Awaited<ReturnType<typeof createTestRuntime>>;
afterEach(async () => env?.cleanup());

async function start(options: Parameters<typeof createTestRuntime>[0] = {}) {
  env = await createTestRuntime({ ...options, env: { UPLOAD_DEADLINE_MS: String(DEADLINE_MS) } });
  return {
    library: env.runtime.container.get(LibraryService),
    queries: env.runtime.container.get(LibraryQueries),
    search: env.runtime.get<SearchIndex>(TOKENS.SearchIndex),
    blobs: env.runtime.get<BlobStore>(TOKENS.BlobStore),
    engine: env.runtime.get<WorkflowEngine>(TOKENS.WorkflowEngine),
  };
}
type Services = Awaited<ReturnType<typeof start>>;

const tokenOf = (url: string) => new URL(url, "http://x").searchParams.get("token")!;

async function register(s: Services, name: string, size: number, declaredPages: number, type = "application/pdf") {
  return s.library.registerUpload(owner, { document_name: name, document_type: type, document_size: size, page_count: declaredPages }, ctx);
}

async function upload(s: Services, name: string, body: Buffer, declaredPages: number, type = "application/pdf") {
  const registered = await register(s, name, body.length, declaredPages, type);
  await s.library.receiveUpload(registered.document_id, tokenOf(registered.url), body, type, ctx);
  return registered.document_id;
}

async function finished(s: Services, documentId: string) {
  await s.engine.waitForCompletion(`ingestion-${documentId}`, 60_000);
  await settle(env.runtime);
  return s.queries.getDocument(owner, documentId);
}

/** A PDF with one short line on each of its pages. */
// The text sits mid-page: a line repeated at the top of every page is a running header, which extraction drops.
const MID_PAGE = Array.from({ length: 20 }, () => "");
const pdfOf = (pages: number, topic: string) =>
  makePdf(Array.from({ length: pages }, (_, i) => ({ lines: [...MID_PAGE, `${topic} notes, page ${i + 1}: glaciers carve valleys.`] })));

describe("the page allowance counts what extraction measured", () => {
  it("fails a PDF that declares 1 page but has more than the allowance left, before it is indexed, and holds none of its pages", async () => {
    const s = await start();
    const first = await upload(s, "first.pdf", await pdfOf(3, "first"), 1);
    expect(await finished(s, first)).toMatchObject({ status: "ACTIVE", pageCount: 3 });
    // The measured 3 pages count, not the declared 1.
    expect(await s.library.remainingPages(owner)).toMatchObject({ used: 3, remaining: FREE_PLAN_PAGES - 3 });

    const big = await upload(s, "big.pdf", await pdfOf(FREE_PLAN_PAGES - 2, "big"), 1);
    const document = await finished(s, big);
    expect(document).toMatchObject({ status: "FAILED", failureReason: limitMessage(FREE_PLAN_PAGES - 3) });
    expect(await s.search.searchText("glaciers carve valleys", { documentIds: [big] }, 5)).toEqual([]);
    expect(await s.library.remainingPages(owner)).toMatchObject({ used: 3, remaining: FREE_PLAN_PAGES - 3 });
  });

  it("lets only the documents that fit through when twenty ingest at once at the edge of the limit", async () => {
    const s = await start();
    const pdf = await pdfOf(11, "parallel");
    // 20 × 11 = 220 measured pages against 200: 18 fit (198), 2 cannot, whatever the order.
    const ids = await Promise.all(Array.from({ length: 20 }, (_, i) => upload(s, `part-${i}.pdf`, pdf, 1)));
    const documents = await Promise.all(ids.map((id) => finished(s, id)));
    const active = documents.filter((d) => d.status === "ACTIVE");
    const failed = documents.filter((d) => d.status === "FAILED");
    expect(active).toHaveLength(18);
    expect(failed).toHaveLength(2);
    for (const document of failed) expect(document.failureReason).toBe(limitMessage(2));
    expect(await s.library.remainingPages(owner)).toEqual({ used: 198, limit: FREE_PLAN_PAGES, remaining: 2 });
  });
});

describe("an upload whose file never comes", () => {
  it("fails with 'The upload did not complete' at its deadline, frees its pages and can be deleted", async () => {
    const s = await start();
    const stuck = await register(s, "closed-tab.pdf", 4096, 150);
    await settle(env.runtime);
    expect(await s.queries.getDocument(owner, stuck.document_id)).toMatchObject({ status: "UPLOADING" });
    // Declared pages hold nothing: only the early answer in the browser uses them.
    expect((await s.library.remainingPages(owner)).remaining).toBe(FREE_PLAN_PAGES);

    env.clock.advance(DEADLINE_MS - 1000);
    await s.engine.waitForCompletion(uploadDeadlineWorkflowId(stuck.document_id), 300);
    expect((await s.engine.describe(uploadDeadlineWorkflowId(stuck.document_id)))?.status).toBe("running");
    expect(await s.queries.getDocument(owner, stuck.document_id)).toMatchObject({ status: "UPLOADING" });

    env.clock.advance(1000);
    const run = await s.engine.waitForCompletion(uploadDeadlineWorkflowId(stuck.document_id), 10_000);
    expect(run).toMatchObject({ status: "completed", result: { abandoned: true } });
    await settle(env.runtime);
    expect(await s.queries.getDocument(owner, stuck.document_id)).toMatchObject({ status: "FAILED", failureReason: "The upload did not complete" });
    expect((await s.library.remainingPages(owner)).remaining).toBe(FREE_PLAN_PAGES);

    // A PUT arriving after the deadline is refused, and leaves no bytes behind.
    await expect(s.library.receiveUpload(stuck.document_id, tokenOf(stuck.url), await pdfOf(1, "late"), "application/pdf", ctx)).rejects.toMatchObject({
      code: expect.stringMatching(/UPLOAD_URL_INVALID|UPLOAD_CLOSED/),
    });
    expect(await s.blobs.list(`documents/${owner}/${stuck.document_id}/`)).toEqual([]);

    await s.library.deleteDocuments(owner, [stuck.document_id], ctx);
    expect((await s.queries.listDocuments(owner)).documents).toEqual([]);
  });

  it("changes nothing at the deadline when the file came in time", async () => {
    const s = await start();
    const id = await upload(s, "on-time.pdf", await pdfOf(2, "on time"), 2);
    expect(await finished(s, id)).toMatchObject({ status: "ACTIVE" });
    env.clock.advance(DEADLINE_MS);
    expect(await s.engine.waitForCompletion(uploadDeadlineWorkflowId(id), 10_000)).toMatchObject({ status: "completed", result: { abandoned: false } });
    await settle(env.runtime);
    expect(await s.queries.getDocument(owner, id)).toMatchObject({ status: "ACTIVE" });
    expect((await s.library.remainingPages(owner)).used).toBe(2);
  });

  it("ends at once when its PUT fails, without waiting for the deadline", async () => {
    const s = await start();
    const empty = await register(s, "empty.pdf", 10, 1);
    await expect(s.library.receiveUpload(empty.document_id, tokenOf(empty.url), Buffer.alloc(0), "application/pdf", ctx)).rejects.toMatchObject({
      code: "INVALID_SIZE",
    });
    const broken = await register(s, "dropped.pdf", 10, 1);
    await s.library.abandonUpload(owner, broken.document_id, ctx); // what the PUT route does on a 413 or a broken body
    await settle(env.runtime);
    for (const id of [empty.document_id, broken.document_id]) {
      expect(await s.queries.getDocument(owner, id)).toMatchObject({ status: "FAILED", failureReason: "The upload did not complete" });
    }
  });
});

describe("deleting a document that is still in progress", () => {
  it("deletes an upload that is stuck waiting for its file", async () => {
    const s = await start();
    const stuck = await register(s, "stuck.pdf", 4096, 1);
    await settle(env.runtime);
    await s.library.deleteDocuments(owner, [stuck.document_id], ctx);
    expect((await s.queries.listDocuments(owner)).documents).toEqual([]);
    // Its deadline later finds nothing to fail.
    env.clock.advance(DEADLINE_MS);
    expect(await s.engine.waitForCompletion(uploadDeadlineWorkflowId(stuck.document_id), 10_000)).toMatchObject({ result: { abandoned: false } });
  });

  it("cancels its ingestion: nothing indexed or stored stays, and its pages are free again", async () => {
    let transcribing!: () => void;
    const heard = new Promise<void>((resolve) => (transcribing = resolve));
    let finishTranscript!: () => void;
    const transcript = new Promise<void>((resolve) => (finishTranscript = resolve));
    const s = await start({
      transcriber: {
        transcribe: async () => {
          transcribing();
          await transcript;
          return { text: "Minutes: the bridge opens in spring." };
        },
      },
    });
    const id = await upload(s, "meeting.webm", Buffer.from("recorded audio bytes"), 0, "audio/webm");
    await heard; // ingestion is in the middle of its extraction step
    await s.library.deleteDocuments(owner, [id], ctx);
    finishTranscript();

    const run = await s.engine.waitForCompletion(`ingestion-${id}`, 30_000);
    expect(run).toMatchObject({ status: "completed", result: { ok: false } });
    await settle(env.runtime);
    expect((await s.queries.listDocuments(owner)).documents).toEqual([]);
    expect(await s.blobs.list(`documents/${owner}/${id}/`)).toEqual([]);
    expect(await s.search.searchText("bridge opens spring", { documentIds: [id] }, 5)).toEqual([]);
    expect((await s.library.remainingPages(owner)).used).toBe(0);
  });
});
