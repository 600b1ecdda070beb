import { locatePassage } from "./passage-match";

/**
 * Marks a cited passage inside a rendered pdf.js text layer: the matched
 * characters of each text span are wrapped in a <mark> (not a span: the text
 * layer's CSS positions and scales every span on its own), so the highlight
 * covers exactly the quoted words, line by line, at any zoom.
 */

const MARK_CLASS = "dc-viewer-cited";

/** Wraps the passage's characters in marks; returns them in reading order (none when the layer does not hold the passage). */
export function markPassage(layer: HTMLElement, passage: string): HTMLElement[] {
  const walker = layer.ownerDocument.createTreeWalker(layer, NodeFilter.SHOW_TEXT);
  const nodes: Text[] = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) if ((node as Text).data) nodes.push(node as Text);
  const ranges = locatePassage(
    nodes.map((n) => n.data),
    passage,
  );
  if (!ranges) return [];
  const marks: HTMLElement[] = [];
  for (const range of ranges) {
    const node = nodes[range.piece];
    const middle = range.start > 0 ? node.splitText(range.start) : node;
    if (range.end - range.start < middle.data.length) middle.splitText(range.end - range.start);
    const mark = layer.ownerDocument.createElement("mark");
    mark.className = MARK_CLASS;
    mark.setAttribute("data-testid", "citation-highlight");
    middle.parentNode?.insertBefore(mark, middle);
    mark.appendChild(middle);
    marks.push(mark);
  }
  return marks;
}

/** Removes the marks and joins the text back, so selection and the next match see the layer as pdf.js drew it. */
export function clearPassageMarks(layer: HTMLElement): void {
  for (const mark of layer.querySelectorAll(`mark.${MARK_CLASS}`)) {
    const parent = mark.parentNode;
    mark.replaceWith(...mark.childNodes);
    parent?.normalize();
  }
}
