// The HTTP server: Express in front of the Remix build.
//
// In production (`npm start`) this file is a small supervisor (ARCHITECTURE §4
// "Processes", docs/decisions/150): it starts one background process
// (projectors, reactors, the durable runner's workflows and jobs, ingestion)
// and then WEB_PROCESSES web processes (default: one per core) that share the
// port through Node's cluster and only serve requests. A process that dies is
// started again; SIGTERM stops them all. In development (`npm run dev`) or with
// WEB_PROCESSES=0, one process does everything, as before.
import cluster from "node:cluster";
import { randomUUID } from "node:crypto";
import { readdirSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import zlib from "node:zlib";
import compression from "compression";
import express from "express";
import { logEverythingAsJson, processLog } from "./infrastructure/logging/process-log.mjs";
import { answerOperations } from "./infrastructure/observability/cluster-operations.mjs";
import { requestsInFlight, shutdownDeadlineMs } from "./infrastructure/observability/graceful-shutdown.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const buildPath = path.join(here, "build", "index.js");
const isDev = process.env.NODE_ENV === "development";

function webProcessCount() {
  const raw = process.env.WEB_PROCESSES;
  if (raw === undefined || raw === "") return os.availableParallelism();
  const count = Number(raw);
  if (!Number.isInteger(count) || count < 0 || count > 64) {
    processLog("supervisor").fatal(`Cannot start: WEB_PROCESSES: expected a whole number from 0 to 64, got "${raw}"`);
    process.exit(1);
  }
  return count;
}

if (cluster.isPrimary) {
  const webProcesses = isDev ? 0 : webProcessCount();
  if (webProcesses === 0) await serve("app");
  else await supervise(webProcesses);
} else {
  await serve(process.env.DOCUCHAT_PROCESS === "background" ? "background" : "web", Number(process.env.DOCUCHAT_PROCESS_INDEX ?? 0));
}

/** The primary: forks the background process, then the web processes, restarts any that dies, stops them all on a signal. */
async function supervise(webProcesses) {
  /** What each forked process is (its role and index among its role's), and whether it got as far as serving. */
  const processes = new Map();
  const log = processLog("supervisor");
  logEverythingAsJson(log);
  let stopping = false;
  let announced = false;

  // A replacement takes the index of the process it replaces: its series go on under the same labels.
  const fork = (role, index) => {
    // A web process allocates a page's worth of short-lived objects per request: a
    // larger young generation (32 MB semi-spaces, default 16) is scavenged half as
    // often, about a tenth less CPU per page (docs/decisions/180).
    cluster.setupPrimary({ execArgv: role === "web" ? [...process.execArgv, "--max-semi-space-size=32"] : process.execArgv });
    const child = cluster.fork({ DOCUCHAT_PROCESS: role, DOCUCHAT_PROCESS_INDEX: String(index) });
    const entry = { role, index, ready: false, startedAt: Date.now() };
    processes.set(child.id, entry);
    child.on("message", (message) => {
      if (message?.type !== "ready") return;
      entry.ready = true;
      if (role === "web" && !announced) {
        announced = true;
        // The first web process serves: the others load the bundle now, off its start's path (decision 255).
        for (let i = 1; i < webProcesses && !stopping; i++) fork("web", i);
        log.info({ url: `http://${message.host}:${message.port}`, webProcesses }, `${message.productName} is running at http://${message.host}:${message.port} (${webProcesses} web processes and a background process)`);
      }
    });
    return child;
  };

  cluster.on("exit", (child, code, signal) => {
    const entry = processes.get(child.id);
    processes.delete(child.id);
    if (stopping || !entry) return;
    // One that failed on its own before it got ready (bad configuration, port in use) would fail again: stop, as a
    // single process would. One stopped or killed from outside during its start-up is started again, as any other.
    if (!entry.ready && signal === null && code !== 0) {
      log.fatal({ process: entry.role, index: entry.index, code, signal }, `The ${entry.role} process stopped during start-up (exit code ${code}); stopping.`);
      void stopAll(code || 1);
      return;
    }
    log.error({ process: entry.role, index: entry.index, code, signal }, `The ${entry.role} process stopped (${signal ?? `exit code ${code}`}); starting another.`);
    operations.restarted(entry);
    // A process that keeps dying right after its start is restarted at most once a second.
    setTimeout(() => stopping || fork(entry.role, entry.index), Date.now() - entry.startedAt < 1000 ? 1000 : 0);
  });

  async function stopAll(exitCode) {
    if (stopping) return;
    stopping = true;
    const children = Object.values(cluster.workers ?? {});
    // Web processes first, so no request starts work the background process would no longer run.
    const byRole = (role) => children.filter((child) => child && processes.get(child.id)?.role === role);
    for (const group of [byRole("web"), byRole("background")]) {
      await Promise.all(group.map((child) => stopChild(child)));
    }
    process.exit(exitCode);
  }

  process.on("SIGTERM", () => stopAll(0));
  process.on("SIGINT", () => stopAll(0));

  // Operations (issues 32, 43): the web processes ask here for every process's metrics and whether the background process is up.
  const slots = [{ role: "background", index: 0 }, ...Array.from({ length: webProcesses }, (_, index) => ({ role: "web", index }))];
  const operations = answerOperations(cluster, processes, slots);

  // The background process prepares the databases (schemas, migrations, projector set-up); the web processes
  // start with it, load the server bundle meanwhile, and open the stores once told the databases are prepared.
  // They serve while it catches up (issue 42, fast start; decision 247). A background process killed before
  // that is started again, and the one that comes up prepares them.
  let prepared = false;
  cluster.on("message", (child, message) => {
    const role = processes.get(child.id)?.role;
    if (role === "background" && (message?.type === "prepared" || message?.type === "ready") && !prepared) {
      prepared = true;
      for (const web of Object.values(cluster.workers ?? {})) if (processes.get(web?.id)?.role === "web") web.send({ type: "prepared" });
    }
    // A web process asks once it listens for the answer: one started after the databases were prepared is told at once.
    if (role === "web" && message?.type === "prepared?" && prepared) child.send({ type: "prepared" });
  });
  // Two processes, not all of them, share the cores while the first page waits on them (issue 42, fast start).
  fork("background", 0);
  fork("web", 0);
}

/** Asks a child to stop and waits for it; one that hangs past its drain deadline (and a margin to stop) is killed. */
function stopChild(child) {
  if (child.isDead()) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.process.kill("SIGKILL"), shutdownDeadlineMs() + 5_000);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve();
    });
    child.process.kill("SIGTERM");
  });
}


/** One process: "app" (everything), "web" (requests only) or "background" (no HTTP); index: its place among its role's. */
async function serve(role, index = 0) {
  // The background process keeps its normal priority: its projectors are what read-your-writes waits for,
  // so under page load they must keep up. Its heavy work yields instead: extraction threads, the embedding
  // model's thread and what they start run at niceness 10 (decisions 070, 150, 155).
  logEverythingAsJson(processLog(role));
  // A web process loads the bundle beside the background process, then waits for the databases to be prepared:
  // schemas and migrations are the background process's alone.
  const databasesPrepared =
    role === "web" && cluster.isWorker
      ? new Promise((resolve) => {
          process.on("message", (message) => message?.type === "prepared" && resolve());
          process.send({ type: "prepared?" });
        })
      : null;
  const build = await import(pathToFileURL(buildPath).href);
  const entry = build.entry.module;
  await databasesPrepared;

  let runtime;
  try {
    runtime = await entry.startRuntime(role, () => process.send?.({ type: "prepared" }), index);
  } catch (error) {
    processLog(role).fatal(`Cannot start: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
  const { logger, config } = runtime;
  logEverythingAsJson(logger);
  let stopping = false;
  let server = null;
  // Graceful shutdown (issue 32): requests in flight, streamed answers above all, finish before the stores close.
  const inFlight = requestsInFlight();

  async function shutdown(signal) {
    if (stopping) return;
    stopping = true;
    logger.info({ signal, role }, "shutting down");
    const { unfinished } = await inFlight.drain(server, shutdownDeadlineMs());
    if (unfinished > 0) logger.warn({ unfinished }, "requests still open at the shutdown deadline were closed");
    await runtime.stop().catch((error) => logger.error({ err: error }, "stop failed"));
    process.exit(0);
  }
  process.on("SIGTERM", () => shutdown("SIGTERM"));
  process.on("SIGINT", () => shutdown("SIGINT"));

  if (role === "background") {
    process.send?.({ type: "ready" });
    return;
  }

  const app = express();
  app.disable("x-powered-by");
  // Operations (issue 32): every request counted by route pattern; /metrics (token or loopback) and /readyz.
  const operations = entry.httpOperations(runtime, build, role);
  app.use(inFlight.track, operations.measureRequests, operations.traceRequests);
  app.get("/metrics", operations.metricsRoute);
  app.get("/readyz", operations.readinessRoute);
  app.use(
    compression({
      // Streamed answers (the pages' stream, the public API's Server-Sent Events) must reach the client as
      // they are written, not when a compression buffer fills.
      filter: (req, res) =>
        !req.path.endsWith("/messages_stream") && !String(res.getHeader("Content-Type") ?? "").startsWith("text/event-stream") && compression.filter(req, res),
      // Pages are compressed per request: the fastest levels halve the CPU of the defaults (Brotli 4, gzip 6) for a little size (docs/decisions/151).
      // A 256 KB window instead of 4 MB: pages are far smaller, and each response's encoder allocates its window (a third less CPU, decision 180).
      level: 1,
      brotli: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 1, [zlib.constants.BROTLI_PARAM_LGWIN]: 18 } },
    }),
  );
  const buildAssets = { immutable: true, maxAge: "1y" };
  const publicFiles = { maxAge: "1h" };
  app.use("/build", precompressed(path.join(here, "public", "build"), buildAssets), express.static(path.join(here, "public", "build"), buildAssets));
  app.use(publicEntriesOnly(path.join(here, "public"), [precompressed(path.join(here, "public"), publicFiles), express.static(path.join(here, "public"), publicFiles)]));

  app.use((req, res, next) => {
    // Overwrite, never trust, what the client sent under these names.
    const requestId = randomUUID();
    req.headers["x-request-id"] = requestId;
    req.headers["x-docuchat-client-address"] = req.socket.remoteAddress ?? "unknown";
    res.setHeader("X-Request-Id", requestId);
    const started = performance.now();
    res.on("finish", () => {
      entry.runWithRequestId(requestId, () =>
        logger.info(
          { method: req.method, path: req.path, status: res.statusCode, ms: Math.round(performance.now() - started) },
          "request",
        ),
      );
    });
    entry.runWithRequestId(requestId, next);
  });

  app.get("/healthz", (_req, res) => res.json({ ok: true }));
  // A write from another website gets a clear 403 before any form parser can fail on it (issue 19).
  app.use((req, res, next) => {
    const refusal = entry.crossSiteRefusal({
      method: req.method,
      fetchSite: req.get("sec-fetch-site"),
      origin: req.get("origin"),
      host: req.get("host"),
      publicUrl: config.publicUrl,
    });
    if (!refusal) return next();
    res.status(403).type("text/plain").set("Connection", "close").send(refusal);
  });
  // Every body is read only up to its route's limit, counted as it arrives (docs/decisions/200).
  app.all("*", entry.createBodyLimitedRequestHandler({ build, mode: isDev ? "development" : "production" }));
  // Express's own last handler prints a multi-line stack (a malformed escape in a URL reaches it): one line instead.
  app.use((error, req, res, _next) => {
    const status = Number.isInteger(error?.status) && error.status >= 400 ? error.status : 500;
    logger[status >= 500 ? "error" : "warn"]({ err: error, method: req.method, path: req.path, status }, "request failed");
    if (res.headersSent) return res.destroy();
    res.status(status).type("text/plain").send(status >= 500 ? "Internal Server Error" : "Bad Request");
  });

  server = app.listen(config.port, config.host, () => {
    const address = server.address();
    const port = typeof address === "object" && address ? address.port : config.port;
    logger.info({ port, role }, "listening");
    if (role === "app") logger.info({ url: `http://${config.host}:${port}` }, `${config.productName} is running at http://${config.host}:${port}`);
    else process.send?.({ type: "ready", productName: config.productName, host: config.host, port });
  });

  server.on("error", (error) => {
    const hint = error.code === "EADDRINUSE" ? ` Port ${config.port} is in use: set PORT to another port.` : "";
    logger.fatal(`Cannot listen on ${config.host}:${config.port}: ${error.message}.${hint}`);
    process.exit(1);
  });
}

/**
 * Sends the .br or .gz copy `npm run build` wrote beside a static file
 * (scripts/precompress-assets.mjs) to a browser that accepts it, so static
 * files are never compressed per request. A copy older than its file (a build
 * without the compression step) is left alone; the file is then compressed as
 * before.
 */
/**
 * Hands a request to `handlers` (static files under `root`) only when its first path segment
 * names an entry of `root`, listed once at start as the build left it: express.static stats the
 * disk for every request it sees, and every page (`/`, `/workspace/…`) failed that stat first
 * (an ENOENT error made and thrown away per page). In development the folder may change
 * under a running server, so every request goes to the handlers there.
 */
function publicEntriesOnly(root, handlers) {
  const chain = express.Router();
  chain.use(...handlers);
  if (isDev) return chain;
  let entries = new Set();
  try {
    entries = new Set(readdirSync(root));
  } catch {
    // No public folder yet: nothing to serve from it.
  }
  return (req, res, next) => {
    let name = req.path.split("/")[1] ?? "";
    try {
      name = decodeURIComponent(name);
    } catch {
      // A malformed escape names no file: the request goes on to the app.
    }
    if (entries.has(name)) return chain(req, res, next);
    next();
  };
}

function precompressed(root, staticOptions) {
  const suffixes = { br: ".br", gzip: ".gz" };
  /** URL path under root -> the encodings it has a fresh copy in, best first. */
  const copies = new Map();
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        walk(file);
        continue;
      }
      if (/\.(br|gz)$/.test(entry.name)) continue;
      const modified = statSync(file).mtimeMs;
      const fresh = Object.entries(suffixes)
        .filter(([, suffix]) => {
          try {
            return statSync(file + suffix).mtimeMs >= modified;
          } catch {
            return false;
          }
        })
        .map(([encoding]) => encoding);
      if (fresh.length > 0) copies.set(`/${path.relative(root, file).split(path.sep).join("/")}`, fresh);
    }
  };
  try {
    walk(root);
  } catch {
    // No built assets yet: nothing to send precompressed.
  }
  const serve = express.static(root, {
    ...staticOptions,
    index: false,
    setHeaders: (res, file) => {
      res.setHeader("Content-Encoding", res.locals.precompressed);
      res.type(path.extname(file.slice(0, -suffixes[res.locals.precompressed].length)));
    },
  });
  return (req, res, next) => {
    if (req.method !== "GET" && req.method !== "HEAD") return next();
    const encodings = copies.get(req.path);
    if (!encodings) return next();
    res.vary("Accept-Encoding");
    const encoding = req.acceptsEncodings(encodings);
    if (!encoding) return next();
    res.locals.precompressed = encoding;
    const requested = req.url;
    req.url = req.path + suffixes[encoding];
    serve(req, res, (error) => {
      req.url = requested;
      next(error);
    });
  };
}
