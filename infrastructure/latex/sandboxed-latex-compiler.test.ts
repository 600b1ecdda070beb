import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { SandboxedLatexCompiler } from "./sandboxed-latex-compiler";

const doc = (body: string, preamble = "") => `\\documentclass{article}\n${preamble}\n\\begin{document}\n${body}\n\\end{document}\n`;

// Short limits so the endless documents are stopped in seconds.
const compiler = new SandboxedLatexCompiler({ limits: { cpuSeconds: 4, wallClockMs: 15_000 } });

/** A host folder with a secret, outside the sandbox: no document may read it, nor write next to it. */
const host = mkdtempSync(join(tmpdir(), "latex-host-"));
const secretFile = join(host, "secret.tex");
writeFileSync(secretFile, "TOPSECRETCANARY\n");
afterAll(() => rmSync(host, { recursive: true, force: true }));

const textOf = (svgs: string[]) => svgs.join("\n");

describe("the sandboxed pdflatex", () => {
  it("compiles a document to a PDF and an SVG per page", async () => {
    const result = await compiler.compile(doc("First page\\newpage Second page"));
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.pdf.subarray(0, 5).toString()).toBe("%PDF-");
    expect(result.pageCount).toBe(2);
    expect(result.svgPages).toHaveLength(2);
    expect(result.svgPages[0]).toMatch(/^<\?xml[\s\S]*<svg /);
  });

  it("names the first error and its line", async () => {
    const result = await compiler.compile(doc("Fine line\n\\undefinedmacro here"));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe("LATEX_ERROR");
    expect(result.error.message).toMatch(/Undefined control sequence/);
    expect(result.error.line).toBe(5);
    expect(result.error.log).toMatch(/Undefined control sequence/);
  });

  it("refuses \\input of a file outside its folder (/etc/passwd) and never shows its text", async () => {
    const result = await compiler.compile(doc("\\input{/etc/passwd}"));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe("LATEX_ERROR");
    expect(result.error.message).toMatch(/own folder/);
    expect(result.error.log).not.toMatch(/root:x:0:0/);
  });

  it("cannot read a host file by absolute or relative path, with \\input or \\openin", async () => {
    for (const body of [
      `\\input{${secretFile}}`,
      `\\newread\\r\\openin\\r=${secretFile}\\read\\r to\\x \\x\\closein\\r`,
      `\\newread\\r\\openin\\r=../../../..${secretFile}\\read\\r to\\x \\x\\closein\\r`,
    ]) {
      const result = await compiler.compile(doc(body));
      if (result.ok) expect(textOf(result.svgPages)).not.toMatch(/TOPSECRET/);
      else expect(result.error.log).not.toMatch(/TOPSECRETCANARY/);
    }
  });

  it("cannot write outside its folder with \\openout", async () => {
    const target = join(host, "written.tex");
    for (const path of [target, `../../../..${target}`, "/tmp/docuchat-escape.tex"]) {
      const result = await compiler.compile(doc(`\\newwrite\\w\\immediate\\openout\\w=${path}\\immediate\\write\\w{escaped}\\immediate\\closeout\\w done`));
      if (!result.ok) expect(result.error.code).toBe("LATEX_ERROR");
    }
    expect(existsSync(target)).toBe(false);
    expect(existsSync("/tmp/docuchat-escape.tex")).toBe(false);
    expect(readdirSync(host)).toEqual(["secret.tex"]);
  });

  it("refuses \\write18 with a clear message, and a disguised one runs nothing", async () => {
    const plain = await compiler.compile(doc("\\immediate\\write18{touch /tmp/docuchat-pwned}"));
    expect(plain.ok).toBe(false);
    if (!plain.ok) {
      expect(plain.error.code).toBe("FORBIDDEN");
      expect(plain.error.message).toMatch(/not allowed/);
    }
    const marker = join(host, "pwned");
    const disguised = await compiler.compile(doc(`\\immediate\\csname wri\\string te\\endcsname 18{touch ${marker}}ok`));
    expect(existsSync(marker)).toBe(false);
    expect(existsSync("/tmp/docuchat-pwned")).toBe(false);
    expect(disguised.ok || disguised.error.code === "LATEX_ERROR").toBe(true);
  });

  it("stops an endless macro (\\def\\x{\\x}\\x) at its CPU limit", async () => {
    const result = await compiler.compile(doc("\\def\\x{\\x}\\x"));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe("TIMEOUT");
    expect(result.error.message).toMatch(/stopped/);
  });

  it("stops a document that writes a 1 GB file at the file-size limit", async () => {
    const big = doc(
      String.raw`\newwrite\w\immediate\openout\w=big.txt
\def\a{xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx}
\def\b{\a\a\a\a\a\a\a\a\a\a}\def\c{\b\b\b\b\b\b\b\b\b\b}
\count255=0 \loop\immediate\write\w{\c}\advance\count255 by 1 \ifnum\count255<100000 \repeat
\immediate\closeout\w done`,
    );
    const result = await compiler.compile(big);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(["RESOURCE_LIMIT", "TIMEOUT"]).toContain(result.error.code);
    expect(result.error.message).toMatch(/stopped/);
  });

  it("refuses a 10 MB source before compiling", async () => {
    const result = await compiler.compile(doc("x".repeat(10 * 1024 * 1024)));
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.code).toBe("SOURCE_TOO_LARGE");
      expect(result.error.message).toMatch(/too large/);
    }
  });

  it("refuses text that is not LaTeX", async () => {
    const result = await compiler.compile("Jane Doe\nSoftware engineer, 10 years of experience.\n");
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.code).toBe("NOT_LATEX");
  });

  it("refuses to compile at all when the sandbox cannot start, rather than running pdflatex unsandboxed", async () => {
    const broken = new SandboxedLatexCompiler({ bwrapCommand: "/nonexistent/bwrap" });
    const result = await broken.compile(doc("Hello"));
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.code).toBe("SANDBOX_UNAVAILABLE");
      expect(result.error.message).toMatch(/never compiled outside/);
    }
  });
});
