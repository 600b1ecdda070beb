import { execFileSync } from "node:child_process";
import packageJson from "../../package.json";
import type { BuildInfo } from "./prometheus-metrics";

let fromGit: string | undefined;

/**
 * The version in package.json and the commit: SOURCE_COMMIT where it is given (an image has no .git),
 * else git's HEAD where the app runs from a clone, asked once per process; "unknown" otherwise.
 */
export function buildInfo(sourceCommit: string | null): BuildInfo {
  if (sourceCommit) return { version: packageJson.version, commit: sourceCommit };
  fromGit ??= gitHead();
  return { version: packageJson.version, commit: fromGit };
}

function gitHead(): string {
  try {
    return execFileSync("git", ["rev-parse", "--short=12", "HEAD"], { encoding: "utf8", timeout: 2_000, stdio: ["ignore", "pipe", "ignore"] }).trim() || "unknown";
  } catch {
    return "unknown";
  }
}
