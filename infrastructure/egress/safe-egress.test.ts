import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EgressError } from "#application/ports/egress";
import { EgressHttpError, fixedHostsResolver, SafeEgress, type ResolvedAddress } from "./safe-egress";
import { egressFor, startLocalSite, tableResolver, type LocalSite } from "./testing/local-site";

const HOST = "docs.example.test";

async function refusal(promise: Promise<unknown>): Promise<EgressError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof EgressError) return error;
    throw error;
  }
  throw new Error("expected the fetch to be refused");
}

describe("SafeEgress", () => {
  let site: LocalSite;
  let hostHeaders: string[] = [];

  beforeAll(async () => {
    site = await startLocalSite((req, res) => {
      hostHeaders.push(req.headers.host ?? "");
      const path = req.url ?? "/";
      if (path === "/") {
        res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
        res.end("<html><title>Hello</title></html>");
      } else if (path === "/redirect-same") {
        res.writeHead(302, { location: "/" });
        res.end();
      } else if (path === "/redirect-private") {
        res.writeHead(302, { location: `http://127.0.0.1:${site.port}/` });
        res.end();
      } else if (path === "/redirect-private-v6") {
        res.writeHead(301, { location: `http://[::1]:${site.port}/` });
        res.end();
      } else if (path === "/redirect-metadata") {
        res.writeHead(307, { location: "http://169.254.169.254/latest/meta-data/" });
        res.end();
      } else if (path === "/redirect-file") {
        res.writeHead(302, { location: "file:///etc/passwd" });
        res.end();
      } else if (path.startsWith("/loop")) {
        const n = Number(new URL(path, "http://x").searchParams.get("n") ?? "0");
        res.writeHead(302, { location: `/loop?n=${n + 1}` });
        res.end();
      } else if (path === "/big-declared") {
        res.writeHead(200, { "content-type": "application/octet-stream", "content-length": "5000" });
        res.end(Buffer.alloc(5000, 1));
      } else if (path === "/big-chunked") {
        res.writeHead(200, { "content-type": "application/octet-stream" }); // no content-length: chunked
        let sent = 0;
        const pump = () => {
          while (sent < 200_000) {
            sent += 1000;
            if (!res.write(Buffer.alloc(1000, 2))) return res.once("drain", pump);
          }
          res.end();
        };
        pump();
      } else if (path === "/gzip") {
        res.writeHead(200, { "content-type": "text/plain", "content-encoding": "gzip" });
        res.end(gzipSync(Buffer.from("compressed hello")));
      } else if (path === "/gzip-bomb") {
        res.writeHead(200, { "content-type": "text/plain", "content-encoding": "gzip" });
        res.end(gzipSync(Buffer.alloc(1_000_000, 0)));
      } else if (path === "/slow") {
        // never answers
      } else if (path === "/missing") {
        res.writeHead(404, { "content-type": "text/plain" });
        res.end("nope");
      } else {
        res.writeHead(500);
        res.end();
      }
    }, HOST);
  });
  afterAll(() => site.close());

  describe("reaching an allow-listed host", () => {
    it("fetches through the operator allow-list with the original Host header", async () => {
      hostHeaders = [];
      const response = await egressFor(HOST).fetch({ url: `${site.origin}/` });
      expect(response.status).toBe(200);
      expect(response.url).toBe(`${site.origin}/`);
      expect(response.contentType).toBe("text/html; charset=utf-8");
      expect(response.body.toString()).toContain("<title>Hello</title>");
      expect(hostHeaders).toEqual([`${HOST}:${site.port}`]);
    });

    it("connects to the resolved address without resolving again (pinned), once per hop", async () => {
      const calls: string[] = [];
      const resolve = tableResolver({ [HOST]: ["127.0.0.1"] });
      const egress = new SafeEgress({
        allowPrivateHosts: [HOST],
        resolver: (host): Promise<ResolvedAddress[]> => {
          calls.push(host);
          return resolve(host);
        },
      });
      // docs.example.test exists in no real DNS: success proves the socket used the checked answer.
      const response = await egress.fetch({ url: `${site.origin}/redirect-same` });
      expect(response.url).toBe(`${site.origin}/`);
      expect(calls).toEqual([HOST, HOST]);
    });

    it("decodes gzip bodies and counts the decoded bytes against the limit", async () => {
      const egress = egressFor(HOST);
      expect((await egress.fetch({ url: `${site.origin}/gzip` })).body.toString()).toBe("compressed hello");
      const error = await refusal(egress.fetch({ url: `${site.origin}/gzip-bomb`, maxBytes: 10_000 }));
      expect(error.code).toBe("TOO_LARGE");
    });

    it("matches the allow-list by exact host name only", async () => {
      for (const name of [`sub.${HOST}`, `${HOST}.evil.example`, `x${HOST}`, "example.test"]) {
        const egress = new SafeEgress({
          allowPrivateHosts: [HOST],
          resolver: tableResolver({ [name]: ["127.0.0.1"] }),
        });
        const error = await refusal(egress.fetch({ url: `http://${name}:${site.port}/` }));
        expect(error.code, name).toBe("ADDRESS_NOT_ALLOWED");
        expect(error.message).toBe("This address points to the server itself and cannot be fetched.");
      }
      // Case and a trailing dot do not change the name.
      const egress = new SafeEgress({ allowPrivateHosts: ["Docs.Example.Test"], resolver: tableResolver({ [HOST]: ["127.0.0.1"], [`${HOST}.`]: ["127.0.0.1"] }) });
      expect((await egress.fetch({ url: `http://DOCS.example.test:${site.port}/` })).status).toBe(200);
      expect((await egress.fetch({ url: `http://${HOST}.:${site.port}/` })).status).toBe(200);
    });
  });

  describe("a fixed host table (EGRESS_TEST_HOSTS)", () => {
    it("resolves the listed names without DNS and others through the fallback; the answers are still checked", async () => {
      const askedFallback: string[] = [];
      const resolver = fixedHostsResolver({ [HOST]: ["127.0.0.1"] }, async (host) => {
        askedFallback.push(host);
        return [{ address: "93.184.215.14", family: 4 }];
      });
      expect(await resolver("Docs.Example.Test.")).toEqual([{ address: "127.0.0.1", family: 4 }]);
      expect(await resolver("elsewhere.example")).toEqual([{ address: "93.184.215.14", family: 4 }]);
      expect(askedFallback).toEqual(["elsewhere.example"]);
      // A listed name pointing at loopback is refused unless the allow-list names it too.
      const error = await refusal(new SafeEgress({ resolver }).fetch({ url: `${site.origin}/` }));
      expect(error.code).toBe("ADDRESS_NOT_ALLOWED");
      expect((await new SafeEgress({ resolver, allowPrivateHosts: [HOST] }).fetch({ url: `${site.origin}/` })).status).toBe(200);
    });
  });

  describe("refusing addresses", () => {
    const egress = new SafeEgress({
      resolver: tableResolver({
        "evil.example.com": ["10.1.2.3"],
        "mixed.example.com": ["93.184.216.34", "127.0.0.1"],
        "mapped.example.com": ["::ffff:169.254.169.254"],
        "v6.example.com": ["2606:4700::1", "fd00::5"],
        "rebind.example.com": ["169.254.169.254"],
      }),
    });
    const PRIVATE = "This address points to a private network and cannot be fetched.";
    const LOOPBACK = "This address points to the server itself and cannot be fetched.";
    const LINK_LOCAL = "This address points to a local network link or a cloud metadata service and cannot be fetched.";
    const SPECIAL = "This address is a reserved or special-purpose network address and cannot be fetched.";
    const INTERNAL = "This address names an internal host and cannot be fetched.";

    it.each([
      ["http://127.0.0.1/", LOOPBACK],
      ["http://127.8.9.10:8080/admin", LOOPBACK],
      ["http://localhost/", LOOPBACK],
      ["http://10.0.0.1/", PRIVATE],
      ["http://172.16.0.1/", PRIVATE],
      ["http://172.31.255.254/", PRIVATE],
      ["http://192.168.0.10/", PRIVATE],
      ["http://100.64.0.1/", PRIVATE],
      ["http://169.254.169.254/latest/meta-data/", LINK_LOCAL],
      ["http://169.254.10.10/", LINK_LOCAL],
      ["http://0.0.0.0/", SPECIAL],
      ["http://224.0.0.251/", SPECIAL],
      ["http://255.255.255.255/", SPECIAL],
      ["http://198.18.0.1/", SPECIAL],
      ["http://[::1]/", LOOPBACK],
      ["http://[::]/", SPECIAL],
      ["http://[::ffff:127.0.0.1]/", LOOPBACK],
      ["http://[::ffff:7f00:1]/", LOOPBACK],
      ["http://[::ffff:a9fe:a9fe]/", LINK_LOCAL],
      ["http://[64:ff9b::7f00:1]/", LOOPBACK],
      ["http://[64:ff9b::10.0.0.1]/", PRIVATE],
      ["http://[2002:7f00:1::1]/", LOOPBACK],
      ["http://[::127.0.0.1]/", SPECIAL],
      ["http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/", SPECIAL],
      ["http://[fe80::1]/", LINK_LOCAL],
      ["http://[fd00::1]/", PRIVATE],
      ["http://2130706433/", LOOPBACK], // decimal 127.0.0.1
      ["http://0177.0.0.1/", LOOPBACK], // octal
      ["http://0x7f.1/", LOOPBACK], // hex + short
      ["http://0x7f000001/", LOOPBACK],
      ["http://127.1/", LOOPBACK],
      ["http://%31%32%37.0.0.1/", LOOPBACK], // percent-encoded
      ["http://0/", SPECIAL],
      ["http://127.0.0.1./", LOOPBACK],
      ["http://localhost./", LOOPBACK],
      ["http://0xa9fea9fe/", LINK_LOCAL], // hex 169.254.169.254
      ["http://metadata.google.internal/computeMetadata/v1/", INTERNAL],
      ["http://intranet/", INTERNAL],
      ["http://evil.example.com/", PRIVATE], // public name, private answer
      ["http://mixed.example.com/", LOOPBACK], // one bad answer is enough
      ["http://mapped.example.com/", LINK_LOCAL],
      ["http://v6.example.com/", PRIVATE],
      ["http://rebind.example.com/", LINK_LOCAL],
    ])("refuses %s", async (url, message) => {
      const error = await refusal(egress.fetch({ url }));
      expect(error.code).toBe("ADDRESS_NOT_ALLOWED");
      expect(error.message).toBe(message);
    });

    it.each(["file:///etc/passwd", "ftp://example.com/file.pdf", "gopher://example.com:70/1", "data:text/plain,hi", "javascript:alert(1)"])(
      "refuses the scheme of %s",
      async (url) => {
        const error = await refusal(egress.fetch({ url }));
        expect(error.code).toBe("SCHEME_NOT_ALLOWED");
        expect(error.message).toBe("Only http and https links can be fetched.");
      },
    );

    it("refuses URLs with credentials and invalid URLs", async () => {
      const withCredentials = await refusal(egress.fetch({ url: "http://user:secret@example.com/" }));
      expect(withCredentials.code).toBe("INVALID_URL");
      expect(withCredentials.message).toBe("Links that contain a user name or password cannot be fetched.");
      const invalid = await refusal(egress.fetch({ url: "not a url" }));
      expect(invalid.code).toBe("INVALID_URL");
      expect(invalid.message).toBe("This is not a valid web address.");
    });

    it("reports a name that does not resolve", async () => {
      const error = await refusal(egress.fetch({ url: "http://nowhere.example.org/" }));
      expect(error.code).toBe("NETWORK_ERROR");
      expect(error.message).toBe("The site could not be found. Check the address.");
    });
  });

  describe("redirects, limits and errors", () => {
    it("re-checks every redirect: allowed host to loopback, [::1], metadata, file:", async () => {
      const egress = egressFor(HOST);
      const before = site.requests.length;
      for (const path of ["/redirect-private", "/redirect-private-v6", "/redirect-metadata"]) {
        const error = await refusal(egress.fetch({ url: `${site.origin}${path}` }));
        expect(error.code, path).toBe("ADDRESS_NOT_ALLOWED");
      }
      const scheme = await refusal(egress.fetch({ url: `${site.origin}/redirect-file` }));
      expect(scheme.code).toBe("SCHEME_NOT_ALLOWED");
      // Only the four redirecting requests reached the server; no redirect target was fetched.
      expect(site.requests.slice(before)).toEqual(["/redirect-private", "/redirect-private-v6", "/redirect-metadata", "/redirect-file"]);
    });

    it("stops an endless redirect chain", async () => {
      const before = site.requests.length;
      const error = await refusal(egressFor(HOST).fetch({ url: `${site.origin}/loop` }));
      expect(error.code).toBe("TOO_MANY_REDIRECTS");
      expect(error.message).toBe("The link redirected too many times and was not followed.");
      expect(site.requests.length - before).toBe(6); // the first request + 5 redirects
      const strict = await refusal(egressFor(HOST, { maxRedirects: 10 }).fetch({ url: `${site.origin}/loop`, maxRedirects: 1 }));
      expect(strict.code).toBe("TOO_MANY_REDIRECTS");
    });

    it("refuses a body over the limit, with and without Content-Length", async () => {
      const egress = egressFor(HOST);
      const declared = await refusal(egress.fetch({ url: `${site.origin}/big-declared`, maxBytes: 1000 }));
      expect(declared.code).toBe("TOO_LARGE");
      expect(declared.message).toBe("The content at this address is larger than the 1000 bytes limit.");
      const chunked = await refusal(egress.fetch({ url: `${site.origin}/big-chunked`, maxBytes: 50_000 }));
      expect(chunked.code).toBe("TOO_LARGE");
      expect(chunked.message).toBe("The content at this address is larger than the 49 KB limit.");
      const small = egressFor(HOST, { defaultMaxBytes: 4096 });
      expect((await refusal(small.fetch({ url: `${site.origin}/big-declared` }))).code).toBe("TOO_LARGE");
      expect((await egress.fetch({ url: `${site.origin}/big-chunked`, maxBytes: 200_000 })).body.length).toBe(200_000);
    });

    it("times out", async () => {
      const started = Date.now();
      const error = await refusal(egressFor(HOST).fetch({ url: `${site.origin}/slow`, timeoutMs: 300 }));
      expect(error.code).toBe("TIMEOUT");
      expect(error.message).toBe("The site took too long to answer.");
      expect(Date.now() - started).toBeLessThan(3000);
    });

    it("times out a resolver that never answers", async () => {
      const egress = new SafeEgress({ resolver: () => new Promise<ResolvedAddress[]>(() => {}), defaultTimeoutMs: 200 });
      expect((await refusal(egress.fetch({ url: "http://example.com/" }))).code).toBe("TIMEOUT");
    });

    it("reports non-2xx answers with their status", async () => {
      const error = await refusal(egressFor(HOST).fetch({ url: `${site.origin}/missing` }));
      expect(error.code).toBe("HTTP_ERROR");
      expect(error).toBeInstanceOf(EgressHttpError);
      expect((error as EgressHttpError).status).toBe(404);
      expect(error.message).toBe("Nothing was found at this address (HTTP 404).");
      const server = await refusal(egressFor(HOST).fetch({ url: `${site.origin}/boom` }));
      expect((server as EgressHttpError).status).toBe(500);
      expect(server.message).toBe("The site had a problem answering (HTTP 500).");
    });

    it("reports a refused connection", async () => {
      const closed = await startLocalSite(() => {}, HOST);
      const port = closed.port;
      await closed.close();
      const error = await refusal(egressFor(HOST).fetch({ url: `http://${HOST}:${port}/` }));
      expect(error.code).toBe("NETWORK_ERROR");
      expect(error.message).toBe("The site refused the connection.");
    });
  });
});
