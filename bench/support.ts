import { readdirSync, readFileSync } from "node:fs";
import { PDFDocument } from "pdf-lib";

/** The p-th percentile of ascending `sorted` (nearest rank below); NaN when empty. */
export function percentile(sorted: number[], p: number): number {
  return sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** The first `pages` pages of a real book, as one PDF. */
export async function firstPages(bytes: Buffer, pages: number): Promise<Buffer> {
  const source = await PDFDocument.load(bytes);
  const doc = await PDFDocument.create();
  const copied = await doc.copyPages(source, Array.from({ length: Math.min(pages, source.getPageCount()) }, (_, i) => i));
  for (const page of copied) doc.addPage(page);
  return Buffer.from(await doc.save());
}

interface ProcStat {
  pid: number;
  parent: number;
  name: string;
  /** Its own user + system CPU and its waited-for children's, in seconds. */
  cpu: number;
  rss: number;
}

/** Every process's line of /proc/<pid>/stat (those that end while we look are skipped). */
function processes(): ProcStat[] {
  const found: ProcStat[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const close = stat.lastIndexOf(")");
      // Fields from the state on: ppid at 1; utime, stime, cutime, cstime at 11–14 (clock ticks, 100 a second); rss at 21 (pages).
      const fields = stat.slice(close + 2).split(" ");
      const cpu = (Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) / 100;
      found.push({ pid: Number(entry), parent: Number(fields[1]), name: stat.slice(stat.indexOf("(") + 1, close), cpu, rss: Number(fields[21]) * 4096 });
    } catch {
      // It ended.
    }
  }
  return found;
}

/** This process's descendants still running (extraction processes, poppler's). */
export function descendants(): (ProcStat & { command: string })[] {
  const all = processes();
  const parents = new Map(all.map((p) => [p.pid, p.parent]));
  const ours = (pid: number) => {
    for (let p = parents.get(pid); p !== undefined && p > 1; p = parents.get(p)) if (p === process.pid) return true;
    return false;
  };
  return all.filter((p) => ours(p.pid)).map((p) => ({ ...p, command: safeRead(`/proc/${p.pid}/cmdline`).replaceAll("\0", " ") }));
}

const safeRead = (path: string) => {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return "";
  }
};

/**
 * CPU seconds of this process (every thread), of its children that ended, and of its descendants
 * still running: an extraction process outlives the document it read (it waits for the next), so
 * its CPU is in no ended child's account until it exits.
 */
export function processTreeCpuSeconds(): number {
  const { user, system } = process.cpuUsage();
  const fields = readFileSync("/proc/self/stat", "utf8").split(") ")[1].split(" ");
  const endedChildren = (Number(fields[13]) + Number(fields[14])) / 100;
  return (user + system) / 1e6 + endedChildren + descendants().reduce((sum, p) => sum + p.cpu, 0);
}
