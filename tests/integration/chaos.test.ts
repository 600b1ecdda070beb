import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { errorBody, writeStream } from "#infrastructure/ai/testing/provider-wire";
import { loadConfig } from "#infrastructure/config/config";
import { rebuildProjections } from "#infrastructure/embedded/projection-runner";
import { openDatabase } from "#infrastructure/embedded/sqlite/open-database";
import { SqliteReadModelStore } from "#infrastructure/embedded/sqlite/sqlite-read-model-store";
import { openStores } from "#infrastructure/stores";
import { allProjectors } from "#projections/index";
import { childrenOfRole, notBelow, processesMarked } from "../support/app-processes";
import { HttpSession } from "../support/http-session";
import { completeOnboardingOverHttp, form, mailedCode, pageCsrf } from "../e2e/support/accounts";
import { type AppServer, ROOT, startAppServer } from "../e2e/support/app-server";

/**
 * Crash-only (issue 42): the built app as `npm start` runs it (a supervisor, a background process and
 * two web processes, embedded adapters), under a steady mix of traffic, while its processes are killed
 * and stopped at seeded random moments. Afterwards nothing may be stuck, doubled, orphaned, failed by a
 * stop, or differ from what replaying the log builds; no request may have answered 500 while every
 * process was up. The figures are printed on one line.
 */
// 11: SIGKILL and SIGTERM of each kind of process among the six kills.
const SEED = Number(process.env.CHAOS_SEED ?? 11);
const KILLS = Number(process.env.CHAOS_KILLS ?? 6);
const SECRET = "chaos-secret-chaos-secret-chaos-secret-42";
const METRICS_TOKEN = "chaos-operator-token";
const MODEL = "scripted-model";
const FIXTURES = path.join(ROOT, "tests", "fixtures", "documents");
/** Small real documents, one of them scanned (its OCR runs in tools the background process starts). */
const DOCUMENTS = [
  { file: "harbour-talk.pdf", type: "application/pdf" },
  { file: "saltmarsh-survey.docx", type: "application/vnd.openxmlformats-officedocument.wordprocessingml.document" },
  { file: "saltmarsh-survey.pdf", type: "application/pdf" },
  { file: "harbour-talk.pptx", type: "application/vnd.openxmlformats-officedocument.presentationml.presentation" },
  { file: "ferry-memo-scanned.pdf", type: "application/pdf" },
];

/** A small seeded generator (mulberry32): the same seed, the same kills at the same offsets. */
function seeded(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { next, between: (low: number, high: number) => low + next() * (high - low), pick: <T>(items: readonly T[]) => items[Math.floor(next() * items.length)]! };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The operator's model: answers every question with a cited sentence, streamed; embeddings derived from the text. */
async function startScriptedModel(): Promise<{ port: number; close: () => Promise<void> }> {
  const server = http.createServer((req, res) => {
    let raw = "";
    req.on("data", (chunk: Buffer) => (raw += chunk.toString()));
    req.on("end", () => {
      if (req.headers.authorization !== "Bearer sk-chaos") {
        const { contentType, body } = errorBody("openai", 401);
        return res.writeHead(401, { "content-type": contentType }).end(body);
      }
      const body = JSON.parse(raw) as { stream?: boolean; input?: string[] | string; messages?: { role: string; content: string }[] };
      if (req.url === "/v1/embeddings") {
        const texts = Array.isArray(body.input) ? body.input : [String(body.input)];
        // A direction per text from its letters: similar texts point alike, and the same text always the same way.
        const vector = (text: string) => {
          const v = Array.from({ length: 16 }, (_, i) => 1 + [...text.toLowerCase()].filter((c, j) => (c.charCodeAt(0) + j) % 16 === i).length);
          const norm = Math.hypot(...v);
          return v.map((x) => x / norm);
        };
        res.writeHead(200, { "content-type": "application/json" });
        return res.end(JSON.stringify({ object: "list", data: texts.map((t, index) => ({ object: "embedding", index, embedding: vector(t) })), model: MODEL, usage: { prompt_tokens: 1, total_tokens: 1 } }));
      }
      if (!body.stream) {
        res.writeHead(200, { "content-type": "application/json" });
        return res.end(JSON.stringify({ id: "c", object: "chat.completion", created: 1, model: MODEL, choices: [{ index: 0, message: { role: "assistant", content: "harbour survey\nsalt marsh" }, finish_reason: "stop" }], usage: { prompt_tokens: 9, completion_tokens: 4, total_tokens: 13 } }));
      }
      // Slow enough frames that kills land in the middle of answers.
      writeStream("openai", res, ["The documents ", "describe ", "the harbour ", "and the marsh ", "[1]."], { input: 50, output: 10 }, MODEL, undefined, 150);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { port: (server.address() as AddressInfo).port, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

type Outcome = { path: string; started: number; ended: number; status: number | "network" | "stream error" };

/** A cookie jar that records every request's answer, or that none came. */
class RecordingSession extends HttpSession {
  constructor(private readonly record: (outcome: Outcome) => void) {
    super();
  }

  override async request(url: string, init: RequestInit = {}): Promise<Response> {
    const started = performance.now();
    const path = new URL(url).pathname;
    try {
      const response = await super.request(url, { signal: AbortSignal.timeout(60_000), ...init });
      this.record({ path, started, ended: performance.now(), status: response.status });
      return response;
    } catch (error) {
      this.record({ path, started, ended: performance.now(), status: "network" });
      throw error;
    }
  }
}

/** Someone using the app: an account, an API token, documents, workspaces and conversations, each request recorded. */
class Visitor {
  readonly session: RecordingSession;
  token = "";
  private csrf = "";
  readonly documents: string[] = [];
  readonly workspaces: string[] = [];
  readonly conversations: string[] = [];

  constructor(
    private readonly url: string,
    private readonly name: string,
    private readonly record: (outcome: Outcome) => void,
  ) {
    this.session = new RecordingSession(record);
  }

  /** One request and its whole answer; a refused connection or an answer cut or ending in an error event returns null. */
  async call(pathname: string, init: RequestInit & { bearer?: boolean } = {}): Promise<{ status: number; body: string } | null> {
    const started = performance.now();
    const headers = new Headers(init.headers);
    if (init.bearer) headers.set("Authorization", `Bearer ${this.token}`);
    const response = await this.session.request(`${this.url}${pathname}`, { ...init, headers }).catch(() => null);
    if (!response) return null;
    try {
      const body = await response.text();
      if (!response.headers.get("content-type")?.startsWith("text/event-stream") || !/^event: error$/m.test(body)) return { status: response.status, body };
      this.record({ path: new URL(pathname, this.url).pathname, started, ended: performance.now(), status: "stream error" });
    } catch {
      this.record({ path: new URL(pathname, this.url).pathname, started, ended: performance.now(), status: "network" });
    }
    return null;
  }

  private tries = 0;
  private stage: "new" | "confirmed" | "onboarded" = "new";

  /** Each step again until it is done: a kill may cut any of them, and pages may lag while the background process restarts. */
  async signUp(): Promise<void> {
    if (this.stage === "new") {
      // A sign-up cut before its confirmation is begun again under another name, as a person whose name is taken would.
      const username = `${this.name}x${this.tries++}`;
      const email = `${username}@example.com`;
      const csrf = await pageCsrf(this.session, `${this.url}/signup`);
      const signup = await this.session.request(`${this.url}/signup`, form({ csrf, intent: "signup", username, email, password: "Reader#2024" }));
      if (signup.status !== 200) throw new Error(`sign-up answered ${signup.status}`);
      const confirm = await this.session.request(`${this.url}/signup`, form({ csrf, intent: "confirm", username, code: await mailedCode(this.session, this.url, email) }));
      if (confirm.status !== 302) throw new Error(`confirm answered ${confirm.status}`);
      this.stage = "confirmed";
    }
    if (this.stage === "confirmed") {
      await completeOnboardingOverHttp(this.session, this.url);
      this.stage = "onboarded";
    }
    this.csrf = await pageCsrf(this.session, `${this.url}/profile/api-tokens`);
    const body = new URLSearchParams({ csrf: this.csrf, intent: "create", name: "chaos", expiresIn: "30", scope: "all" });
    for (const permission of ["read", "ask", "upload"]) body.append("permissions", permission);
    const created = await this.session.request(`${this.url}/profile/api-tokens?_data=routes%2F_app.profile.api-tokens`, { method: "POST", body });
    this.token = ((await created.json()) as { token: string }).token;
    if (!this.token) throw new Error(`no token for ${this.name}`);
  }

  async upload(document: (typeof DOCUMENTS)[number]): Promise<void> {
    const body = new FormData();
    body.append("file", new Blob([readFileSync(path.join(FIXTURES, document.file))], { type: document.type }), document.file);
    const answer = await this.call("/api/v1/documents", { method: "POST", body, bearer: true });
    if (answer?.status === 202) this.documents.push((JSON.parse(answer.body) as { id: string }).id);
  }

  async status(kind: "documents" | "workspaces", id: string): Promise<{ status: string; failure_reason: string | null } | null> {
    const answer = await this.call(`/api/v1/${kind}/${id}`, { bearer: true });
    return answer?.status === 200 ? (JSON.parse(answer.body) as { status: string; failure_reason: string | null }) : null;
  }

  async createWorkspace(): Promise<void> {
    const active: string[] = [];
    for (const id of this.documents.slice(-3)) if ((await this.status("documents", id))?.status === "ACTIVE") active.push(id);
    if (active.length === 0) return;
    const answer = await this.call("/api/v1/workspaces", { method: "POST", body: JSON.stringify({ name: `Notes ${this.workspaces.length + 1}`, document_ids: active }), headers: { "Content-Type": "application/json" }, bearer: true });
    if (answer?.status === 201) this.workspaces.push((JSON.parse(answer.body) as { id: string }).id);
  }

  async startConversation(workspaceId: string): Promise<void> {
    const answer = await this.call("/api/v1/conversations", { method: "POST", body: JSON.stringify({ workspace_id: workspaceId }), headers: { "Content-Type": "application/json" }, bearer: true });
    if (answer?.status === 201) this.conversations.push((JSON.parse(answer.body) as { id: string }).id);
  }

  ask(conversationId: string, stream: boolean) {
    return this.call(`/api/v1/conversations/${conversationId}/messages`, {
      method: "POST",
      body: JSON.stringify({ question: "What do the documents say about the harbour?", stream }),
      headers: { "Content-Type": "application/json" },
      bearer: true,
    });
  }

  async rename(workspaceId: string): Promise<void> {
    await this.call(`/workspace/${workspaceId}`);
    await this.call(`/workspace/${workspaceId}`, form({ csrf: this.csrf, intent: "rename", name: `Renamed ${Date.now().toString(36)}`, description: "" }));
  }
}

describe.skipIf(!existsSync(path.join(ROOT, "build", "index.js")) && !process.env.CI)("the app under kills and restarts", () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "docuchat-chaos-"));
  const marker = `DATA_DIR=${dataDir}`;
  let app: AppServer | undefined;
  let model: Awaited<ReturnType<typeof startScriptedModel>> | undefined;

  afterAll(async () => {
    await app?.stop();
    for (const p of processesMarked(marker)) process.kill(p.pid, "SIGKILL");
    await model?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("loses, doubles and strands nothing, and answers no 500 while its processes are up", async () => {
    expect(existsSync(path.join(ROOT, "build", "index.js")), "No build found: run `npm run build` first.").toBe(true);
    // Kills from a stream of their own: the same seed, the same kills, whatever the traffic draws.
    const random = seeded(SEED);
    const signUpTimes = seeded(SEED + 100);
    model = await startScriptedModel();
    const began = performance.now();
    app = await startAppServer({
      dataDir,
      readyTimeoutMs: 120_000,
      env: {
        APP_SECRET: SECRET,
        WEB_PROCESSES: "2",
        METRICS_TOKEN,
        SHUTDOWN_DEADLINE_MS: "3000",
        EGRESS_ALLOW_PRIVATE_HOSTS: "localhost",
        ...Object.fromEntries(
          (["TEXT", "EMBEDDING"] as const).flatMap((scope) => [
            [`PRODUCT_KEYSET_${scope}_BASE_URL`, `http://localhost:${model!.port}/v1`],
            [`PRODUCT_KEYSET_${scope}_MODEL`, MODEL],
            [`PRODUCT_KEYSET_${scope}_API_KEY`, "sk-chaos"],
          ]),
        ),
      },
    });
    const { url } = app;
    const supervisor = app.pid;
    const readiness = async () => {
      const response = await fetch(`${url}/readyz`, { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } }).catch(() => null);
      return response?.ok ? ((await response.json()) as { checks: Record<string, string> }) : null;
    };
    const until = async (what: string, check: () => Promise<boolean> | boolean, timeoutMs: number) => {
      const deadline = performance.now() + timeoutMs;
      while (!(await check())) {
        if (!app!.running()) throw new Error(`the app exited before ${what}:\n${app!.output()}`);
        if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}:\n${app!.output().slice(-4000)}`);
        await sleep(200);
      }
    };
    const everyoneUp = async () => childrenOfRole(supervisor, "web").length === 2 && (await readiness())?.checks.background === "ok";
    await until("the app to serve", everyoneUp, 120_000);
    const seconds = (from: number) => Math.round((performance.now() - from) / 1000);
    const phases = [`start ${seconds(began)} s`];
    console.log(`chaos: serving after ${seconds(began)} s`);
    let phaseFrom = performance.now();

    // Traffic: three people at a time, one new sign-up now and then.
    const outcomes: Outcome[] = [];
    const visitors: Visitor[] = [];
    const signUpErrors: string[] = [];
    let traffic = true;
    const newVisitor = async () => {
      const visitor = new Visitor(url, `chaos${visitors.length}${Date.now().toString(36)}`, (o) => outcomes.push(o));
      visitors.push(visitor);
      // A sign-up cut by a kill is tried again, as a person would; while the background process restarts, pages
      // may not show the finished onboarding yet (read-your-writes waits a bounded time).
      for (const deadline = performance.now() + 90_000; !visitor.token && performance.now() < deadline; ) {
        await visitor.signUp().catch(async (error: Error) => {
          signUpErrors.push(error.message);
          await sleep(2000);
        });
      }
      return visitor;
    };
    const use = async (visitor: Visitor, stream: ReturnType<typeof seeded>) => {
      let uploads = 0;
      while (traffic) {
        const action = stream.next();
        if (!visitor.token) return;
        if (visitor.documents.length === 0 || (action < 0.1 && uploads < 4)) {
          await visitor.upload(DOCUMENTS[uploads++ % DOCUMENTS.length]!);
        } else if (visitor.workspaces.length === 0 || (action < 0.2 && visitor.workspaces.length < 2)) {
          await visitor.createWorkspace();
        } else if (visitor.conversations.length < visitor.workspaces.length) {
          await visitor.startConversation(visitor.workspaces[visitor.conversations.length]!);
        } else if (action < 0.65) {
          await visitor.ask(stream.pick(visitor.conversations), true);
        } else if (action < 0.8) {
          await visitor.rename(stream.pick(visitor.workspaces));
        } else {
          await visitor.call("/api/v1/workspaces", { bearer: true });
          await visitor.call("/api/v1/documents", { bearer: true });
        }
        await sleep(stream.between(200, 600));
      }
    };
    const users = Promise.all([0, 1, 2].map(async (i) => use(await newVisitor(), seeded(SEED + i + 1))));
    const signUps = (async () => {
      while (traffic) {
        await sleep(signUpTimes.between(8_000, 15_000));
        if (traffic) await newVisitor();
      }
    })();

    // An orphan is a process that lives on without its parent. One the kernel is still ending (its
    // parent-death SIGKILL pending while a loaded machine schedules it) is given a few seconds.
    const lasting = async (find: () => { pid: number; name: string }[]) => {
      let found = find();
      for (let waited = 0; found.length > 0 && waited < 10_000; waited += 500) {
        await sleep(500);
        const now = find();
        found = found.filter((p) => now.some((q) => q.pid === p.pid));
      }
      return found;
    };

    // Kills and stops at random moments; a window per kill from the kill until its replacement serves.
    const windows: { from: number; to: number }[] = [];
    const orphansSeen = new Map<number, string>();
    const kills: string[] = [];
    for (let i = 0; i < KILLS; i++) {
      await sleep(random.between(2_000, 6_000));
      const role = random.pick(["web", "background"] as const);
      const signal = random.pick(["SIGKILL", "SIGTERM"] as const);
      const before = childrenOfRole(supervisor, role);
      const victim = random.pick(before);
      const from = performance.now();
      process.kill(victim, signal);
      kills.push(`${signal} ${role}`);
      // A replacement is a process the supervisor forked after the kill (the victim may linger a moment as a zombie).
      const replaced = () => childrenOfRole(supervisor, role).some((pid) => !before.includes(pid));
      await until(`the ${role} process to be replaced after ${signal}`, async () => replaced() && (await everyoneUp()), 90_000);
      console.log(`chaos: ${signal} ${role} at ${seconds(began)} s, replaced and the app serving after ${seconds(from)} s`);
      // A new web process gets connections only once it listens; what the old one held was cut until then.
      windows.push({ from, to: performance.now() + 2_000 });
      await sleep(1_000);
      for (const orphan of await lasting(() => notBelow(supervisor, processesMarked(marker)))) orphansSeen.set(orphan.pid, `${orphan.name} after ${signal} ${role}`);
    }
    traffic = false;
    await Promise.all([users, signUps]);
    phases.push(`chaos ${seconds(phaseFrom)} s`);
    phaseFrom = performance.now();

    // Nothing stuck: every document ends ACTIVE or FAILED with a reason, every workspace ACTIVE, every conversation takes a new question.
    const stuck: string[] = [];
    const settled = async (check: () => Promise<boolean>) => {
      const deadline = performance.now() + 75_000;
      while (performance.now() < deadline) {
        if (await check()) return true;
        await sleep(1_000);
      }
      return false;
    };
    for (const visitor of visitors.filter((v) => v.token)) {
      for (const id of visitor.documents) {
        const ended = await settled(async () => {
          const document = await visitor.status("documents", id);
          return document?.status === "ACTIVE" || (document?.status === "FAILED" && !!document.failure_reason);
        });
        if (!ended) stuck.push(`document ${id}: ${JSON.stringify(await visitor.status("documents", id))}`);
      }
      for (const id of visitor.workspaces) {
        if (!(await settled(async () => (await visitor.status("workspaces", id))?.status === "ACTIVE"))) stuck.push(`workspace ${id}: ${JSON.stringify(await visitor.status("workspaces", id))}`);
      }
      for (const id of visitor.conversations) {
        if (!(await settled(async () => (await visitor.ask(id, false))?.status === 200))) stuck.push(`conversation ${id}: ${(await visitor.ask(id, false))?.body}`);
      }
    }

    phases.push(`settling ${seconds(phaseFrom)} s`);
    // The projectors have caught up; then a clean stop, after which no process of the app may live on.
    await until("the projectors to catch up", async () => (await readiness())?.checks.projectors === "ok", 60_000);
    await app.stop({ graceMs: 60_000 });
    await sleep(1_000);
    for (const orphan of await lasting(() => processesMarked(marker))) orphansSeen.set(orphan.pid, `${orphan.name} after the app stopped`);

    // The log: no event twice, no step of a document, a workspace or an answer recorded twice.
    const log = new Database(path.join(dataDir, "events.db"), { readonly: true });
    const doubled = log
      .prepare(
        `SELECT stream_id || ' ' || type || ' ' || COALESCE(json_extract(data, '$.messageId'), '') AS what, COUNT(*) AS n FROM events
         WHERE type IN ('DocumentFileReceived', 'DocumentTextExtracted', 'DocumentIndexed', 'DocumentActivated', 'DocumentFailed',
                        'WorkspaceCreated', 'WorkspaceLaunched', 'WorkspaceFailed', 'UserRegistered', 'AnswerStarted', 'AnswerCompleted', 'AnswerInterrupted')
         GROUP BY what HAVING n > 1
         UNION ALL SELECT 'event ' || event_id, COUNT(*) AS n FROM events GROUP BY event_id HAVING n > 1`,
      )
      .all() as { what: string; n: number }[];
    log.close();
    const runs = new Database(path.join(dataDir, "workflows.db"), { readonly: true });
    const failedRuns = runs.prepare(`SELECT workflow_id, last_error FROM workflow_runs WHERE status = 'failed'`).all() as { workflow_id: string; last_error: string | null }[];
    runs.close();
    const failedByStop = failedRuns.filter((run) => /stop|interrupt|cancel|SIGTERM|closed/i.test(run.last_error ?? ""));

    // Replaying the log builds read models equal to the live ones.
    const config = loadConfig({ DATA_DIR: dataDir, APP_SECRET: SECRET });
    const stores = await openStores(config);
    const fresh = new SqliteReadModelStore(openDatabase(path.join(dataDir, "replayed.db")));
    const different: string[] = [];
    try {
      await rebuildProjections(stores.eventStore, fresh, allProjectors);
      for (const name of new Set(allProjectors.flatMap((p) => p.collections))) {
        const rows = async (store: typeof fresh) => JSON.stringify((await store.collection<{ id: string }>(name).find({})).sort((a, b) => a.id.localeCompare(b.id)));
        if ((await rows(stores.readModels as SqliteReadModelStore)) !== (await rows(fresh))) different.push(name);
      }
    } finally {
      await fresh.close();
      await stores.close();
    }

    const during = (o: Outcome) => windows.some((w) => o.started <= w.to && o.ended >= w.from);
    const failures = outcomes.filter((o) => o.status === "network" || o.status === "stream error" || (typeof o.status === "number" && o.status >= 500));
    const outside = failures.filter((o) => !during(o));
    const figures = {
      seed: SEED,
      kills: kills.length,
      requests: outcomes.length,
      "500s": outside.filter((o) => o.status === 500).length,
      "failed outside kills": outside.length,
      "failed during kills": failures.length - outside.length,
      stuck: stuck.length,
      doubled: doubled.length,
      orphaned: orphansSeen.size,
      "workflows failed by a stop": failedByStop.length,
      "read models differing after replay": different.length,
    };
    console.log(`chaos: ${Object.entries(figures).map(([k, v]) => `${k} ${v}`).join(", ")} (${kills.join(", ")}; ${phases.join(", ")})`);

    expect(kills).toHaveLength(KILLS);
    expect(visitors.filter((v) => !v.token).map((v) => v.session), `sign-ups failed: ${signUpErrors.join("; ")}`).toEqual([]);
    expect(outcomes.length).toBeGreaterThan(100);
    expect(visitors.flatMap((v) => v.conversations).length, "conversations were had").toBeGreaterThan(0);
    expect(outside.map((o) => `${o.status} ${o.path}`)).toEqual([]);
    expect(stuck).toEqual([]);
    expect(doubled).toEqual([]);
    expect([...orphansSeen.values()]).toEqual([]);
    expect(failedByStop).toEqual([]);
    expect(different).toEqual([]);
  }, 600_000);
});
