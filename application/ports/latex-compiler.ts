/**
 * Compiles a LaTeX document to PDF and SVG pages (ARCHITECTURE §4 "LaTeX
 * compile"). The adapter runs pdflatex in a sandbox; when the sandbox cannot
 * be set up it refuses (code SANDBOX_UNAVAILABLE) instead of compiling unsandboxed.
 */
export type CompileFailureCode =
  /** The sandbox (bubblewrap) or TeX Live is missing or cannot start on this server. */
  | "SANDBOX_UNAVAILABLE"
  /** The source is larger than the limit. */
  | "SOURCE_TOO_LARGE"
  /** The text is not a LaTeX document (no \documentclass ... \begin{document}). */
  | "NOT_LATEX"
  /** The source asks for something the sandbox forbids (shell commands). */
  | "FORBIDDEN"
  /** pdflatex stopped on an error in the document. */
  | "LATEX_ERROR"
  /** The compile ran past its time or CPU limit (an endless loop, for instance). */
  | "TIMEOUT"
  /** The compile tried to write more than the file-size limit, or used too much memory. */
  | "RESOURCE_LIMIT";

export interface CompileError {
  code: CompileFailureCode;
  /** What the user reads ('Compile error' shows it). */
  message: string;
  /** The line of the source pdflatex stopped at, when it names one. */
  line: number | null;
  /** The end of pdflatex's log, for the model that repairs the document. */
  log: string;
}

export type CompileResult =
  | { ok: true; pdf: Buffer; svgPages: string[]; pageCount: number; ms: number }
  | { ok: false; error: CompileError; ms: number };

export interface LatexCompiler {
  compile(source: string): Promise<CompileResult>;
}
