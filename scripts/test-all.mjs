// Runs every suite (type check, unit/contract/integration, production build,
// browser journeys) and ends with one line summing them all:
//   N passed, N failed, N skipped
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";

const reports = path.resolve("tests/.artifacts/reports");
rmSync(reports, { recursive: true, force: true });
mkdirSync(reports, { recursive: true });

const totals = { passed: 0, failed: 0, skipped: 0 };
const lines = [];

function run(label, command, args) {
  console.log(`\n=== ${label}: ${command} ${args.join(" ")}`);
  const started = Date.now();
  const result = spawnSync(command, args, { stdio: "inherit", env: { ...process.env, FORCE_COLOR: "0" } });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  return { ok: result.status === 0, seconds };
}

/** A step that is one check (type check, build) counts as one test. */
function step(label, command, args) {
  const { ok, seconds } = run(label, command, args);
  totals[ok ? "passed" : "failed"] += 1;
  lines.push(`${label}: ${ok ? "passed" : "FAILED"} (${seconds}s)`);
  return ok;
}

function vitest(project) {
  const file = path.join(reports, `${project}.json`);
  const { ok, seconds } = run(`vitest ${project}`, "npx", [
    "vitest", "run", "--project", project, "--reporter=default", "--reporter=json", `--outputFile.json=${file}`,
  ]);
  if (!existsSync(file)) {
    totals.failed += 1;
    lines.push(`vitest ${project}: FAILED, no report (${seconds}s)`);
    return;
  }
  const report = JSON.parse(readFileSync(file, "utf8"));
  const passed = report.numPassedTests ?? 0;
  // A suite that fails to load has no tests but must still count as a failure.
  const failedSuites = (report.testResults ?? []).filter((r) => r.status === "failed" && (r.assertionResults ?? []).length === 0).length;
  const failed = (report.numFailedTests ?? 0) + failedSuites;
  const skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
  totals.passed += passed;
  totals.failed += failed;
  totals.skipped += skipped;
  if (!ok && failed === 0) totals.failed += 1;
  lines.push(`vitest ${project}: ${passed} passed, ${failed} failed, ${skipped} skipped (${seconds}s)`);
}

step("type check", "npx", ["tsc", "--noEmit", "-p", "."]);
// Built before the unit suite: its chaos test (tests/integration/chaos.test.ts) runs the built app.
const built = step("production build", "npx", ["remix", "build"]);
vitest("unit");
if (built) vitest("e2e");
else lines.push("vitest e2e: not run (the build failed)");

console.log("\n=== summary");
for (const line of lines) console.log(`  ${line}`);
console.log(`${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(totals.failed > 0 ? 1 : 0);
