/**
 * HTML to plain text for crawled web pages: what a reader sees (headings, paragraphs, lists,
 * tables), without scripts, styles, navigation or hidden elements.
 */
import { Parser } from "htmlparser2";

/** Elements whose content is never reading text. */
const SKIPPED = new Set([
  "script", "style", "noscript", "template", "svg", "canvas", "iframe", "object", "embed",
  "head", "nav", "select", "button", "form",
]);

/** Elements that start and end on their own line(s). */
const BLOCKS = new Set([
  "p", "div", "section", "article", "main", "header", "footer", "aside", "blockquote", "pre",
  "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "li", "dl", "dt", "dd", "table", "tr",
  "figure", "figcaption", "address", "hr", "details", "summary", "caption",
]);

const PARAGRAPHS = new Set(["p", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "pre", "table", "ul", "ol", "dl", "figure"]);

const VOID = new Set(["area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source", "track", "wbr"]);

export interface HtmlText {
  title: string;
  text: string;
}

export function htmlToText(html: string): HtmlText {
  let out = "";
  let title = "";
  let inTitle = false;
  let skipDepth = 0;
  let preDepth = 0;
  // Tags opened while skipping, so the matching close tag ends the skip even for nested tags.
  const stack: { name: string; skip: boolean }[] = [];

  const newline = (count: 1 | 2) => {
    const trimmed = out.replace(/[ \t]+$/, "");
    const existing = /\n*$/.exec(trimmed)?.[0].length ?? 0;
    out = trimmed + (trimmed.length === 0 ? "" : "\n".repeat(Math.max(0, count - existing)));
  };

  const parser = new Parser(
    {
      onopentag(name, attributes) {
        const hidden = "hidden" in attributes || attributes["aria-hidden"] === "true" || /display\s*:\s*none/i.test(attributes.style ?? "");
        const skip = SKIPPED.has(name) || hidden;
        if (!VOID.has(name)) stack.push({ name, skip });
        if (skip) skipDepth++;
        if (name === "title") inTitle = true;
        if (skipDepth > 0) return;
        if (name === "pre") preDepth++;
        if (name === "br") out += "\n";
        else if (PARAGRAPHS.has(name)) newline(2);
        else if (BLOCKS.has(name)) newline(1);
        if (name === "li") out += "- ";
        if ((name === "td" || name === "th") && !/(^|\n)$/.test(out)) out += "\t";
        if (name === "img" && attributes.alt) out += ` ${attributes.alt} `;
      },
      ontext(text) {
        if (inTitle) title += text;
        if (skipDepth > 0 || inTitle) return;
        if (preDepth > 0) {
          out += text;
          return;
        }
        const collapsed = text.replace(/\s+/g, " ");
        // Inline elements each bring their own spaces; keep one between words.
        out += /(^|[ \t\n])$/.test(out) ? collapsed.replace(/^ /, "") : collapsed;
      },
      onclosetag(name, isImplied) {
        if (name === "title") inTitle = false;
        if (VOID.has(name)) return;
        // htmlparser2 closes unclosed children for us; pop until the matching element.
        while (stack.length > 0) {
          const top = stack.pop()!;
          if (top.skip) skipDepth--;
          if (top.name === name) break;
        }
        void isImplied;
        if (skipDepth > 0) return;
        if (name === "pre") preDepth = Math.max(0, preDepth - 1);
        if (PARAGRAPHS.has(name)) newline(2);
        else if (BLOCKS.has(name)) newline(1);
      },
    },
    { decodeEntities: true, lowerCaseTags: true },
  );
  parser.write(html);
  parser.end();

  const text = out
    .split("\n")
    .map((line) => line.replace(/^[ ]+|[ ]+$/g, ""))
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
  return { title: title.replace(/\s+/g, " ").trim(), text };
}
