import { spawnSync } from "node:child_process";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";

const processLog = pathToFileURL(path.join(__dirname, "process-log.mjs")).href;

describe("a process's log", () => {
  it("turns what libraries print and an uncaught error into one JSON line each, then stops as Node would", () => {
    const script = `
      const { logEverythingAsJson, processLog } = await import(${JSON.stringify(processLog)});
      logEverythingAsJson(processLog("web"));
      console.log("listening on %d", 3000);
      console.warn("a warning\\nover two lines");
      console.error(new Error("a library's failure"));
      setTimeout(() => { throw new TypeError("nobody caught this"); });
    `;
    const run = spawnSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8", env: { ...process.env, LOG_LEVEL: "info" } });

    expect(run.status).toBe(1);
    const lines = `${run.stdout}${run.stderr}`.trim().split("\n");
    const entries = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    for (const entry of entries) expect(entry).toMatchObject({ level: expect.any(String), time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/), pid: run.pid, role: "web" });
    expect(entries.map((entry) => [entry.level, entry.msg])).toEqual([
      ["info", "listening on 3000"],
      ["warn", "a warning\nover two lines"],
      ["error", "a library's failure"],
      ["fatal", "uncaught exception"],
    ]);
    expect(entries[3]).toMatchObject({ err: { type: "TypeError", message: "nobody caught this" }, origin: "uncaughtException" });
  });
});
