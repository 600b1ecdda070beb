import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MAX_RESUME_BYTES } from "#domain/resume/resume";
import type { CompileFailureCode, CompileResult, LatexCompiler } from "#application/ports/latex-compiler";

export interface SandboxLimits {
  /** Largest accepted source, in bytes (default 512 KiB: a resume is a few KiB). */
  maxSourceBytes: number;
  /** CPU seconds for pdflatex, and again for the SVG drawing (default 20). */
  cpuSeconds: number;
  /** Address space of each process, in bytes (default 1 GiB). */
  memoryBytes: number;
  /** Largest file any process may write, in bytes (default 16 MiB). */
  fileBytes: number;
  /** Size of the private work folder (a tmpfs), in bytes (default 64 MiB). */
  workFolderBytes: number;
  /** Wall-clock limit of one whole compile, in ms (default 30 s). */
  wallClockMs: number;
  /** Pages drawn as SVG (default 8). */
  maxPages: number;
}

export const DEFAULT_SANDBOX_LIMITS: SandboxLimits = {
  maxSourceBytes: MAX_RESUME_BYTES,
  cpuSeconds: 20,
  memoryBytes: 1024 * 1024 * 1024,
  fileBytes: 16 * 1024 * 1024,
  workFolderBytes: 64 * 1024 * 1024,
  wallClockMs: 30_000,
  maxPages: 8,
};

/**
 * What runs inside the sandbox (our script, never the user's text): copy the
 * source into the private tmpfs, run pdflatex under prlimit, then draw each
 * page with pdftocairo, and copy only the results out.
 */
const SANDBOX_SCRIPT = String.raw`
cd /work || exit 90
cp /in/resume.tex resume.tex || exit 91
limits="--cpu=$CPU_SECONDS --as=$MEMORY_BYTES --fsize=$FILE_BYTES --nofile=64 --core=0"
prlimit $limits -- pdflatex -no-shell-escape -interaction=nonstopmode -halt-on-error -file-line-error resume.tex </dev/null >/dev/null 2>&1
rc=$?
echo "$rc" > /out/pdflatex.rc
[ -f resume.log ] && tail -c 65536 resume.log > /out/resume.log
[ "$rc" = 0 ] && [ -f resume.pdf ] || exit 0
cp resume.pdf /out/resume.pdf
pages=$(prlimit $limits -- pdfinfo resume.pdf 2>/dev/null | sed -n 's/^Pages:[[:space:]]*//p')
echo "$pages" > /out/pages
[ -n "$pages" ] || exit 0
n=1
while [ "$n" -le "$pages" ] && [ "$n" -le "$MAX_PAGES" ]; do
  prlimit $limits -- pdftocairo -svg -f "$n" -l "$n" resume.pdf "/out/page-$n.svg" </dev/null >/dev/null 2>&1 || { echo "$n" > /out/svg.failed; exit 0; }
  n=$((n + 1))
done
`;

/** Shell escape is refused before compiling (the sandbox would stop it anyway), so the user reads why. */
const SHELL_ESCAPE = /\\(?:immediate\s*)?write\s*18\b|\\write18|\\ShellEscape|\\directlua/;

/**
 * pdflatex in bubblewrap (docs/decisions/130): no network, no other
 * namespace shared, the system read-only (only /usr, TeX's configuration and
 * fonts), the private work folder a size-limited tmpfs, `openin_any=p` and
 * `openout_any=p` (Debian lets a document read any file by default),
 * `-no-shell-escape`, prlimit's CPU/memory/file-size limits and a wall clock.
 * If bubblewrap cannot start, every compile is refused: never unsandboxed.
 */
export class SandboxedLatexCompiler implements LatexCompiler {
  private readonly limits: SandboxLimits;
  private readonly bwrap: string;
  private sandboxCheck: Promise<string | null> | null = null;

  constructor(options: { limits?: Partial<SandboxLimits>; bwrapCommand?: string } = {}) {
    this.limits = { ...DEFAULT_SANDBOX_LIMITS, ...options.limits };
    this.bwrap = options.bwrapCommand ?? "bwrap";
  }

  async compile(source: string): Promise<CompileResult> {
    const started = performance.now();
    const fail = (code: CompileFailureCode, message: string, line: number | null = null, log = ""): CompileResult => ({
      ok: false,
      error: { code, message, line, log },
      ms: Math.round(performance.now() - started),
    });
    const bytes = Buffer.byteLength(source, "utf8");
    if (bytes > this.limits.maxSourceBytes) {
      return fail("SOURCE_TOO_LARGE", `The resume is too large to compile (${formatBytes(bytes)}; at most ${formatBytes(this.limits.maxSourceBytes)}).`);
    }
    if (!/\\documentclass\s*(\[[^\]]*\])?\s*\{/.test(source) || !/\\begin\s*\{document\}/.test(source)) {
      return fail("NOT_LATEX", "This is not a LaTeX document: it needs \\documentclass{…} and \\begin{document} … \\end{document}.");
    }
    const shell = SHELL_ESCAPE.exec(source);
    if (shell) {
      return fail("FORBIDDEN", `Running programs from the document (${shell[0]}) is not allowed.`, lineOf(source, shell.index));
    }
    const unavailable = await this.sandboxUnavailable();
    if (unavailable) return fail("SANDBOX_UNAVAILABLE", unavailable);

    const dir = await mkdtemp(join(tmpdir(), "docuchat-latex-"));
    try {
      const input = join(dir, "resume.tex");
      const out = join(dir, "out");
      await writeFile(input, source, "utf8");
      await mkdir(out);
      const run = await this.runSandboxed(input, out);
      const rcText = await readIfExists(join(out, "pdflatex.rc"));
      const log = (await readIfExists(join(out, "resume.log"))) ?? "";
      if (run.timedOut) return fail("TIMEOUT", `The compile took longer than ${Math.round(this.limits.wallClockMs / 1000)} seconds and was stopped (an endless loop?).`, null, log);
      if (rcText === null) {
        return fail("SANDBOX_UNAVAILABLE", `The LaTeX sandbox did not run (${run.stderr.trim().split("\n")[0] || `exit ${run.code}`}).`);
      }
      const rc = Number(rcText.trim());
      if (rc !== 0) return fail(...latexFailure(rc, log, this.limits), log);
      // pdflatex ends well but writes no PDF for a document with nothing to print ("No pages of output.").
      const pdf = await readFile(join(out, "resume.pdf")).catch(() => null);
      if (!pdf) return fail("LATEX_ERROR", noOutputMessage(log), null, log);
      const pageCount = Number((await readIfExists(join(out, "pages")))?.trim() || "0");
      const svgNames = (await readdir(out)).filter((n) => /^page-\d+\.svg$/.test(n)).sort((a, b) => pageNo(a) - pageNo(b));
      const svgPages = await Promise.all(svgNames.map((n) => readFile(join(out, n), "utf8")));
      if (svgPages.length === 0) return fail("RESOURCE_LIMIT", "The PDF was made, but its preview could not be drawn within the limits.", null, log);
      return { ok: true, pdf, svgPages, pageCount: Math.max(pageCount, svgPages.length), ms: Math.round(performance.now() - started) };
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  /** null when bubblewrap can start a sandbox here, else why not (checked once). */
  sandboxUnavailable(): Promise<string | null> {
    this.sandboxCheck ??= (async () => {
      if (!existsSync("/usr/bin/pdflatex")) return "Compiling is not available: TeX Live (pdflatex) is not installed on this server.";
      const probe = await spawnCollect(this.bwrap, [...this.sandboxArgs(), "--", "pdflatex", "-version"], 10_000);
      if (probe.code === 0) return null;
      const why = probe.spawnError ?? (probe.stderr.trim().split("\n")[0] || `exit code ${probe.code}`);
      return `Compiling is not available: the LaTeX sandbox (bubblewrap) cannot start on this server (${why}). Documents are never compiled outside it.`;
    })();
    return this.sandboxCheck;
  }

  private sandboxArgs(): string[] {
    const args = [
      "--unshare-all",
      "--die-with-parent",
      "--new-session",
      "--clearenv",
      "--ro-bind", "/usr", "/usr",
      "--symlink", "usr/bin", "/bin",
      "--symlink", "usr/lib", "/lib",
      "--ro-bind-try", "/etc/texmf", "/etc/texmf",
      "--ro-bind-try", "/var/lib/texmf", "/var/lib/texmf",
      "--ro-bind-try", "/etc/fonts", "/etc/fonts",
      "--dev", "/dev",
      "--proc", "/proc",
      "--size", String(8 * 1024 * 1024), "--tmpfs", "/tmp",
      "--size", String(this.limits.workFolderBytes), "--tmpfs", "/work",
      "--chdir", "/",
      "--setenv", "PATH", "/usr/bin:/bin",
      "--setenv", "HOME", "/work",
      "--setenv", "TEXMFVAR", "/work/.texmf-var",
      "--setenv", "openin_any", "p",
      "--setenv", "openout_any", "p",
      "--setenv", "shell_escape", "f",
      // No font generation on the fly: the packaged Type 1 fonts are enough, and mktex* would spend the time budget.
      "--setenv", "MKTEXPK", "0",
      "--setenv", "MKTEXTFM", "0",
      "--setenv", "MKTEXMF", "0",
    ];
    if (existsSync("/usr/lib64")) args.push("--symlink", "usr/lib64", "/lib64");
    return args;
  }

  private runSandboxed(input: string, out: string) {
    const args = [
      ...this.sandboxArgs(),
      "--ro-bind", input, "/in/resume.tex",
      "--bind", out, "/out",
      "--setenv", "CPU_SECONDS", String(this.limits.cpuSeconds),
      "--setenv", "MEMORY_BYTES", String(this.limits.memoryBytes),
      "--setenv", "FILE_BYTES", String(this.limits.fileBytes),
      "--setenv", "MAX_PAGES", String(this.limits.maxPages),
      "--",
      "sh", "-c", SANDBOX_SCRIPT,
    ];
    return spawnCollect(this.bwrap, args, this.limits.wallClockMs);
  }
}

/** Maps pdflatex's exit and log to what the user reads. */
function latexFailure(rc: number, log: string, limits: SandboxLimits): [CompileFailureCode, string, number | null] {
  // prlimit's limits end the process with a signal: 128 + SIGXCPU(24) / SIGXFSZ(25) / SIGKILL(9) / SIGSEGV(11, out of memory).
  if (rc === 128 + 24 || rc === 128 + 9) return ["TIMEOUT", `The compile used more than ${limits.cpuSeconds} seconds of CPU and was stopped (an endless loop?).`, null];
  if (rc === 128 + 25) return ["RESOURCE_LIMIT", `The document tried to write a file larger than ${formatBytes(limits.fileBytes)} and was stopped.`, null];
  if (rc > 128) return ["RESOURCE_LIMIT", "The compile ran out of its memory limit and was stopped.", null];
  const error = firstLatexError(log);
  if (error) return ["LATEX_ERROR", error.message, error.line];
  if (/No space left on device/i.test(log)) return ["RESOURCE_LIMIT", `The document wrote more than ${formatBytes(limits.workFolderBytes)} and was stopped.`, null];
  return ["LATEX_ERROR", "LaTeX stopped without producing a PDF.", null];
}

/** Why a compile that ended well made no PDF, in the compiler's words where its log has them. */
export function noOutputMessage(log: string): string {
  if (/No pages of output/.test(log)) return "No pages of output: the document has nothing to print between \\begin{document} and \\end{document}.";
  return firstLatexError(log)?.message ?? "LaTeX stopped without producing a PDF.";
}

/** The first error of a pdflatex log (`-file-line-error` form `./resume.tex:12: …`, or `! …` with `l.12`). */
export function firstLatexError(log: string): { message: string; line: number | null } | null {
  const lines = log.split(/\r?\n/);
  const index = lines.findIndex((l) => /^(?:\.\/)?[^:\s]*\.tex:\d+: /.test(l) || l.startsWith("! "));
  if (index < 0) return null;
  const first = lines[index]!;
  const fileLine = /^(?:\.\/)?[^:\s]*\.tex:(\d+): (.*)$/.exec(first);
  let message = (fileLine ? fileLine[2]! : first.slice(2)).trim();
  // A few continuation lines complete messages like "LaTeX Error: File `x' not found." or "Not reading from …".
  for (const next of lines.slice(index + 1, index + 3)) {
    if (!next.trim() || next.startsWith("l.") || next.startsWith("See the") || next.startsWith("Type ") || next.startsWith("!") || next.startsWith("<")) break;
    if (message.length < 160) message += ` ${next.trim()}`;
  }
  let line = fileLine ? Number(fileLine[1]) : null;
  if (line === null) {
    const at = lines.slice(index, index + 30).find((l) => /^l\.\d+/.test(l));
    if (at) line = Number(/^l\.(\d+)/.exec(at)![1]);
  }
  // openin_any=p / openout_any=p refuse absolute paths and `..`; kpathsea says so on stderr only, so the message says it here.
  if (/[`'](?:\/|\.\.\/)/.test(message)) message = `${message} Only files in the document's own folder can be read or written.`;
  return { message: message.slice(0, 400), line };
}

interface SpawnOutcome {
  code: number | null;
  stderr: string;
  timedOut: boolean;
  spawnError: string | null;
}

function spawnCollect(command: string, args: string[], timeoutMs: number): Promise<SpawnOutcome> {
  return new Promise((resolve) => {
    let stderr = "";
    let timedOut = false;
    const child = spawn(command, args, { stdio: ["ignore", "ignore", "pipe"], detached: true });
    const timer = setTimeout(() => {
      timedOut = true;
      // bwrap's init dies with it (--die-with-parent), and every process of the sandbox with its pid namespace.
      try {
        process.kill(-child.pid!, "SIGKILL");
      } catch {
        child.kill("SIGKILL");
      }
    }, timeoutMs);
    child.stderr.on("data", (chunk: Buffer) => {
      if (stderr.length < 8192) stderr += chunk.toString("utf8");
    });
    child.on("error", (error) => {
      clearTimeout(timer);
      resolve({ code: null, stderr, timedOut, spawnError: error.message });
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stderr, timedOut, spawnError: null });
    });
  });
}

async function readIfExists(path: string): Promise<string | null> {
  try {
    return await readFile(path, "utf8");
  } catch {
    return null;
  }
}

const pageNo = (name: string) => Number(/\d+/.exec(name)![0]);
const lineOf = (text: string, index: number) => text.slice(0, index).split("\n").length;
function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.ceil(bytes / 1024)} KB`;
}
