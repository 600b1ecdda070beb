import { readdirSync, readFileSync } from "node:fs";

/**
 * The app's processes as the operating system sees them (Linux /proc): which the
 * supervisor forked for a role, and which processes the app started anywhere, found
 * by a variable every process it starts inherits (its DATA_DIR).
 */
type ProcessInfo = { pid: number; ppid: number; name: string };

function read(pid: number): (ProcessInfo & { environ: string[] }) | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const [, rest] = stat.split(") ");
    // A zombie has ended; only its parent has not read its status yet.
    if (rest?.[0] === "Z") return null;
    const name = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
    const environ = readFileSync(`/proc/${pid}/environ`, "utf8").split("\0");
    return { pid, ppid: Number(rest?.split(" ")[1]), name, environ };
  } catch {
    return null; // ended while we looked, or not ours to read
  }
}

function all() {
  return readdirSync("/proc")
    .filter((entry) => /^\d+$/.test(entry))
    .map((entry) => read(Number(entry)))
    .filter((p): p is NonNullable<typeof p> => p !== null);
}

/** The children of the supervisor `pid` forked as `role` (DOCUCHAT_PROCESS in their environment). */
export function childrenOfRole(pid: number, role: "web" | "background"): number[] {
  return all()
    .filter((p) => p.ppid === pid && p.environ.includes(`DOCUCHAT_PROCESS=${role}`))
    .map((p) => p.pid);
}

/** Every living process whose environment holds `marker` (for instance `DATA_DIR=/tmp/…`). */
export function processesMarked(marker: string): ProcessInfo[] {
  return all()
    .filter((p) => p.environ.includes(marker))
    .map(({ pid, ppid, name }) => ({ pid, ppid, name }));
}

/** Those of `processes` that do not descend from `root`: started by a process that is gone. */
export function notBelow(root: number, processes: ProcessInfo[]): ProcessInfo[] {
  const parents = new Map(all().map((p) => [p.pid, p.ppid]));
  const below = (pid: number) => {
    for (let at: number | undefined = pid; at !== undefined && at > 1; at = parents.get(at)) if (at === root) return true;
    return false;
  };
  return processes.filter((p) => p.pid !== root && !below(p.pid));
}
