// What every process of server.mjs writes: one JSON object per line (docs/logs.md). The supervisor runs
// before, and without, the TypeScript build, so its logger is made here with the app logger's shape
// (logger.ts): level by name, ISO time, pid and role.
import { format } from "node:util";
import pino from "pino";

/** @param {string} role */
export function processLog(role) {
  const level = process.env.LOG_LEVEL;
  return pino({
    // The app's configuration checks LOG_LEVEL and says what is wrong with it; here a bad one means info.
    level: level && level in pino.levels.values ? level : "info",
    base: { pid: process.pid, role },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
  });
}

/** @type {import("pino").Logger | null} */
let current = null;

/**
 * What would reach stdout or stderr otherwise goes through `logger` as one line: what libraries print
 * with console.* (Remix's and React's errors among them) and an uncaught error, which stops the process
 * as Node would (exit code 1; the supervisor starts another).
 * @param {import("pino").Logger} logger
 */
export function logEverythingAsJson(logger) {
  const first = current === null;
  // Called again once the app's logger exists: from then on its lines carry the request's ids.
  current = logger;
  if (!first) return;
  const levels = { debug: "debug", log: "info", info: "info", warn: "warn", error: "error" };
  for (const [method, level] of Object.entries(levels)) {
    console[method] = (...args) => {
      const err = args.find((arg) => arg instanceof Error);
      const rest = args.filter((arg) => arg !== err);
      current[level](err ? { err } : {}, rest.length > 0 ? format(...rest) : (err?.message ?? ""));
    };
  }
  process.on("uncaughtException", (error, origin) => {
    current.fatal({ err: error, origin }, "uncaught exception");
    process.exit(1);
  });
}
