import { Parser } from "htmlparser2";

/** What the crawler needs from one HTML page: its title and the targets of its links. */
export interface PageOutline {
  title: string;
  /** Absolute http(s) URLs without fragments, deduplicated, in document order. */
  links: string[];
}

export function outlinePage(html: string, pageUrl: string): PageOutline {
  let title = "";
  let inTitle = false;
  let titleDone = false;
  let base = pageUrl;
  const hrefs: string[] = [];

  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (name === "title" && !titleDone) inTitle = true;
        else if (name === "base" && attributes.href && hrefs.length === 0) {
          try {
            base = new URL(attributes.href, pageUrl).href;
          } catch {
            /* ignore a broken <base> */
          }
        } else if (name === "a" && attributes.href !== undefined) hrefs.push(attributes.href);
      },
      ontext(text) {
        if (inTitle) title += text;
      },
      onclosetag(name) {
        if (name === "title" && inTitle) {
          inTitle = false;
          titleDone = true;
        }
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.write(html);
  parser.end();

  const seen = new Set<string>();
  const links: string[] = [];
  for (const href of hrefs) {
    const trimmed = href.trim();
    if (trimmed === "" || trimmed.startsWith("#")) continue;
    let url: URL;
    try {
      url = new URL(trimmed, base);
    } catch {
      continue;
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") continue; // mailto:, javascript:, tel:, data:, …
    url.hash = "";
    if (!seen.has(url.href)) {
      seen.add(url.href);
      links.push(url.href);
    }
  }
  return { title: title.replace(/\s+/g, " ").trim(), links };
}
