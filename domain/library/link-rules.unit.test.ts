import { describe, expect, it } from "vitest";
import {
  checkCrawlDepth,
  crawlDepthSchema,
  documentLinkSchema,
  documentUrlSchema,
  linkUploadSchema,
  parseDocumentLink,
  parseVideoLink,
  parseWebsiteLink,
  submitDepthError,
  videoLinkSchema,
  videoUrlSchema,
  websiteLinkSchema,
  websiteUrlSchema,
} from "./link-rules";

const ID = "dQw4w9WgXcQ";

describe("YouTube links", () => {
  it.each([
    `https://www.youtube.com/watch?v=${ID}`,
    `http://youtube.com/watch?v=${ID}`,
    `https://m.youtube.com/watch?v=${ID}`,
    `www.youtube.com/watch?v=${ID}`,
    `youtube.com/watch?v=${ID}`,
    `https://www.youtube.com/watch?feature=share&v=${ID}&t=42s`,
    `https://www.youtube.com/embed/${ID}`,
    `https://www.youtube.com/embed/${ID}?start=10`,
    `https://youtu.be/${ID}`,
    `youtu.be/${ID}?t=5`,
    `  https://YOUTU.BE/${ID}  `,
  ])("accepts %s", (url) => {
    expect(parseVideoLink(url)).toEqual({ videoId: ID });
  });

  it("keeps - and _ in ids", () => {
    expect(parseVideoLink("https://youtu.be/a-b_c-d_e-f")).toEqual({ videoId: "a-b_c-d_e-f" });
  });

  it.each([
    `https://www.youtube.com/watch?v=${ID.slice(0, 10)}`,
    `https://www.youtube.com/watch?v=${ID}x`,
    `https://www.youtube.com/watch?v=dQw4w9WgXc!`,
    "https://www.youtube.com/watch",
    `https://www.youtube.com/shorts/${ID}`,
    `https://www.youtube.com/${ID}`,
    `https://evil.com/watch?v=${ID}`,
    `https://youtube.com.evil.com/watch?v=${ID}`,
    `https://notyoutube.com/watch?v=${ID}`,
    `ftp://youtube.com/watch?v=${ID}`,
    `javascript:alert('youtu.be/${ID}')`,
    `https://user@youtu.be/${ID}`,
    "not a url",
  ])("refuses %s", (url) => {
    expect(parseVideoLink(url)).toEqual({ error: "Invalid YouTube URL" });
  });

  it("asks for a URL when empty", () => {
    expect(parseVideoLink("")).toEqual({ error: "No URL Provided" });
    expect(parseVideoLink("   ")).toEqual({ error: "No URL Provided" });
    expect(parseVideoLink(undefined)).toEqual({ error: "No URL Provided" });
  });
});

describe("Website links", () => {
  it.each([
    ["example.com", "https://example.com"],
    ["www.example.com/docs/intro", "https://www.example.com/docs/intro"],
    ["https://docs.example.co.uk/a/b?c=d#e", "https://docs.example.co.uk/a/b?c=d#e"],
    ["http://example.org", "http://example.org"],
    ["ftp://files.example.org/pub", "ftp://files.example.org/pub"],
    ["smtp://mail.example.org", "smtp://mail.example.org"],
    ["HTTPS://Example.COM:8443/x", "HTTPS://Example.COM:8443/x"],
  ])("accepts %s", (input, url) => {
    expect(parseWebsiteLink(input)).toEqual({ url });
  });

  it.each(["example", "https://example", "gopher://example.com", "file:///etc/passwd", "javascript:alert(1)", "http://exa mple.com", "http://127.0.0.1/", "https://-bad-.com", "example.c0m"])(
    "refuses %s",
    (input) => {
      expect(parseWebsiteLink(input)).toEqual({ error: "Invalid Website URL" });
    },
  );

  it("asks for a URL when empty", () => {
    expect(parseWebsiteLink("")).toEqual({ error: "No URL Provided" });
  });
});

describe("DocumentURL links", () => {
  it.each(["pdf", "docx", "txt", "doc", "xls", "xlsx", "PDF"])("accepts .%s", (ext) => {
    const result = parseDocumentLink(`https://files.example.com/reports/q1.${ext}`);
    expect(result).toEqual({ url: `https://files.example.com/reports/q1.${ext}`, extension: ext.toLowerCase() });
  });

  it("accepts a query string after the file name (signed links)", () => {
    expect(parseDocumentLink("http://cdn.example.com/a.pdf?X-Amz-Signature=abc")).toMatchObject({ extension: "pdf" });
  });

  it.each([
    "files.example.com/a.pdf",
    "ftp://files.example.com/a.pdf",
    "file:///tmp/a.pdf",
    "https://files.example.com/a.pptx",
    "https://files.example.com/a.pdf.exe",
    "https://files.example.com/pdf",
    "https://files.example.com/",
    "https://localhost/a.pdf",
  ])("refuses %s", (input) => {
    expect(parseDocumentLink(input)).toEqual({ error: "Invalid DocumentURL URL" });
  });

  it("asks for a URL when empty", () => {
    expect(parseDocumentLink(" ")).toEqual({ error: "No URL Provided" });
  });
});

describe("crawl depth", () => {
  it.each([1, 2, 3, 4, 5, "3"])("accepts %s", (depth) => {
    expect(checkCrawlDepth(depth)).toBeNull();
    expect(crawlDepthSchema.safeParse(depth).success).toBe(true);
  });

  it.each([0, 6, -1, 2.5, "abc", "", null, undefined, Number.NaN])("refuses %s", (depth) => {
    expect(checkCrawlDepth(depth)).toBe("Depth must be between 1 and 5");
    const parsed = crawlDepthSchema.safeParse(depth);
    expect(parsed.success).toBe(false);
    if (!parsed.success) expect(parsed.error.issues[0].message).toBe("Depth must be between 1 and 5");
  });

  it("says zero or negative depths must be positive on submit", () => {
    expect(submitDepthError(0)).toBe("Depth must be a positive number!");
    expect(submitDepthError("-2")).toBe("Depth must be a positive number!");
    expect(submitDepthError(7)).toBe("Depth must be between 1 and 5");
    expect(submitDepthError(2)).toBeNull();
  });
});

describe("zod schemas", () => {
  type Issues = { success: boolean; error?: { issues: { message: string; path: (string | number)[] }[] } };
  const issues = (result: Issues) => result.error?.issues.map((i) => [i.path.join("."), i.message]);

  it("parse each URL field to its normalised value", () => {
    expect(videoUrlSchema.parse(`youtu.be/${ID}`)).toEqual({ url: `https://www.youtube.com/watch?v=${ID}`, videoId: ID });
    expect(websiteUrlSchema.parse(" example.com ")).toBe("https://example.com");
    expect(documentUrlSchema.parse("https://x.example.com/a.txt")).toBe("https://x.example.com/a.txt");
  });

  it("parse each link form", () => {
    expect(videoLinkSchema.parse({ url: `https://m.youtube.com/watch?v=${ID}` })).toEqual({ url: `https://www.youtube.com/watch?v=${ID}`, videoId: ID });
    expect(websiteLinkSchema.parse({ url: "example.com/docs", maxDepth: "2" })).toEqual({ url: "https://example.com/docs", maxDepth: 2 });
    expect(documentLinkSchema.parse({ url: "https://x.example.com/a.pdf" })).toEqual({ url: "https://x.example.com/a.pdf" });
  });

  it("report the spec's messages on the right field", () => {
    expect(issues(videoLinkSchema.safeParse({ url: "" }))).toEqual([["url", "No URL Provided"]]);
    expect(issues(videoLinkSchema.safeParse({}))).toEqual([["url", "No URL Provided"]]);
    expect(issues(videoLinkSchema.safeParse({ url: "https://vimeo.com/1" }))).toEqual([["url", "Invalid YouTube URL"]]);
    expect(issues(websiteLinkSchema.safeParse({ url: "nope", maxDepth: 1 }))).toEqual([["url", "Invalid Website URL"]]);
    expect(issues(websiteLinkSchema.safeParse({ url: "example.com", maxDepth: 0 }))).toEqual([["maxDepth", "Depth must be between 1 and 5"]]);
    expect(issues(websiteLinkSchema.safeParse({ url: "example.com" }))).toEqual([["maxDepth", "Depth must be between 1 and 5"]]);
    expect(issues(documentLinkSchema.safeParse({ url: "https://x.example.com/a.png" }))).toEqual([["url", "Invalid DocumentURL URL"]]);
  });

  it("validate the whole upload-by-link form", () => {
    expect(linkUploadSchema.parse({ type: "Website", url: "example.com", maxDepth: "2" })).toEqual({ type: "Website", url: "https://example.com", maxDepth: 2 });
    expect(linkUploadSchema.parse({ type: "YouTube", url: `https://youtu.be/${ID}` })).toEqual({
      type: "YouTube",
      url: `https://www.youtube.com/watch?v=${ID}`,
      videoId: ID,
    });
    expect(linkUploadSchema.parse({ type: "DocumentURL", url: "https://x.example.com/a.xlsx" })).toEqual({ type: "DocumentURL", url: "https://x.example.com/a.xlsx" });
    expect(issues(linkUploadSchema.safeParse({ type: "Website", url: "example.com", maxDepth: 9 }))).toEqual([["maxDepth", "Depth must be between 1 and 5"]]);
    expect(issues(linkUploadSchema.safeParse({ type: "YouTube", url: "" }))).toEqual([["url", "No URL Provided"]]);
  });
});
