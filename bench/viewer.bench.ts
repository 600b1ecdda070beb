/**
 * Time to the first painted page of a 352-page PDF in the viewer (after the
 * viewer mounted, and after the page's navigation began: pdf.js and the first
 * ranges start while the page hydrates, before the viewer mounts, decision 176),
 * and the bytes fetched before it, beside the time to download the whole file from
 * the same server in the same browser and run (decision 160). Not a test:
 * nothing is asserted.
 *
 *   npx remix build && npx tsx bench/viewer.bench.ts          (VIEWER_BENCH_ROUNDS=9 for more opens)
 *
 * The book (../shared/corpus/freeculture.pdf) is uploaded and ingested by an
 * embedded runtime on a fresh data folder (on the yearly Pine plan: the book
 * is over the free plan's 200 pages), in a workspace of its own; then the
 * built server starts on that folder and Debian's Chromium signs in and opens
 * the workspace, whose viewer shows the book, ROUNDS times, each in a new
 * session: the book is fetched anew every time (its cache entry is per session
 * cookie), the app's scripts and pdf.js come from the browser's cache.
 */
import "reflect-metadata";
import { readFileSync, rmSync } from "node:fs";
import { loadavg } from "node:os";
import path from "node:path";
import { TOKENS } from "#application/tokens";
import type { DevMailbox } from "#application/ports/mailer";
import type { WorkflowEngine } from "#application/ports/workflow";
import { IdentityService } from "#application/identity/identity-service";
import { ProfileService } from "#application/identity/profile-service";
import { LibraryService } from "#application/library/library-service";
import { WorkspaceService } from "#application/workspace/workspace-service";
import { PLANS } from "#domain/billing/plans";
import { startAppServer } from "../tests/e2e/support/app-server";
import { launchBrowser } from "../tests/e2e/support/browser";
import { settle } from "../tests/support/library-fixtures";
import { createTestRuntime } from "../tests/support/test-runtime";

const BOOK = path.resolve("../shared/corpus/freeculture.pdf");
/** Counted opens (VIEWER_BENCH_ROUNDS): on a shared, loaded machine more rounds steady the median. */
const ROUNDS = Number(process.env.VIEWER_BENCH_ROUNDS) || 5;
const USERNAME = "viewerbench";
const PASSWORD = "Reader#2024";
const NAME = "freeculture.pdf";
/** tests/support/test-runtime.ts signs with this secret. */
const TEST_RUNTIME_SECRET = "test-secret-test-secret-test-secret!";
const ctx = { requestId: "viewer-bench", clientAddress: "127.0.0.1" };

/** A reader with the book in a workspace, on a data folder the built server then opens. */
async function seed(): Promise<{ dataDir: string; workspaceId: string; documentId: string }> {
  const env = await createTestRuntime({ allowances: { limits: async () => PLANS["pine-yearly"].limits } });
  const { runtime } = env;
  const identity = runtime.container.get(IdentityService);
  const { userId } = await identity.register({ username: USERNAME, email: `${USERNAME}@example.com`, password: PASSWORD }, ctx);
  const code = /\d{6}/.exec((await runtime.get<DevMailbox>(TOKENS.DevMailbox).list(1))[0]!.text)![0];
  await identity.confirmSignup({ username: USERNAME, code }, ctx);
  await runtime.container
    .get(ProfileService)
    .completeOnboarding(userId, { firstName: "Viewer", lastName: "Bench", email: `${USERNAME}@example.com`, occupation: "Engineer", language: "" }, { ...ctx, actorId: userId });
  const library = runtime.container.get(LibraryService);
  const bytes = readFileSync(BOOK);
  const registered = await library.registerUpload(userId, { document_name: NAME, document_type: "application/pdf", document_size: bytes.length, page_count: 1 }, { ...ctx, actorId: userId });
  const token = new URL(registered.url, "http://x").searchParams.get("token")!;
  await library.receiveUpload(registered.document_id, token, bytes, "application/pdf", { ...ctx, actorId: userId });
  const engine = runtime.get<WorkflowEngine>(TOKENS.WorkflowEngine);
  await engine.waitForCompletion(`ingestion-${registered.document_id}`, 600_000);
  const { workspaceId } = await runtime.container
    .get(WorkspaceService)
    .create(userId, { name: "Free Culture", type: "Conversation", documentIds: [registered.document_id] }, { ...ctx, actorId: userId });
  await engine.waitForCompletion(`workspace-launch-${workspaceId}`, 120_000);
  await settle(runtime);
  await runtime.stop();
  return { dataDir: env.dataDir, workspaceId, documentId: registered.document_id };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function main() {
  const started = performance.now();
  const { dataDir, workspaceId, documentId } = await seed();
  console.log(`seeded ${path.basename(BOOK)} (${(readFileSync(BOOK).length / 1e6).toFixed(1)} MB) in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  // The seeding runtime's secret: what it signed and hashed, the server must read.
  const server = await startAppServer({ env: { DATA_DIR: dataDir, APP_SECRET: TEST_RUNTIME_SECRET } });
  // Debian's Chromium with the journeys' flags, the guided tours kept out of the way.
  const browser = await launchBrowser();
  try {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    const logIn = async () => {
      // Leave the last round's workspace first: saving its session on the way out could set a
      // cookie after the clearing, and the login form's CSRF token would then not match it.
      await page.goto("about:blank");
      await context.clearCookies();
      await page.goto(`${server.url}/login`);
      await page.getByLabel("Username").fill(USERNAME);
      await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
      await page.getByRole("button", { name: "Login" }).click();
      await page.waitForURL((url) => !url.pathname.startsWith("/login"));
    };

    const download = `/documents/download/${encodeURIComponent(documentId)}`;
    const firstPaints: number[] = [];
    const fromNavigation: number[] = [];
    const bytesBefore: number[] = [];
    const wholeFile: number[] = [];
    let fileSize = 0;
    // Round 0 only warms the app's own assets (scripts, pdf.js and its worker) and is not counted.
    for (let round = 0; round <= ROUNDS; round++) {
      // A new session each round: the original is cached per session cookie (Vary: Cookie), so
      // every counted open fetches the book again while the app's assets come from the cache.
      await logIn();
      await page.goto(`${server.url}/workspace/${workspaceId}`);
      await page.getByTestId("workspace-screen").waitFor();
      // The workspace opens its document in the viewer by itself; if not, open it.
      if ((await page.locator(`[data-testid="doc-tab"][data-name="${NAME}"]`).count()) === 0) {
        await page.locator(`[data-testid="related-file"][data-name="${NAME}"]`).click();
      }
      const painted = await page.waitForFunction(
        (id) => {
          const marks = (performance.getEntriesByName("viewer:first-page") as PerformanceMark[]).filter((m) => (m.detail as { documentId?: string })?.documentId === id);
          const mark = marks[marks.length - 1];
          if (!mark) return null;
          // Bytes of the file fetched (ranges) before the first page was painted.
          const bytes = (performance.getEntriesByType("resource") as PerformanceResourceTiming[])
            .filter((r) => r.name.includes("/documents/download/") && r.responseEnd <= mark.startTime)
            .reduce((n, r) => n + r.encodedBodySize, 0);
          // The viewer's own marks on the way: the first range's answer, pdf.js's parse of the file's structure.
          // (No named inner functions: tsx would wrap them in a helper the page does not have.)
          const [firstRange, parsed] = ["viewer:bytes", "viewer:parsed"].map((name) => {
            const found = (performance.getEntriesByName(name) as PerformanceMark[]).filter((m) => (m.detail as { documentId?: string })?.documentId === id);
            return (found[found.length - 1]?.detail as { ms?: number } | undefined)?.ms ?? null;
          });
          // The mark's time is since the workspace page's navigation began: what the reader waits for.
          return { ms: (mark.detail as { ms: number }).ms, sinceNavigation: Math.round(mark.startTime), bytes, firstRange, parsed };
        },
        documentId,
        { timeout: 120_000, polling: 50 },
      );
      const { ms, sinceNavigation, bytes, firstRange, parsed } = (await painted.jsonValue()) as { ms: number; sinceNavigation: number; bytes: number; firstRange: number; parsed: number };
      if (round === 0) continue;
      firstPaints.push(ms);
      fromNavigation.push(sinceNavigation);
      bytesBefore.push(bytes);
      const whole = await page.evaluate(async (url) => {
        const t = performance.now();
        const body = await (await fetch(url, { cache: "no-store", credentials: "same-origin" })).arrayBuffer();
        return { ms: performance.now() - t, size: body.byteLength };
      }, `${download}?type=document&inline=1`);
      wholeFile.push(whole.ms);
      fileSize = whole.size;
      console.log(`  round ${round}: first page painted ${ms} ms after the viewer mounted (first range ${firstRange} ms, parsed ${parsed} ms; ${sinceNavigation} ms since navigation), ` +
          `${(bytes / 1024).toFixed(0)} KB fetched before it; whole file ${whole.ms.toFixed(0)} ms`);
    }
    console.log(
      `\n352-page PDF, ${(fileSize / 1e6).toFixed(1)} MB, median of ${ROUNDS} first opens in a session:\n` +
        `  first page painted        ${median(firstPaints)} ms after the viewer mounted (${(median(bytesBefore) / 1024).toFixed(0)} KB of the file fetched before it, ${((100 * median(bytesBefore)) / fileSize).toFixed(1)} %)\n` +
        `                            ${median(fromNavigation)} ms after the workspace page's navigation began\n` +
        `  whole-file download       ${median(wholeFile).toFixed(0)} ms (same server, same browser)\n` +
        `  ratio first page / whole file: ${(median(firstPaints) / median(wholeFile)).toFixed(2)}×`,
    );
    console.log(`load average (1, 5, 15 min): ${loadavg().map((l) => l.toFixed(2)).join(", ")}`);
  } finally {
    await browser.close();
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
