import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HttpSession } from "../support/http-session";
import { parsePrometheusText, series, total } from "../support/prometheus-text";
import { form, pageCsrf, signUpOverHttp } from "./support/accounts";
import { freePort, ROOT, startAppServer, type AppServer } from "./support/app-server";

/**
 * The built app as `npm start` runs it: a primary, a background process and two
 * web processes. Operators scrape one /metrics for all of them, and /readyz
 * follows the background process (issue 32).
 */
const TOKEN = "metrics-token-for-the-operations-test";

/** A process's place among its role's, as the supervisor gave it (DOCUCHAT_PROCESS_INDEX in its environment). */
function processIndexOf(pid: number): string {
  const variable = readFileSync(`/proc/${pid}/environ`, "utf8").split("\0").find((entry) => entry.startsWith("DOCUCHAT_PROCESS_INDEX="));
  return variable!.split("=")[1]!;
}

/** The cluster process of `role` the primary `pid` forked (DOCUCHAT_PROCESS in its environment). */
function childOfRole(pid: number, role: "web" | "background"): number | null {
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const parent = Number(readFileSync(`/proc/${entry}/stat`, "utf8").split(") ")[1]?.split(" ")[1]);
      if (parent !== pid) continue;
      if (readFileSync(`/proc/${entry}/environ`, "utf8").split("\0").includes(`DOCUCHAT_PROCESS=${role}`)) return Number(entry);
    } catch {
      // The process ended while we looked.
    }
  }
  return null;
}

async function until<T>(what: string, probe: () => Promise<T | null>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== null) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Signs up, uploads a short text, makes a workspace of it and asks a question: the answer's streaming response, not yet read. */
async function askAQuestion(url: string, prefix: string): Promise<{ conversationId: string; answer: Response }> {
  const session = new HttpSession();
  const username = `${prefix}${Date.now().toString(36)}`;
  await signUpOverHttp(session, url, { username, email: `${username}@example.com`, password: "Reader#2024" });
  const csrf = await pageCsrf(session, `${url}/workspace/create`);
  const json = (body: unknown): RequestInit => ({ method: "POST", body: JSON.stringify(body), headers: { "Content-Type": "application/json", Accept: "application/json", "X-CSRF-Token": csrf } });

  const text = Buffer.from(
    "The Nile is the longest river in Africa. It flows north through eleven countries before it reaches the Mediterranean Sea. " +
      "Its waters fed the farms of ancient Egypt, and the yearly flood laid down the black soil the Egyptians named their land after.",
  );
  const registered = (await (await session.request(`${url}/api/documents`, json({ document_name: "nile.txt", document_type: "text/plain", document_size: text.length, page_count: 1, media_type: "document", document_source: "file" }))).json()) as { url: string; document_id: string };
  const put = await session.request(new URL(registered.url, url).href, { method: "PUT", body: text, headers: { "Content-Type": "text/plain", "X-CSRF-Token": csrf } });
  expect(put.ok).toBe(true);
  await until("the document to be ACTIVE", async () => {
    const { documents } = (await (await session.request(`${url}/api/documents?limit=10`)).json()) as { documents: { document_id: string; status: string }[] };
    return documents.find((d) => d.document_id === registered.document_id)?.status === "ACTIVE" ? true : null;
  });
  const created = await session.request(`${url}/workspace/create`, form({ csrf, name: "Rivers", description: "", type: "Conversation", documentId: registered.document_id }));
  const workspaceId = /\/workspace\/([^/]+)/.exec(created.headers.get("location") ?? "")?.[1];
  expect(workspaceId).toBeTruthy();
  const conversationId = await until("the workspace's first conversation", async () => {
    const response = await session.request(`${url}/api/conversations?workspace_id=${workspaceId}`);
    const body = response.ok ? ((await response.json()) as { conversations: { id: string }[] }) : null;
    return body?.conversations[0]?.id ?? null;
  });

  const answer = await session.request(`${url}/api/conversations/${conversationId}/messages_stream`, json({ text: "Where does the Nile flow, and what did its flood give Egypt?" }));
  return { conversationId, answer };
}

describe("operating the clustered app", () => {
  let app: AppServer;

  beforeAll(async () => {
    // Three processes start, and web processes listen only once the background one has caught up: on a busy machine
    // that takes longer than one process's minute.
    // At info, so every request's line is there for the log's own test at the end.
    app = await startAppServer({ env: { WEB_PROCESSES: "2", METRICS_TOKEN: TOKEN, LOG_LEVEL: "info" }, readyTimeoutMs: 150_000 });
    // The second web process starts once the first one serves (decision 255): the cluster's figures wait for it.
    const deadline = Date.now() + 60_000;
    for (;;) {
      const response = await fetch(`${app.url}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}` } });
      const samples = parsePrometheusText(await response.text());
      if (series(samples, "docuchat_process_up", { process: "web", index: "1" })[0]?.value === 1) break;
      if (Date.now() > deadline) throw new Error("The second web process did not come up within a minute of the first");
      await new Promise((r) => setTimeout(r, 200));
    }
  });
  afterAll(async () => app?.stop());

  const scrape = async () => {
    const response = await fetch(`${app.url}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}` } });
    expect(response.status).toBe(200);
    return parsePrometheusText(await response.text());
  };

  it("serves the whole cluster's metrics to the holder of the token, and by route pattern, never by user", async () => {
    expect((await fetch(`${app.url}/metrics`)).status).toBe(401);
    expect((await fetch(`${app.url}/metrics`, { headers: { Authorization: "Bearer wrong" } })).status).toBe(401);

    const username = `ops${Date.now().toString(36)}`;
    await signUpOverHttp(new HttpSession(), app.url, { username, email: `${username}@example.com`, password: "Reader#2024" });
    const samples = await scrape();

    expect(total(series(samples, "docuchat_http_request_duration_seconds_count", { route: "/signup", method: "POST", process: "web" }))).toBeGreaterThanOrEqual(2);
    expect(total(series(samples, "docuchat_commands_total", { context: "identity", outcome: "accepted", process: "web" }))).toBeGreaterThan(0);
    // Every process answered the primary with its own series, labelled by role and index (never summed): its
    // memory, its file limit, when it started and what it runs; the supervisor's own beside them.
    const processes = (name: string) => series(samples, name).map((s) => `${s.labels.process} ${s.labels.index}`).sort();
    const everyProcess = ["background 0", "supervisor 0", "web 0", "web 1"];
    expect(processes("process_resident_memory_bytes")).toEqual(everyProcess);
    expect(processes("process_start_time_seconds")).toEqual(everyProcess);
    expect(new Set(series(samples, "process_max_fds").map((s) => s.value)).size).toBe(1);
    expect(processes("nodejs_eventloop_lag_p99_seconds")).toEqual(everyProcess);
    expect(series(samples, "docuchat_build_info", { process: "web", index: "1" })[0]?.labels).toMatchObject({ version: expect.any(String), commit: expect.any(String), node: process.version });
    expect(series(samples, "docuchat_process_up").map((s) => `${s.labels.process} ${s.labels.index} ${s.value}`).sort()).toEqual(["background 0 1", "web 0 1", "web 1 1"]);
    expect(total(series(samples, "docuchat_process_restarts_total"))).toBe(0);
    expect(series(samples, "docuchat_projector_lag_events", { projector: "identity.users", process: "background" })).toHaveLength(1);
    expect(series(samples, "docuchat_workflow_runs", { process: "background" }).length).toBeGreaterThan(0);

    const labelValues = samples.flatMap((s) => Object.values(s.labels));
    expect(labelValues.filter((v) => v.includes(username))).toEqual([]);
    expect(labelValues.filter((v) => /[0-9a-f]{8}-[0-9a-f]{4}-/.test(v))).toEqual([]);
  });

  it("is scraped by a real Prometheus, where every dashboard panel finds data and every series an alert selects exists", async () => {
    const rules = path.join(ROOT, "docker", "prometheus", "alerts.yml");
    expect(execFileSync("promtool", ["check", "rules", rules], { encoding: "utf8" })).toMatch(/SUCCESS: \d+ rules found/);

    const dir = mkdtempSync(path.join(os.tmpdir(), "docuchat-prometheus-"));
    const port = await freePort();
    writeFileSync(path.join(dir, "token"), TOKEN);
    writeFileSync(
      path.join(dir, "prometheus.yml"),
      [
        "global: { scrape_interval: 1s, evaluation_interval: 1s }",
        `rule_files: ["${rules}"]`,
        "scrape_configs:",
        "  - job_name: docuchat",
        `    authorization: { credentials_file: "${path.join(dir, "token")}" }`,
        `    static_configs: [{ targets: ["127.0.0.1:${app.port}"] }]`,
      ].join("\n"),
    );
    const prometheus = spawn("prometheus", [`--config.file=${path.join(dir, "prometheus.yml")}`, `--storage.tsdb.path=${path.join(dir, "data")}`, `--web.listen-address=127.0.0.1:${port}`], { stdio: "ignore" });
    try {
      const prometheusUrl = `http://127.0.0.1:${port}`;
      // A busy machine's Prometheus answers 503 while it starts: wait until it says it is ready.
      await until("Prometheus to be ready", async () => ((await fetch(`${prometheusUrl}/-/ready`).catch(() => null))?.ok ? true : null));
      type Answer = { status: string; error?: string; data?: { result: unknown[] } };
      /** A query's answer (an error in the query included); one Prometheus cannot give yet (503, not JSON) is asked again, within a bound. */
      const query = (expr: string) =>
        until(`Prometheus to answer ${expr}`, async () => {
          const response = await fetch(`${prometheusUrl}/api/v1/query?query=${encodeURIComponent(expr)}`).catch(() => null);
          if (!response || response.status === 503 || !response.headers.get("content-type")?.includes("json")) return null;
          return (await response.json()) as Answer;
        }, 15_000);
      await until("Prometheus to scrape the app", async () => ((await query('up{job="docuchat"} == 1')).data?.result.length ? true : null));
      // Traffic while Prometheus scrapes (rate() sees only what changes between scrapes): pages, a missing one, probes, an
      // upload and a question answered to its end, then enough scrapes for rate() over them.
      const { answer } = await askAQuestion(app.url, "ops");
      expect(answer.status).toBe(200);
      expect(await answer.text()).toContain("[END]");
      for (let i = 0; i < 5; i++) {
        await fetch(`${app.url}/login`);
        await fetch(`${app.url}/readyz`);
        await fetch(`${app.url}/no-such-page`);
        await new Promise((r) => setTimeout(r, 1000));
      }
      expect(total(series(await scrape(), "docuchat_answer_duration_seconds_count", { outcome: "completed" }))).toBe(1);

      const dashboard = JSON.parse(readFileSync(path.join(ROOT, "docker", "grafana", "dashboards", "docuchat.json"), "utf8")) as {
        templating: { list: { name: string }[] };
        panels: { title: string; targets: { expr: string; legendFormat?: string }[] }[];
      };
      expect(dashboard.templating.list.map((variable) => variable.name)).toEqual(["datasource", "job", "instance"]);
      const targets = dashboard.panels.flatMap((panel) => panel.targets.map((target) => ({ panel: panel.title, ...target })));
      // Every query follows the chosen job and instances, and every line is named.
      expect(targets.filter((t) => !t.expr.includes('job="$job"') || !t.expr.includes('instance=~"$instance"') || !t.legendFormat).map((t) => t.panel)).toEqual([]);
      // As Grafana sends them with job "docuchat", every instance, and a rate window of a few of this test's 1 s scrapes.
      const asSent = (expr: string) => expr.replaceAll("$job", "docuchat").replaceAll("$instance", ".*").replaceAll("$__rate_interval", "1m");
      const panelQueries = targets.map((t) => ({ what: `panel "${t.panel}"`, expr: asSent(t.expr) }));
      // The alerts' own behaviour is unit-tested (alerts.test.yml); here, every series they select must exist on the real app,
      // or an alert would stay silent forever. A selector is a metric name followed by its labels in braces.
      const alertSeries = [...new Set([...readFileSync(rules, "utf8").matchAll(/([a-zA-Z_:][\w:]*)\{/g)].map(([, name]) => name!))].map((name) => ({
        what: `alerts' series`,
        expr: `count(${name}{job="docuchat"})`,
      }));
      expect(panelQueries.length).toBeGreaterThanOrEqual(25);
      expect(alertSeries.length).toBeGreaterThanOrEqual(10);
      const empty: string[] = [];
      for (const { what, expr } of [...panelQueries, ...alertSeries]) {
        const body = await query(expr);
        if (body.status !== "success" || !body.data?.result.length) empty.push(`${what}: ${expr} -> ${body.error ?? "no data"}`);
      }
      expect(empty).toEqual([]);
      // The question's first token is on the dashboard, not only a NaN quantile of zero-initialised series.
      const firstToken = targets.find((t) => t.panel.startsWith("Time to first token"))!;
      const answered = (await query(asSent(firstToken.expr))).data!.result as { metric: { provider: string }; value: [number, string] }[];
      expect(answered.filter((r) => Number.isFinite(Number(r.value[1]))).map((r) => r.metric.provider)).toEqual(["built-in"]);
    } finally {
      prometheus.kill("SIGTERM");
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("answers a scrape while a web process restarts, with that process missing and its restart counted", async () => {
    const killed = childOfRole(app.pid, "web")!;
    const index = processIndexOf(killed);
    const slot = { process: "web", index };
    const startedBefore = series(await scrape(), "process_start_time_seconds", slot)[0]!.value;
    process.kill(killed, "SIGKILL");

    // scrape() expects 200 of every answer: the supervisor answers for the processes that are there. Only a
    // connection the dying process had already taken may break (no answer at all): it is asked again.
    const during = await until("the restart to be counted", async () => {
      const samples = await scrape().catch((error: Error) => (error.message === "fetch failed" ? null : Promise.reject(error)));
      return samples && total(series(samples, "docuchat_process_restarts_total", slot)) === 1 ? samples : null;
    });
    expect(series(during, "docuchat_process_up", slot)[0]?.value).toBe(0);
    expect(series(during, "process_resident_memory_bytes", { process: "web" }).map((s) => s.labels.index)).not.toContain(index);
    expect(series(during, "process_resident_memory_bytes", { process: "background" })).toHaveLength(1);

    const after = await until("the new web process to report", async () => {
      const samples = await scrape();
      return series(samples, "docuchat_process_up", slot)[0]?.value === 1 ? samples : null;
    });
    // The replacement took the same index: its series go on, with a new start time and the restart counted once.
    expect(series(after, "process_start_time_seconds", slot)[0]!.value).toBeGreaterThan(startedBefore);
    expect(total(series(after, "docuchat_process_restarts_total", slot))).toBe(1);
  });

  it("stays ready while the background process is down, reports it down on its own, and up again once the primary has restarted it", async () => {
    const operator = { headers: { Authorization: `Bearer ${TOKEN}` } };
    const ready = await fetch(`${app.url}/readyz`, operator);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ ready: true, checks: { background: "ok", projectors: "ok", "store:events.db": "ok" } });

    const background = childOfRole(app.pid, "background");
    expect(background).not.toBeNull();
    process.kill(background!, "SIGKILL");

    const down = await until("the background process to be reported down", async () => {
      const response = await fetch(`${app.url}/readyz`, operator);
      const body = (await response.json()) as { checks: Record<string, string> };
      return body.checks.background === "down" ? { status: response.status, body } : null;
    });
    // The web processes still serve pages: the load balancer keeps sending them requests.
    expect(down.status).toBe(200);
    expect((await fetch(`${app.url}/healthz`)).status).toBe(200);

    await until("the background process to be up again", async () => (((await (await fetch(`${app.url}/readyz`, operator)).json()) as { checks: Record<string, string> }).checks.background === "ok" ? true : null));
    expect(childOfRole(app.pid, "background")).not.toBe(background);
  });

  // Last: by now the app has served pages, questions, probes and scrapes, and lost a web and the background process.
  it("wrote every line, the supervisor's and the failures' included, as one JSON object with its level, time, pid and role", async () => {
    // Two failures on purpose: a malformed escape in a URL (Express refuses it) and a POST to a page that takes none (Remix does).
    expect((await fetch(`${app.url}/workspace/%E0%A4%A`)).status).toBe(400);
    const refused = await fetch(`${app.url}/help`, { method: "POST", headers: { Origin: app.url, "Content-Type": "application/x-www-form-urlencoded" }, body: "a=1" });
    expect(refused.status).toBe(405);
    const refusedId = refused.headers.get("x-request-id");
    await until("the refusal to be logged", async () => (app.output().includes(refusedId!) ? true : null), 10_000);

    const lines = app.output().split("\n").filter((line) => line !== "");
    const notJson = lines.filter((line) => {
      try {
        return typeof JSON.parse(line) !== "object";
      } catch {
        return true;
      }
    });
    expect(notJson).toEqual([]);
    const entries = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    const incomplete = entries.filter((e) => typeof e.level !== "string" || typeof e.time !== "string" || typeof e.pid !== "number" || typeof e.role !== "string");
    expect(incomplete).toEqual([]);
    expect(new Set(entries.map((e) => e.role))).toEqual(new Set(["supervisor", "background", "web"]));
    // Each request's line names it; so do its failures.
    const requests = entries.filter((e) => e.msg === "request");
    expect(requests.length).toBeGreaterThan(20);
    expect(requests.filter((e) => typeof e.requestId !== "string")).toEqual([]);
    expect(entries.find((e) => e.requestId === refusedId && e.msg === "request refused")).toMatchObject({ level: "warn", role: "web", status: 405, path: "/help" });
    expect(entries.find((e) => e.msg === "request failed" && e.path === "/workspace/%E0%A4%A")).toMatchObject({ level: "warn", status: 400 });
    // The processes killed earlier: the supervisor said which, and that it started another.
    const stopped = entries.filter((e) => e.role === "supervisor" && e.level === "error").map((e) => e.process);
    expect(stopped).toEqual(expect.arrayContaining(["web", "background"]));
    // No secret at any level: the operators' token, a password, an API token.
    expect(app.output()).not.toContain(TOKEN);
    expect(app.output()).not.toContain("Reader#2024");
    expect(app.output()).not.toMatch(/dcp_[A-Za-z0-9]/);
  });
});

describe("stopping the app while an answer streams", () => {
  let app: AppServer;
  beforeAll(async () => {
    app = await startAppServer({ env: { WEB_PROCESSES: "1" } });
  });
  afterAll(async () => app?.stop());

  it("finishes the answer to its end before the process stops on SIGTERM", async () => {
    const { conversationId, answer } = await askAQuestion(app.url, "halt");
    expect(answer.status).toBe(200);
    const reader = answer.body!.getReader();
    const decoder = new TextDecoder();
    let streamed = decoder.decode((await reader.read()).value, { stream: true });
    // The operator stops the app while the answer is on its way.
    process.kill(app.pid, "SIGTERM");
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      streamed += decoder.decode(value, { stream: true });
    }
    const [said, end] = streamed.split("[END]");
    expect(end, streamed).toBeDefined();
    expect(JSON.parse(end!)).toMatchObject({ message_id: expect.any(String), conversation_id: conversationId });
    expect(said!.trim()).toMatch(/[.!?)\]]$/);
    // And it did stop: nothing answers any more.
    await until("the app to stop", async () => (await fetch(`${app.url}/healthz`).then(() => null, () => true)));
  });
});
