// The HTTP server: Express in front of the Remix build. It starts the runtime
// (projections, durable runner) at boot rather than on the first request.
import { randomUUID } from "node:crypto";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { createRequestHandler } from "@remix-run/express";
import compression from "compression";
import express from "express";

const here = path.dirname(fileURLToPath(import.meta.url));
const buildPath = path.join(here, "build", "index.js");
const isDev = process.env.NODE_ENV === "development";

const build = await import(pathToFileURL(buildPath).href);
const entry = build.entry.module;

let runtime;
try {
  runtime = await entry.startRuntime();
} catch (error) {
  console.error(`\nCannot start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
const { logger, config } = runtime;

const app = express();
app.disable("x-powered-by");
// Streamed answers must reach the browser as they are written, not when a compression buffer fills.
app.use(compression({ filter: (req, res) => !req.path.endsWith("/messages_stream") && compression.filter(req, res) }));
app.use("/build", express.static(path.join(here, "public", "build"), { immutable: true, maxAge: "1y" }));
app.use(express.static(path.join(here, "public"), { maxAge: "1h" }));

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
app.all("*", createRequestHandler({ build, mode: isDev ? "development" : "production" }));

const server = app.listen(config.port, config.host, () => {
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : config.port;
  logger.info({ port }, "listening");
  console.log(`\n  ${config.productName} is running at http://${config.host}:${port}\n`);
});

server.on("error", (error) => {
  const hint = error.code === "EADDRINUSE" ? ` Port ${config.port} is in use: set PORT to another port.` : "";
  console.error(`\nCannot listen on ${config.host}:${config.port}: ${error.message}.${hint}\n`);
  process.exit(1);
});

async function shutdown(signal) {
  logger.info({ signal }, "shutting down");
  server.close();
  await runtime.stop().catch((error) => logger.error({ err: error }, "stop failed"));
  process.exit(0);
}
process.on("SIGTERM", () => shutdown("SIGTERM"));
process.on("SIGINT", () => shutdown("SIGINT"));
