import { afterEach, describe, expect, it } from "vitest";
import { egressFor, type LocalSite, startLocalSite } from "#infrastructure/egress/testing/local-site";
import { EgressVideoSource } from "#infrastructure/video/video-source";
import { LinkLookup } from "./link-lookup";

/**
 * A link upload is looked up when it is submitted (spec 000 §5 'Lookup
 * messages'), through the real egress against a local site standing in for
 * the document host and the video site.
 */
const HOST = "files.example.test";
let site: LocalSite | undefined;
afterEach(async () => {
  await site?.close();
  site = undefined;
});

const PLAYER = { videoDetails: { title: "Rivers" }, captions: { playerCaptionsTracklistRenderer: { captionTracks: [{ baseUrl: "/api/timedtext?v=dQw4w9WgXcQ", languageCode: "en" }] } } };

async function lookupAgainst(routes: Record<string, { status: number; type?: string; body?: string }>) {
  site = await startLocalSite((req, res) => {
    const path = (req.url ?? "").split("?")[0];
    const route = routes[path] ?? { status: 404, body: "not here" };
    res.writeHead(route.status, { "content-type": route.type ?? "text/plain" });
    res.end(route.body ?? "");
  }, HOST);
  const egress = egressFor(HOST);
  return new LinkLookup(egress, new EgressVideoSource(egress, { baseUrl: site.origin }));
}

describe("looking up a link when it is submitted", () => {
  it("lets a document link through when the document is there, even when the site ignores the byte range", async () => {
    const lookup = await lookupAgainst({ "/report.pdf": { status: 200, type: "application/pdf", body: "%PDF-1.7 a whole document sent anyway" } });
    await expect(lookup.check({ source: "document_url", url: `${site!.origin}/report.pdf` })).resolves.toBeUndefined();
  });

  it("answers 'Document Not Found' for a document link the site does not have", async () => {
    const lookup = await lookupAgainst({});
    await expect(lookup.check({ source: "document_url", url: `${site!.origin}/missing.pdf` })).rejects.toMatchObject({ code: "LINK_NOT_FOUND", message: "Document Not Found" });
  });

  it("answers 'Invalid URL' for a link whose site does not answer as a document host should", async () => {
    const lookup = await lookupAgainst({ "/broken.pdf": { status: 500 } });
    await expect(lookup.check({ source: "document_url", url: `${site!.origin}/broken.pdf` })).rejects.toMatchObject({ message: "Invalid URL" });
  });

  it("says why when the link points at an address the server may not fetch", async () => {
    const lookup = await lookupAgainst({});
    await expect(lookup.check({ source: "document_url", url: "http://10.0.0.8/secret.pdf" })).rejects.toMatchObject({ code: "LINK_NOT_FOUND", message: expect.stringMatching(/private/i) });
  });

  it("looks a website's start page up", async () => {
    const lookup = await lookupAgainst({ "/": { status: 200, type: "text/html", body: "<title>Home</title>" } });
    await expect(lookup.check({ source: "website_url", url: `${site!.origin}/`, maxDepth: 2 })).resolves.toBeUndefined();
    await expect(lookup.check({ source: "website_url", url: `${site!.origin}/gone`, maxDepth: 2 })).rejects.toMatchObject({ message: "Document Not Found" });
  });

  it("lets a video with captions through, and answers 'Video Not Found' for one that does not exist", async () => {
    const lookup = await lookupAgainst({
      "/watch": { status: 200, type: "text/html", body: `<html><head><meta property="og:title" content="Rivers"></head><script>var ytInitialPlayerResponse = ${JSON.stringify(PLAYER)};</script></html>` },
      "/api/timedtext": { status: 200, type: "text/xml", body: '<transcript><text start="0" dur="2">The Danube flows east.</text></transcript>' },
    });
    await expect(lookup.check({ source: "youtube_link", url: "https://youtu.be/dQw4w9WgXcQ" })).resolves.toBeUndefined();
    await site!.close();
    site = undefined;
    const missing = await lookupAgainst({});
    await expect(missing.check({ source: "youtube_link", url: "https://youtu.be/dQw4w9WgXcQ" })).rejects.toMatchObject({ message: "Video Not Found" });
  });

  it("refuses a malformed link with the form's own message before looking anything up", async () => {
    const lookup = await lookupAgainst({});
    await expect(lookup.check({ source: "youtube_link", url: "https://youtube.com/watch?v=short" })).rejects.toMatchObject({ code: "VALIDATION", message: "Invalid YouTube URL" });
    expect(site!.requests).toEqual([]);
  });
});
