import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The alert rules are code (issue 43): Debian's promtool runs their unit tests,
 * every alert has a case where it fires and one where it stays silent, and each
 * tells the operator what happened and where the runbook says what to do.
 */
const ROOT = path.resolve(__dirname, "../..");
const rulesFile = path.join(ROOT, "docker/prometheus/alerts.yml");
const testsFile = path.join(ROOT, "docker/prometheus/alerts.test.yml");
const rules = readFileSync(rulesFile, "utf8");
const alerts = rules.split(/^\s+- alert: /m).slice(1).map((block) => ({ name: block.slice(0, block.indexOf("\n")).trim(), block }));

describe("the alert rules", () => {
  it("pass their promtool unit tests", () => {
    // execFileSync throws with promtool's report when a case fails.
    expect(execFileSync("promtool", ["test", "rules", testsFile], { encoding: "utf8" })).toMatch(/SUCCESS/);
  });

  it("are each tested where they must fire and where they must not", () => {
    const cases = readFileSync(testsFile, "utf8")
      .split(/eval_time:/)
      .slice(1)
      .map((entry) => ({ alert: /alertname: (\w+)/.exec(entry)?.[1], silent: /exp_alerts: \[\]/.test(entry) }));
    expect(alerts.length).toBeGreaterThanOrEqual(13);
    const untested = alerts.flatMap(({ name }) => [
      ...(cases.some((c) => c.alert === name && !c.silent) ? [] : [`${name}: no case where it fires`]),
      ...(cases.some((c) => c.alert === name && c.silent) ? [] : [`${name}: no case where it stays silent`]),
    ]);
    expect(untested).toEqual([]);
  });

  it("each have a summary, a description and a runbook link to a section of docs/runbook.md", () => {
    const headings = new Set([...readFileSync(path.join(ROOT, "docs/runbook.md"), "utf8").matchAll(/^#+ (.+)$/gm)].map(([, title]) => title!.trim().toLowerCase()));
    const missing = alerts.flatMap(({ name, block }) => {
      const anchor = /runbook_url: "docs\/runbook\.md#([\w-]+)"/.exec(block)?.[1];
      return [
        ...(/summary: "/.test(block) ? [] : [`${name}: no summary`]),
        ...(/description: "/.test(block) ? [] : [`${name}: no description`]),
        ...(anchor && headings.has(anchor) ? [] : [`${name}: no runbook section ${anchor ?? ""}`]),
      ];
    });
    expect(missing).toEqual([]);
  });
});
