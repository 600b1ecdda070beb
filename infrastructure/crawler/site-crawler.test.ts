import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { SafeEgress } from "#infrastructure/egress/safe-egress";
import { startLocalSite, tableResolver, type LocalSite } from "#infrastructure/egress/testing/local-site";
import { outlinePage } from "./html-page";
import { parseRobots } from "./robots";
import { CRAWL_REASONS, crawlSite, CrawlError, SiteCrawler } from "./site-crawler";

const HOST = "docs.example.test";
const WWW = `www.${HOST}`;
const OTHER = "other.example.test";

const page = (title: string, links: string[]) =>
  `<!doctype html><html><head><title>${title}</title></head><body>${links.map((href) => `<a href="${href}">${href}</a>`).join("\n")}` +
  `<p>${"x".repeat(800)}</p></body></html>`;

describe("crawlSite", () => {
  let site: LocalSite;
  let robots: { status: number; body: string } = { status: 404, body: "" };

  beforeAll(async () => {
    site = await startLocalSite((req, res) => {
      const path = req.url ?? "/";
      const port = site.port;
      const html = (body: string) => {
        res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
        res.end(body);
      };
      switch (path) {
        case "/robots.txt":
          res.writeHead(robots.status, { "content-type": "text/plain" });
          res.end(robots.body);
          return;
        case "/":
          return html(
            page("Home", [
              "/a",
              "b", // relative
              "/private/secret",
              `http://${OTHER}:${port}/elsewhere`,
              "mailto:someone@example.test",
              "javascript:void(0)",
              "/manual.pdf",
              "#top",
              "/a#section", // same page as /a
            ]),
          );
        case "/a":
          return html(page("Page A", ["/a/1", "/", "/b", "/redirect-home"]));
        case "/b":
          return html(page("Page B", ["/b/1", "/a", `http://${WWW}:${port}/b/2`, `http://${WWW}:${port}/a`]));
        case "/a/1":
          return html(page("Page A1", ["/a/1/deep", "/"]));
        case "/b/1":
          return html(page("Page B1", ["../a/1"]));
        case "/b/2":
          return html(page("Page B2", []));
        case "/a/1/deep":
          return html(page("Deep", []));
        case "/redirect-home":
          res.writeHead(302, { location: "/" });
          res.end();
          return;
        case "/private/secret":
          return html(page("Secret", []));
        default:
          res.writeHead(404);
          res.end();
      }
    }, HOST);
  });
  afterAll(() => site.close());
  beforeEach(() => {
    robots = { status: 200, body: "User-agent: *\nDisallow: /private/\n" };
  });

  const egress = () =>
    new SafeEgress({
      allowPrivateHosts: [HOST, WWW],
      resolver: tableResolver({ [HOST]: ["127.0.0.1"], [WWW]: ["127.0.0.1"], [OTHER]: ["127.0.0.1"] }),
    });
  const paths = (urls: { url: string }[]) => urls.map(({ url }) => url.replace(/^http:\/\/[^/]+/, (origin) => (origin.includes("www.") ? "www" : "")));

  it("depth 1 reads only the start page", async () => {
    const result = await crawlSite({ startUrl: `${site.origin}/`, maxDepth: 1, egress: egress() });
    expect(paths(result.pages)).toEqual(["/"]);
    expect(result.pages[0].title).toBe("Home");
    expect(result.pages[0].html).toContain("<title>Home</title>");
  });

  it("depth 2 adds the pages linked from the start page, and skips the rest with reasons", async () => {
    const before = site.requests.length;
    const result = await crawlSite({ startUrl: `${site.origin}/`, maxDepth: 2, egress: egress() });
    expect(paths(result.pages)).toEqual(["/", "/a", "/b"]);
    expect(result.skipped).toEqual([
      { url: `http://${OTHER}:${site.port}/elsewhere`, reason: CRAWL_REASONS.offSite },
      { url: `${site.origin}/manual.pdf`, reason: CRAWL_REASONS.notAPage },
      { url: `${site.origin}/private/secret`, reason: CRAWL_REASONS.robots },
    ]);
    const requested = site.requests.slice(before);
    expect(requested).not.toContain("/private/secret");
    expect(requested).not.toContain("/elsewhere");
    expect(requested).not.toContain("/manual.pdf");
    expect(requested.filter((p) => p === "/robots.txt")).toHaveLength(1);
  });

  it("depth 3 follows one more level, treats www. as the same site and does not loop", async () => {
    const before = site.requests.length;
    const result = await crawlSite({ startUrl: `${site.origin}/`, maxDepth: 3, egress: egress() });
    expect(paths(result.pages)).toEqual(["/", "/a", "/b", "/a/1", "/b/1", "www/b/2"]);
    expect(result.pages.map((p) => p.title)).toEqual(["Home", "Page A", "Page B", "Page A1", "Page B1", "Page B2"]);
    // /redirect-home lands on a page already read: not kept twice, not reported.
    expect(result.skipped.map((s) => s.reason)).not.toContain(CRAWL_REASONS.redirectedOffSite);
    expect(result.skipped.map((s) => s.url)).not.toContain(`${site.origin}/redirect-home`);
    const requested = site.requests.slice(before).filter((p) => p !== "/robots.txt");
    // Each page once (the loops back to / and /a are not followed); / is requested a second time only through the redirect.
    expect(requested.sort()).toEqual(["/", "/", "/a", "/a/1", "/b", "/b/1", "/b/2", "/redirect-home"]);
    expect(requested).not.toContain("/a/1/deep");
    expect(requested).not.toContain("/private/secret");
  });

  it("follows robots.txt groups for its own user agent before *", async () => {
    robots = { status: 200, body: "User-agent: *\nDisallow: /a\n\nUser-agent: DocuChatBot\nDisallow: /b\nAllow: /\n" };
    const result = await crawlSite({ startUrl: `${site.origin}/`, maxDepth: 2, egress: egress() });
    expect(paths(result.pages)).toEqual(["/", "/a", "/private/secret"]);
    expect(result.skipped).toContainEqual({ url: `${site.origin}/b`, reason: CRAWL_REASONS.robots });
  });

  it("reads everything when robots.txt is missing, and nothing when it fails with a server error", async () => {
    robots = { status: 404, body: "" };
    const open = await crawlSite({ startUrl: `${site.origin}/`, maxDepth: 2, egress: egress() });
    expect(paths(open.pages)).toEqual(["/", "/a", "/b", "/private/secret"]);

    robots = { status: 503, body: "" };
    const closed = await crawlSite({ startUrl: `${site.origin}/`, maxDepth: 2, egress: egress() });
    expect(closed.pages).toEqual([]);
    expect(closed.skipped).toEqual([{ url: `${site.origin}/`, reason: CRAWL_REASONS.robotsUnavailable }]);
  });

  it("stops at the page cap", async () => {
    const result = await crawlSite({ startUrl: `${site.origin}/`, maxDepth: 3, egress: egress(), maxPages: 2 });
    expect(paths(result.pages)).toEqual(["/", "/a"]);
    expect(result.skipped).toContainEqual({ url: `${site.origin}/b`, reason: CRAWL_REASONS.pageLimit });
  });

  it("stops at the byte cap for the whole site", async () => {
    const homeSize = Buffer.byteLength((await egress().fetch({ url: `${site.origin}/` })).body);
    const result = await crawlSite({ startUrl: `${site.origin}/`, maxDepth: 3, egress: egress(), maxTotalBytes: homeSize + 1200 });
    expect(paths(result.pages)).toEqual(["/", "/a"]);
    expect(result.skipped).toContainEqual({ url: `${site.origin}/b`, reason: CRAWL_REASONS.byteLimit });
    expect(result.skipped.filter((s) => s.reason === CRAWL_REASONS.byteLimit).length).toBeGreaterThan(0);
  });

  it("stops when the time budget is spent", async () => {
    const result = await crawlSite({ startUrl: `${site.origin}/`, maxDepth: 3, egress: egress(), timeBudgetMs: 0 });
    expect(result.pages).toEqual([]);
    expect(result.skipped).toEqual([{ url: `${site.origin}/`, reason: CRAWL_REASONS.timeLimit }]);
  });

  it("reports a start page the egress refuses, and refuses bad input", async () => {
    const refused = await crawlSite({ startUrl: `http://127.0.0.1:${site.port}/`, maxDepth: 2, egress: egress() });
    expect(refused.pages).toEqual([]);
    expect(refused.skipped).toEqual([{ url: `http://127.0.0.1:${site.port}/`, reason: "This address points to the server itself and cannot be fetched." }]);
    await expect(crawlSite({ startUrl: `${site.origin}/`, maxDepth: 6, egress: egress() })).rejects.toThrow(new CrawlError("Depth must be between 1 and 5"));
    await expect(crawlSite({ startUrl: "ftp://example.com/", maxDepth: 1, egress: egress() })).rejects.toThrow(CrawlError);
  });

  it("is the WebsiteCrawler port", async () => {
    const crawler = new SiteCrawler(egress(), { maxPages: 1 });
    expect(paths((await crawler.crawl(`${site.origin}/`, 3)).pages)).toEqual(["/"]);
  });
});

describe("robots.txt rules", () => {
  it("uses the longest match, Allow winning a tie, with * and $ patterns", () => {
    const rules = parseRobots(
      ["User-agent: *", "Disallow: /docs/", "Allow: /docs/public", "Disallow: /*.php$", "Disallow: /tmp", "Allow: /tmp", "Disallow:"].join("\n"),
      "DocuChatBot",
    );
    expect(rules.isAllowed("/")).toBe(true);
    expect(rules.isAllowed("/docs/secret")).toBe(false);
    expect(rules.isAllowed("/docs/public/page")).toBe(true);
    expect(rules.isAllowed("/index.php")).toBe(false);
    expect(rules.isAllowed("/index.php?x=1")).toBe(true);
    expect(rules.isAllowed("/tmp/x")).toBe(true);
  });

  it("merges groups for the same agent and ignores comments and other agents", () => {
    const rules = parseRobots(
      "# hello\nUser-agent: OtherBot\nDisallow: /\n\nUser-agent: docuchatbot\nUser-agent: AnotherBot\nDisallow: /a # no\n\nUser-agent: DocuChatBot\nDisallow: /b\n",
      "DocuChatBot/1.0",
    );
    expect(rules.isAllowed("/a")).toBe(false);
    expect(rules.isAllowed("/b/c")).toBe(false);
    expect(rules.isAllowed("/c")).toBe(true);
  });

  it("treats percent-encoded paths alike", () => {
    const rules = parseRobots("User-agent: *\nDisallow: /caf%C3%A9\n", "DocuChatBot");
    expect(rules.isAllowed("/café/menu")).toBe(false);
    expect(rules.isAllowed(encodeURI("/café/menu"))).toBe(false);
  });
});

describe("page outline", () => {
  it("reads the title and absolute links, honouring <base>", () => {
    const outline = outlinePage(
      '<html><head><base href="https://example.com/docs/"><title> A &amp; B </title></head><body>' +
        '<a href="intro">x</a><a href="/top#x">y</a><a href="/top">dup</a><a href="tel:123">t</a><a>no href</a>' +
        '<A HREF="HTTPS://EXAMPLE.COM/Up">z</A></body></html>',
      "https://example.com/index.html",
    );
    expect(outline.title).toBe("A & B");
    expect(outline.links).toEqual(["https://example.com/docs/intro", "https://example.com/top", "https://example.com/Up"]);
  });
});
