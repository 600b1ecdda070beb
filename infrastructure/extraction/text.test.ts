import { describe, expect, it } from "vitest";
import { htmlToText } from "#infrastructure/extraction/html";
import { CHARS_PER_PAGE, splitParagraphsIntoPages, splitTextIntoPages } from "#infrastructure/extraction/page-rules";
import { DefaultTextExtractor } from "#infrastructure/extraction/text-extractor";

const extractor = new DefaultTextExtractor();

describe("plain text", () => {
  it("strips the BOM and keeps short text on one page", async () => {
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from("Grüße aus Köln\r\nzweite Zeile")]);
    expect(extractor.detectKind(bytes, "gruss.txt")).toBe("txt");
    const { pages } = await extractor.extract({ bytes, kind: "txt", ocr: false });
    expect(pages).toEqual([{ pageNumber: 1, text: "Grüße aus Köln\nzweite Zeile", blocks: [] }]);
  });

  it("reads UTF-16 text saved with a byte order mark", async () => {
    const bytes = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from("Notepad unicode", "utf16le")]);
    expect(extractor.detectKind(bytes, "note.txt")).toBe("txt");
    expect((await extractor.extract({ bytes, kind: "txt", ocr: false })).pages[0].text).toBe("Notepad unicode");
  });

  it("cuts pages of about 3000 characters at paragraph breaks, and counts them the same way", async () => {
    const paragraph = (n: number) => `Paragraph ${n} ` + "word ".repeat(150).trim();
    const text = Array.from({ length: 12 }, (_, i) => paragraph(i + 1)).join("\n\n");
    const bytes = Buffer.from(text);
    const { pages } = await extractor.extract({ bytes, kind: "txt", ocr: false });
    expect(await extractor.countPages(bytes, "txt")).toBe(pages.length);
    expect(pages.length).toBeGreaterThan(2);
    for (const page of pages) {
      expect(page.text.length).toBeLessThanOrEqual(CHARS_PER_PAGE);
      expect(page.text.startsWith("Paragraph ")).toBe(true);
    }
    expect(pages.map((p) => p.text).join("\n\n")).toBe(text);
    // Paragraphs are ~760 characters: three fit in 3000, a fourth would not.
    expect(pages[1].text.startsWith("Paragraph 4 ")).toBe(true);
  });

  it("refuses an empty-looking text file with NO_TEXT", async () => {
    await expect(extractor.extract({ bytes: Buffer.from("  \n\n "), kind: "txt", ocr: false })).rejects.toMatchObject({ code: "NO_TEXT" });
  });
});

describe("page rules", () => {
  it("cuts text without any breaks at the limit", () => {
    const pages = splitTextIntoPages("x".repeat(7000));
    expect(pages.map((p) => p.length)).toEqual([3000, 3000, 1000]);
  });

  it("never splits a word when spaces exist", () => {
    const pages = splitTextIntoPages("abcdefg ".repeat(1000));
    for (const page of pages) expect(page.split(" ").every((w) => w === "abcdefg")).toBe(true);
  });

  it("splits an oversized paragraph by words", () => {
    const pages = splitParagraphsIntoPages([Array.from({ length: 1200 }, (_, i) => `w${i}`).join(" ")]);
    expect(pages.map((p) => p.split(" ").length)).toEqual([500, 500, 200]);
    expect(pages[1].startsWith("w500 ")).toBe(true);
  });
});

describe("HTML", () => {
  it("keeps headings, paragraphs, lists and tables, and drops scripts, styles and navigation", () => {
    const { title, text } = htmlToText(`<!doctype html><html><head><title>Guide &amp; FAQ</title>
      <style>body { color: red }</style><script>var secret = "do not index";</script></head>
      <body><nav><a href="/">Home</a> <a href="/about">About</a></nav>
      <h1>Getting   started</h1><p>Install the <b>app</b>, then <a href="#">sign in</a>.</p>
      <div hidden>Hidden text</div>
      <ul><li>First step</li><li>Second step</li></ul>
      <table><tr><th>Plan</th><th>Price</th></tr><tr><td>Pro</td><td>10 €</td></tr></table>
      <p>Line one<br>Line two</p><noscript>Enable JS</noscript></body></html>`);
    expect(title).toBe("Guide & FAQ");
    expect(text).toBe(
      "Getting started\n\nInstall the app, then sign in.\n\n- First step\n- Second step\n\nPlan\tPrice\nPro\t10 €\n\nLine one\nLine two",
    );
  });

  it("extracts crawled pages with their title first", async () => {
    const bytes = Buffer.from("<html><head><title>Pricing</title></head><body><p>Plans start at 5 dollars.</p></body></html>");
    const { pages } = await extractor.extract({ bytes, kind: "html", ocr: false, sourceUrl: "https://example.com/pricing" });
    expect(pages).toEqual([{ pageNumber: 1, text: "Pricing\n\nPlans start at 5 dollars.", blocks: [] }]);
  });
});
