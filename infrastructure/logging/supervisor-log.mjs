// The supervisor's log (server.mjs runs before, and without, the TypeScript build): the same one-line JSON
// as the app's logger (logger.ts, docs/logs.md), with role "supervisor" and the same level names.
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
