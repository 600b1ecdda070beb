/**
 * Signed-in pages under an open-loop load (issue 20 items 1 and 2), against the
 * BUILT app started as `npm start` starts it (`node server.mjs`, production
 * mode, fresh data folder). Not a test: nothing is asserted.
 *
 * 1. The dashboard, a workspace page and a static asset at fixed request rates
 *    (requests are sent on a schedule whatever the answers do, and latency is
 *    counted from the scheduled moment, so a slow server cannot slow the
 *    generator down and hide its queue): throughput and p50/p95/p99 per rate,
 *    each page beside the static asset at the same rate.
 * 2. The dashboard at a fixed rate while another user's 200-page PDF (the
 *    first 200 pages of `../shared/corpus/freeculture.pdf`) is ingested,
 *    beside the same rate idle.
 *
 * 3. First, the app's CPU time per request of each (all its processes,
 *    from /proc), beside the static asset's: less moved by a busy machine.
 *
 * Loopback only; every phase is bounded in time and in requests outstanding.
 * The machine's load average is printed: figures compare only within one run.
 *
 *   npx remix build && npx tsx bench/pages.bench.ts
 */
import http from "node:http";
import { readdirSync, readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { loadavg } from "node:os";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { HttpSession } from "../tests/support/http-session";
import { startAppServer } from "../tests/e2e/support/app-server";
import { pageCsrf, signUpOverHttp } from "../tests/e2e/support/accounts";
import { makePdf, waitUntil } from "../tests/e2e/support/library";
import { firstPages, percentile } from "./support";

/** BENCH_RATES="" and BENCH_INGESTION=0 leave out the open-loop phases (a quick look at CPU per request). */
const RATES = (process.env.BENCH_RATES ?? "25,100,200").split(",").filter(Boolean).map(Number);
const WITH_INGESTION = process.env.BENCH_INGESTION !== "0";
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const INGESTION_RATE = 50;
const DOCUMENTS = 12;
const WORKSPACES = 4;
const MAX_OUTSTANDING = 2_000;
const REQUEST_TIMEOUT_MS = 30_000;
const corpus = fileURLToPath(new URL("../../shared/corpus/", import.meta.url));

interface Phase {
  sent: number;
  completed: number;
  failed: number;
  /** Why requests failed: a status code or an error code, with how many. */
  failures: Map<string, number>;
  dropped: number;
  seconds: number;
  latencies: number[];
}

/** Sends GET `path` `rate` times a second for `seconds`, on schedule; latency runs from each request's scheduled time. */
async function openLoop(base: string, path: string, cookie: string, rate: number, seconds: number): Promise<Phase> {
  const target = new URL(path, base);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 512 });
  const phase: Phase = { sent: 0, completed: 0, failed: 0, failures: new Map(), dropped: 0, seconds, latencies: [] };
  const failed = (reason: string) => {
    phase.failed += 1;
    phase.failures.set(reason, (phase.failures.get(reason) ?? 0) + 1);
  };
  const total = Math.round(rate * seconds);
  const interval = 1000 / rate;
  const started = performance.now();
  let outstanding = 0;
  const inFlight: Promise<void>[] = [];
  const fire = (scheduled: number) =>
    new Promise<void>((resolve) => {
      outstanding += 1;
      const request = http.get(
        target,
        { agent, timeout: REQUEST_TIMEOUT_MS, headers: { Cookie: cookie, "Accept-Encoding": "gzip, deflate, br", Accept: "text/html,*/*" } },
        (response) => {
          response.on("data", () => undefined);
          response.on("end", () => {
            outstanding -= 1;
            if (response.statusCode === 200) {
              phase.completed += 1;
              phase.latencies.push(performance.now() - scheduled);
            } else failed(String(response.statusCode));
            resolve();
          });
        },
      );
      request.on("timeout", () => request.destroy(new Error("timeout")));
      request.on("error", (error: NodeJS.ErrnoException) => {
        outstanding -= 1;
        failed(error.code ?? error.message);
        resolve();
      });
    });
  while (phase.sent + phase.dropped < total) {
    const now = performance.now();
    // Every request whose moment has come goes now, however late the loop woke.
    while (phase.sent + phase.dropped < total && started + (phase.sent + phase.dropped) * interval <= now) {
      const scheduled = started + (phase.sent + phase.dropped) * interval;
      if (outstanding >= MAX_OUTSTANDING) phase.dropped += 1;
      else {
        phase.sent += 1;
        inFlight.push(fire(scheduled));
      }
    }
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, Math.min(interval, started + (phase.sent + phase.dropped) * interval - performance.now()))));
  }
  await Promise.all(inFlight);
  phase.seconds = (performance.now() - started) / 1000;
  agent.destroy();
  phase.latencies.sort((a, b) => a - b);
  return phase;
}

function describe(label: string, phase: Phase): string {
  const l = phase.latencies;
  const fmt = (ms: number) => (Number.isNaN(ms) ? "-" : ms < 10 ? ms.toFixed(1) : Math.round(ms).toString());
  return `${label.padEnd(30)} ${(phase.completed / phase.seconds).toFixed(1).padStart(7)} req/s  p50 ${fmt(percentile(l, 50)).padStart(6)}  p95 ${fmt(percentile(l, 95)).padStart(6)}  p99 ${fmt(percentile(l, 99)).padStart(6)} ms${phase.failed + phase.dropped > 0 ? `  (${phase.failed} failed: ${[...phase.failures].map(([reason, n]) => `${n}× ${reason}`).join(", ")}; ${phase.dropped} dropped)` : ""}`;
}

/** CPU seconds (user + system) used so far by every process of the app started on `dataDir` (Linux /proc; the web processes and the background process). */
function appCpuSeconds(dataDir: string): number {
  const ticksPerSecond = 100;
  let ticks = 0;
  for (const pid of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
    try {
      if (!readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("server.mjs")) continue;
      if (!readFileSync(`/proc/${pid}/environ`, "utf8").split("\0").includes(`DATA_DIR=${dataDir}`)) continue;
      const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // The process ended meanwhile.
    }
  }
  return ticks / ticksPerSecond;
}

/** The app's CPU milliseconds per request for `path`, over `count` requests sent 4 at a time: a figure the machine's other load barely moves. */
async function cpuPerRequest(base: string, path: string, cookie: string, dataDir: string, count = 400): Promise<number> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
  const get = () =>
    new Promise<void>((resolve, reject) => {
      http
        .get(new URL(path, base), { agent, headers: { Cookie: cookie, "Accept-Encoding": "gzip, deflate, br", Accept: "text/html,*/*" } }, (response) => {
          response.on("data", () => undefined);
          response.on("end", () => (response.statusCode === 200 ? resolve() : reject(new Error(`${path} answered ${response.statusCode}`))));
        })
        .on("error", reject);
    });
  const before = appCpuSeconds(dataDir);
  let next = 0;
  await Promise.all(Array.from({ length: 4 }, async () => {
    while (next++ < count) await get();
  }));
  const used = appCpuSeconds(dataDir) - before;
  agent.destroy();
  return (used * 1000) / count;
}

const json = (csrf: string, method: string, body?: unknown): RequestInit => ({
  method,
  body: body === undefined ? undefined : JSON.stringify(body),
  headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf },
});

/** Registers and uploads a PDF through the API, as the upload page does; returns its id. */
async function upload(session: HttpSession, base: string, csrf: string, name: string, bytes: Buffer, pages: number): Promise<string> {
  const registered = await session.request(`${base}/api/documents`, json(csrf, "POST", { document_name: name, document_type: "application/pdf", document_size: bytes.length, page_count: pages }));
  if (registered.status !== 201) throw new Error(`registering ${name} answered ${registered.status}: ${await registered.text()}`);
  const { url, document_id } = (await registered.json()) as { url: string; document_id: string };
  const put = await session.request(new URL(url, base).href, { method: "PUT", body: new Uint8Array(bytes), headers: { "Content-Type": "application/pdf", "X-CSRF-Token": csrf } });
  if (put.status >= 300) throw new Error(`uploading ${name} answered ${put.status}: ${await put.text()}`);
  return document_id;
}

async function statusOf(session: HttpSession, base: string, documentId: string): Promise<string | undefined> {
  const { documents } = (await (await session.request(`${base}/api/documents?limit=100`)).json()) as { documents: { document_id: string; status: string }[] };
  return documents.find((d) => d.document_id === documentId)?.status;
}

async function main() {
  const app = await startAppServer({ env: { LOG_LEVEL: "warn" }, readyTimeoutMs: 120_000 });
  try {
    const base = app.url;
    const reader = new HttpSession();
    const stamp = Date.now().toString(36);
    await signUpOverHttp(reader, base, { username: `benchreader${stamp}`, email: `benchreader${stamp}@example.com`, password: "Reader#2024" });
    const csrf = await pageCsrf(reader, `${base}/history/documents`);
    const ids: string[] = [];
    for (let i = 0; i < DOCUMENTS; i++) {
      const pdf = await makePdf([`Harbour report ${i} on tides and ferries.`, `Section two of report ${i}: the quay.`, `Closing notes ${i}.`]);
      ids.push(await upload(reader, base, csrf, `report-${i}.pdf`, pdf, 3));
    }
    await waitUntil(async () => (await Promise.all(ids.map((id) => statusOf(reader, base, id)))).every((s) => s === "ACTIVE"), "the documents to be ACTIVE", 180_000, 500);
    let workspacePath = "";
    for (let w = 0; w < WORKSPACES; w++) {
      const body = new URLSearchParams({ csrf, name: `Harbour ${w}`, description: "Tides and ferries", type: "Conversation" });
      for (const id of ids.slice(w * 3, w * 3 + 3)) body.append("documentId", id);
      const created = await reader.request(`${base}/workspace/create`, { method: "POST", body, headers: { "Content-Type": "application/x-www-form-urlencoded" } });
      const location = created.headers.get("location");
      if (created.status !== 302 || !location) throw new Error(`creating a workspace answered ${created.status}: ${(await created.text()).slice(0, 300)}`);
      workspacePath = new URL(location, base).pathname;
    }
    const dashboard = await (await reader.request(`${base}/`)).text();
    const asset = /\/build\/[^"]+\.js/.exec(dashboard)?.[0];
    if (!asset) throw new Error("no script asset in the dashboard's HTML");
    const cookie = reader.cookies(base).map((c) => `${c.name}=${c.value}`).join("; ");
    const targets = [
      { label: "dashboard /", path: "/" },
      { label: `workspace ${workspacePath.replace(/\/workspace\/[^/]+/, "/workspace/:id")}`, path: workspacePath },
      { label: `static ${asset.slice(0, 22)}…`, path: asset },
    ];
    for (const target of targets) {
      const warm = await reader.request(`${base}${target.path}`);
      if (warm.status !== 200) throw new Error(`${target.path} answered ${warm.status}`);
      await warm.arrayBuffer();
      await openLoop(base, target.path, cookie, 20, 2);
    }

    // New workspaces are embedded in the background: measure once the app is quiet again (at most 3 minutes).
    for (let waited = 0; waited < 180; waited += 2) {
      const before = appCpuSeconds(app.dataDir);
      await new Promise((resolve) => setTimeout(resolve, 2000));
      if (appCpuSeconds(app.dataDir) - before < 0.1) break;
    }
    console.log(`\nApp CPU per request (all its processes, 400 requests 4 at a time); load average ${loadavg().map((l) => l.toFixed(2)).join(" ")}`);
    const cpu: number[] = [];
    for (const target of targets) {
      cpu.push(await cpuPerRequest(base, target.path, cookie, app.dataDir));
      console.log(`${target.label.padEnd(30)} ${cpu[cpu.length - 1].toFixed(2).padStart(7)} ms`);
    }
    console.log(`ratios to the static asset: dashboard ${(cpu[0] / cpu[2]).toFixed(1)}×, workspace ${(cpu[1] / cpu[2]).toFixed(1)}×`);

    console.log(`\nSigned-in pages, open loop, ${SECONDS} s per rate (${DOCUMENTS} documents, ${WORKSPACES} workspaces); load average ${loadavg().map((l) => l.toFixed(2)).join(" ")}`);
    for (const rate of RATES) {
      console.log(`\n— ${rate} req/s offered`);
      const results = [];
      for (const target of targets) {
        const phase = await openLoop(base, target.path, cookie, rate, SECONDS);
        results.push(phase);
        console.log(describe(target.label, phase));
      }
      const [page, workspace, reference] = results;
      const ratio = (a: Phase) => (a.completed / a.seconds / (reference.completed / reference.seconds)).toFixed(2);
      const p95 = (a: Phase) => percentile(a.latencies, 95);
      console.log(`ratios to the static asset: dashboard ${ratio(page)}× throughput, p95 ${(p95(page) / p95(reference)).toFixed(1)}×; workspace ${ratio(workspace)}×, p95 ${(p95(workspace) / p95(reference)).toFixed(1)}×`);
    }

    // 2. The dashboard while another user's 200-page PDF is ingested, beside the same rate idle.
    if (!WITH_INGESTION) return;
    const uploader = new HttpSession();
    await signUpOverHttp(uploader, base, { username: `benchuploader${stamp}`, email: `benchuploader${stamp}@example.com`, password: "Reader#2024" });
    const uploaderCsrf = await pageCsrf(uploader, `${base}/history/documents`);
    const book = await firstPages(await readFile(`${corpus}freeculture.pdf`), 200);
    const idle = await openLoop(base, "/", cookie, INGESTION_RATE, SECONDS);
    const ingestionStarted = performance.now();
    const bookId = await upload(uploader, base, uploaderCsrf, "freeculture-200.pdf", book, 200);
    let active = false;
    const watching = waitUntil(async () => (active = (await statusOf(uploader, base, bookId)) === "ACTIVE"), "the 200-page PDF to be ACTIVE", 600_000, 500);
    const busy = await openLoop(base, "/", cookie, INGESTION_RATE, SECONDS);
    const busyWasIngesting = !active;
    await watching;
    const ingestionSeconds = (performance.now() - ingestionStarted) / 1000;
    console.log(`\nDashboard at ${INGESTION_RATE} req/s while a 200-page PDF is ingested (upload to ACTIVE ${ingestionSeconds.toFixed(1)} s${busyWasIngesting ? "" : "; it was ACTIVE before the phase ended"}); load average ${loadavg().map((l) => l.toFixed(2)).join(" ")}`);
    console.log(describe("dashboard, idle", idle));
    console.log(describe("dashboard, while ingesting", busy));
    console.log(`ratio busy/idle: p50 ${(percentile(busy.latencies, 50) / percentile(idle.latencies, 50)).toFixed(1)}×, p95 ${(percentile(busy.latencies, 95) / percentile(idle.latencies, 95)).toFixed(1)}×`);
  } finally {
    await app.stop();
  }
}

await main();
