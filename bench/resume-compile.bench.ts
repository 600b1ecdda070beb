/**
 * Compile time of the resume template (ARCHITECTURE §10): the sandboxed
 * compile the app runs (bubblewrap + prlimit + pdflatex + pdfinfo +
 * pdftocairo -svg per page) beside a bare `pdflatex` of the same file in the
 * same run, and a bare pdflatex + pdftocairo, so the ratio holds on a noisy
 * machine. Not a test: nothing is asserted.
 *
 *   npx tsx bench/resume-compile.bench.ts
 *
 * The document is the template filled by the offline draft from the test CV
 * (tests/fixtures/resume/cv.ts). Runs are sequential; 2 warm-up runs of each.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { outlineResume } from "#domain/resume/resume-outline";
import { renderResume } from "#domain/resume/resume-template";
import { SandboxedLatexCompiler } from "#infrastructure/latex/sandboxed-latex-compiler";
import { CV_PARAGRAPHS } from "../tests/fixtures/resume/cv";

const RUNS = 10;
const WARMUP = 2;

const { latex } = renderResume(outlineResume([{ documentId: "cv", pages: [{ pageNumber: 1, text: CV_PARAGRAPHS.join("\n") }] }]), "Me");
const dir = mkdtempSync(join(tmpdir(), "resume-bench-"));
writeFileSync(join(dir, "resume.tex"), latex);

function bare(withSvg: boolean): number {
  const started = performance.now();
  execFileSync("pdflatex", ["-no-shell-escape", "-interaction=nonstopmode", "-halt-on-error", "resume.tex"], { cwd: dir, stdio: "ignore" });
  if (withSvg) execFileSync("pdftocairo", ["-svg", "-f", "1", "-l", "1", "resume.pdf", "page-1.svg"], { cwd: dir, stdio: "ignore" });
  return performance.now() - started;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function main() {
  const compiler = new SandboxedLatexCompiler();
  const sandboxed: number[] = [];
  const barePdf: number[] = [];
  const bareSvg: number[] = [];
  for (let i = 0; i < WARMUP + RUNS; i++) {
    const started = performance.now();
    const result = await compiler.compile(latex);
    const ms = performance.now() - started;
    if (!result.ok) throw new Error(`The template did not compile: ${result.error.message}`);
    const p = bare(false);
    const s = bare(true);
    if (i < WARMUP) continue;
    sandboxed.push(ms);
    barePdf.push(p);
    bareSvg.push(s);
  }
  rmSync(dir, { recursive: true, force: true });
  const row = (name: string, values: number[]) => `${name.padEnd(44)} median ${median(values).toFixed(0).padStart(5)} ms   min ${Math.min(...values).toFixed(0).padStart(5)} ms`;
  console.log(`resume template, ${Buffer.byteLength(latex)} bytes, ${RUNS} runs each`);
  console.log(row("sandboxed compile (PDF + SVG of each page)", sandboxed));
  console.log(row("bare pdflatex (reference)", barePdf));
  console.log(row("bare pdflatex + pdftocairo -svg page 1", bareSvg));
  console.log(`ratio sandboxed / bare pdflatex: ${(median(sandboxed) / median(barePdf)).toFixed(2)}`);
  console.log(`ratio sandboxed / bare pdflatex + svg: ${(median(sandboxed) / median(bareSvg)).toFixed(2)}`);
}

await main();
