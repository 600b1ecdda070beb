/**
 * LaTeX in chat answers (spec 001 §2 "LaTeX blocks"): the assistant answers a
 * resume request with a fenced ```latex block. Plain TypeScript, so the chat
 * panel in the browser finds blocks the same way the server does.
 */
const FENCE = /```(?:latex|tex)[^\S\n]*\n([\s\S]*?)\n?```/i;

/** The first LaTeX block of an answer that is a whole document, or the text itself when it is one. */
export function extractLatexBlock(text: string): string | null {
  const fenced = FENCE.exec(text);
  const candidate = fenced ? fenced[1]! : text.trim().startsWith("\\documentclass") ? text.trim() : null;
  if (!candidate || !/\\documentclass/.test(candidate)) return null;
  return candidate.endsWith("\n") ? candidate : `${candidate}\n`;
}

/** The request Retry sends after a chat answer's LaTeX failed to compile (spec 001 §4). */
export const FIX_LATEX_REQUEST = "Fix the latex error in previous response";

/**
 * Retry's whole message: the spec's request, its hints (unescaped special
 * characters, missing subheading list markers), and the first error with the
 * lines around it. From the editor, whose text is in no earlier answer, the
 * whole source goes along as a ```latex block.
 */
export function fixLatexMessage(error: { message: string; line: number | null }, latex: string, options: { withSource?: boolean } = {}): string {
  const lines = latex.split("\n");
  const context =
    error.line !== null
      ? lines
          .slice(Math.max(0, error.line - 3), Math.min(lines.length, error.line + 2))
          .map((text, i) => `${Math.max(1, error.line! - 2) + i}: ${text}`)
          .join("\n")
      : "";
  return [
    FIX_LATEX_REQUEST,
    "Hints: special characters in text must be escaped (\\& \\% \\$ \\# \\_), and every \\resumeSubheading or \\resumeItem must sit between its list markers (\\resumeSubHeadingListStart … \\resumeSubHeadingListEnd, \\resumeItemListStart … \\resumeItemListEnd).",
    `Error${error.line !== null ? ` at line ${error.line}` : ""}: ${error.message}`,
    context ? `\`\`\`\n${context}\n\`\`\`` : "",
    options.withSource ? `The resume in the editor:\n\`\`\`latex\n${latex.trimEnd()}\n\`\`\`` : "",
  ]
    .filter(Boolean)
    .join("\n\n");
}

/**
 * A Retry message as the chat shows it: the request on its own, and what went
 * with it (hints, the error, the lines around it, maybe the whole source) apart,
 * to be opened on demand. Null for any other message.
 */
export function splitFixRequest(text: string): { request: string; details: string } | null {
  if (!text.startsWith(FIX_LATEX_REQUEST)) return null;
  const details = text.slice(FIX_LATEX_REQUEST.length).trim();
  return details ? { request: FIX_LATEX_REQUEST, details } : null;
}
