/**
 * Deterministic repairs of a resume's LaTeX (docs/decisions/133): what the
 * built-in model can honestly fix without a language model — special
 * characters left unescaped in text, list items outside a list, unbalanced
 * braces and environments. Each repair is named, so the answer says what changed.
 */

export interface LatexRepair {
  latex: string;
  /** What was changed, in words; empty when nothing known was wrong. */
  changes: string[];
}

/** Environments whose `&`, `$` and `_` are syntax, not text. */
const SYNTAX_ENVIRONMENTS = /^(tabular\*?|tabularx|array|align\*?|equation\*?|eqnarray\*?|math|displaymath)$/;
const LIST_START = /\\begin\{(itemize|enumerate|description)\}|\\resume(?:SubHeading|Item)ListStart\b/g;
const LIST_END = /\\end\{(itemize|enumerate|description)\}|\\resume(?:SubHeading|Item)ListEnd\b/g;

export function repairLatex(source: string): LatexRepair {
  const changes: string[] = [];
  let latex = source.replace(/\r\n/g, "\n");
  const steps: [(text: string) => string, string][] = [
    [escapeTextSpecials, "escaped special characters in text"],
    [listStrayItems, "put list items that stood outside a list into one"],
    [balanceEnvironments, "closed or removed unmatched \\begin/\\end environments"],
    [balanceBraces, "balanced the braces"],
  ];
  for (const [step, description] of steps) {
    const next = step(latex);
    if (next !== latex) {
      changes.push(description);
      latex = next;
    }
  }
  return { latex, changes };
}

/** The body's lines (after \begin{document}), with the index of the first one. */
function bodyStart(lines: string[]): number {
  const index = lines.findIndex((l) => /\\begin\{document\}/.test(l));
  return index < 0 ? 0 : index + 1;
}

/** Splits a line into its code and its comment (a `%` not escaped and not right after a digit). */
function splitComment(line: string): [string, string] {
  for (let i = 0; i < line.length; i++) {
    if (line[i] !== "%" || isEscaped(line, i)) continue;
    // "40%" is a percentage someone forgot to escape, not a comment.
    if (i > 0 && /\d/.test(line[i - 1]!)) continue;
    return [line.slice(0, i), line.slice(i)];
  }
  return [line, ""];
}

function isEscaped(text: string, index: number): boolean {
  let slashes = 0;
  for (let i = index - 1; i >= 0 && text[i] === "\\"; i--) slashes++;
  return slashes % 2 === 1;
}

/** Escapes & % $ # _ where they are text: outside math, tables, URLs and the preamble. */
function escapeTextSpecials(latex: string): string {
  const lines = latex.split("\n");
  const environments: string[] = [];
  for (let n = bodyStart(lines); n < lines.length; n++) {
    const [code, comment] = splitComment(lines[n]!);
    for (const match of code.matchAll(/\\(begin|end)\{([^}]*)\}/g)) {
      if (match[1] === "begin") environments.push(match[2]!);
      else environments.pop();
    }
    if (environments.some((e) => SYNTAX_ENVIRONMENTS.test(e))) continue;
    lines[n] = escapeLine(code) + comment;
  }
  return lines.join("\n");
}

function escapeLine(code: string): string {
  // Paired $…$ is math; a lone $ is money.
  const dollars = [...code.matchAll(/\$/g)].filter((m) => !isEscaped(code, m.index!)).length;
  let out = "";
  let inMath = false;
  let urlDepth = 0;
  for (let i = 0; i < code.length; i++) {
    const c = code[i]!;
    if (urlDepth === 0 && /^\\(href|url)\{/.test(code.slice(i))) {
      const open = code.indexOf("{", i);
      out += code.slice(i, open + 1);
      i = open;
      urlDepth = 1;
      continue;
    }
    if (urlDepth > 0) {
      if (c === "{" && !isEscaped(code, i)) urlDepth++;
      if (c === "}" && !isEscaped(code, i)) urlDepth--;
      out += c;
      continue;
    }
    if (isEscaped(code, i)) {
      out += c;
      continue;
    }
    if (c === "$") {
      if (dollars % 2 === 0) {
        inMath = !inMath;
        out += c;
      } else out += "\\$";
      continue;
    }
    if (inMath) {
      out += c;
      continue;
    }
    if (c === "&" || c === "#" || c === "_" || c === "%") out += `\\${c}`;
    else out += c;
  }
  return out;
}

/** Runs of \resumeItem, \resumeSubheading or \item outside any list get the list they need around them. */
function listStrayItems(latex: string): string {
  const lines = latex.split("\n");
  const out: string[] = [];
  let depth = 0;
  let open: string | null = null;
  const closeOpen = () => {
    if (open) out.push(open);
    open = null;
  };
  const start = bodyStart(lines);
  lines.forEach((line, n) => {
    if (n < start) {
      out.push(line);
      return;
    }
    const [code] = splitComment(line);
    const item = depth === 0 ? strayItemKind(code) : null;
    if (item && open !== item.end) {
      closeOpen();
      out.push(item.start);
      open = item.end;
    } else if (!item && open && code.trim() !== "") {
      closeOpen();
    }
    out.push(line);
    depth += (code.match(LIST_START) ?? []).length - (code.match(LIST_END) ?? []).length;
    if (depth < 0) depth = 0;
  });
  closeOpen();
  return out.join("\n");
}

function strayItemKind(code: string): { start: string; end: string } | null {
  const trimmed = code.trim();
  if (/^\\resumeItem\b/.test(trimmed)) return { start: "\\resumeItemListStart", end: "\\resumeItemListEnd" };
  if (/^\\resume(Subheading|ProjectHeading)\b/.test(trimmed)) return { start: "\\resumeSubHeadingListStart", end: "\\resumeSubHeadingListEnd" };
  if (/^\\item\b/.test(trimmed)) return { start: "\\begin{itemize}", end: "\\end{itemize}" };
  return null;
}

/** An \end without its \begin is dropped; a \begin left open is closed where its enclosing environment ends. */
function balanceEnvironments(latex: string): string {
  const lines = latex.split("\n");
  const stack: string[] = [];
  const out: string[] = [];
  for (const line of lines) {
    const [code, comment] = splitComment(line);
    let rebuilt = "";
    let last = 0;
    for (const match of code.matchAll(/\\(begin|end)\{([^}]*)\}/g)) {
      rebuilt += code.slice(last, match.index);
      last = match.index! + match[0].length;
      const name = match[2]!;
      if (match[1] === "begin") {
        stack.push(name);
        rebuilt += match[0];
        continue;
      }
      const at = stack.lastIndexOf(name);
      if (at < 0) continue; // an \end with no \begin: dropped
      const unclosed = stack.splice(at).slice(1).reverse();
      rebuilt += unclosed.map((e) => `\\end{${e}}`).join("") + match[0];
    }
    out.push(rebuilt + code.slice(last) + comment);
  }
  const missing = stack.reverse().filter((e) => e !== "document");
  if (missing.length > 0 || stack.includes("document")) {
    const endDoc = out.findIndex((l) => /\\end\{document\}/.test(l));
    const closing = missing.map((e) => `\\end{${e}}`);
    if (stack.includes("document")) out.push(...closing, "\\end{document}");
    else if (endDoc >= 0) out.splice(endDoc, 0, ...closing);
    else out.push(...closing);
  }
  return out.join("\n");
}

/** A `}` with nothing to close is dropped; a `{` never closed is closed at the end of its line. */
function balanceBraces(latex: string): string {
  const lines = latex.split("\n");
  const openAt: number[] = [];
  const extraClosers = new Map<number, number[]>();
  lines.forEach((line, n) => {
    const [code] = splitComment(line);
    for (let i = 0; i < code.length; i++) {
      if (isEscaped(code, i)) continue;
      if (code[i] === "{") openAt.push(n);
      else if (code[i] === "}") {
        if (openAt.length > 0) openAt.pop();
        else extraClosers.set(n, [...(extraClosers.get(n) ?? []), i]);
      }
    }
  });
  for (const [n, positions] of extraClosers) {
    let line = lines[n]!;
    for (const i of [...positions].reverse()) line = line.slice(0, i) + line.slice(i + 1);
    lines[n] = line;
  }
  for (const n of openAt) {
    const [code, comment] = splitComment(lines[n]!);
    lines[n] = `${code}}${comment}`;
  }
  return lines.join("\n");
}
