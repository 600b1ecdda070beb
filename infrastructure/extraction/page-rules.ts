/**
 * How text without physical pages (TXT, HTML, DOCX) is cut into "pages" that citations can name.
 *
 * - Plain text and HTML: pages of at most 3000 characters (about one printed page of prose),
 *   cut at the last paragraph break, else line break, else space before the limit, so words
 *   and, where possible, paragraphs stay whole.
 * - DOCX: explicit page breaks (Ctrl+Enter) always start a new page; between them, pages of at
 *   most 500 words (a typical printed Word page), cut between paragraphs where possible.
 *
 * countPages uses the same functions as extract, so the count checked against the plan's page
 * allowance is exactly the number of pages the document will have.
 */

export const CHARS_PER_PAGE = 3000;
export const WORDS_PER_PAGE = 500;

/** Splits plain text into pages by the characters rule. Always returns at least one page. */
export function splitTextIntoPages(text: string, limit = CHARS_PER_PAGE): string[] {
  const normalized = text.replace(/\r\n?/g, "\n");
  const pages: string[] = [];
  let rest = normalized;
  while (rest.length > limit) {
    const window = rest.slice(0, limit + 1);
    let cut = window.lastIndexOf("\n\n");
    // A cut in the first half would make a short page; prefer a smaller separator later on.
    if (cut < limit / 2) cut = window.lastIndexOf("\n");
    if (cut < limit / 2) cut = window.lastIndexOf(" ");
    if (cut <= 0) cut = limit;
    pages.push(rest.slice(0, cut).trim());
    rest = rest.slice(cut).replace(/^\s+/, "");
  }
  pages.push(rest.trim());
  return pages.length > 1 && pages[pages.length - 1] === "" ? pages.slice(0, -1) : pages;
}

const countWords = (text: string): number => (text.match(/\S+/g) ?? []).length;

/**
 * Splits paragraphs into pages of at most `limit` words, between paragraphs; a single paragraph
 * longer than the limit is cut between words. Always returns at least one page.
 */
export function splitParagraphsIntoPages(paragraphs: string[], limit = WORDS_PER_PAGE): string[] {
  const pages: string[] = [];
  let current: string[] = [];
  let words = 0;
  const flush = () => {
    pages.push(current.join("\n\n").trim());
    current = [];
    words = 0;
  };
  for (const paragraph of paragraphs) {
    let n = countWords(paragraph);
    if (n === 0) continue;
    if (words > 0 && words + n > limit) flush();
    if (n <= limit) {
      current.push(paragraph);
      words += n;
      continue;
    }
    // An oversized paragraph: fill pages word by word, keeping the line breaks inside it.
    let rest = paragraph;
    while (n > limit) {
      const pattern = new RegExp(`^(?:\\s*\\S+){${limit}}`);
      const head = pattern.exec(rest)?.[0] ?? rest;
      current.push(head.trim());
      flush();
      rest = rest.slice(head.length).trim();
      n = countWords(rest);
    }
    if (n > 0) {
      current.push(rest);
      words = n;
    }
  }
  if (current.length > 0 || pages.length === 0) flush();
  return pages;
}
