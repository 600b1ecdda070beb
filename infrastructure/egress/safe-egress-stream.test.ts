import { afterEach, describe, expect, it } from "vitest";
import { SafeEgress } from "./safe-egress";
import { egressFor, type LocalSite, startLocalSite, tableResolver } from "./testing/local-site";

/** fetchStream: the provider-call path keeps the egress rules and streams. */
let site: LocalSite | undefined;
afterEach(async () => site?.close());

describe("SafeEgress.fetchStream", () => {
  it("sends method, headers and body, and streams the answer as it arrives", async () => {
    let received = "";
    site = await startLocalSite((req, res) => {
      req.on("data", (c: Buffer) => (received += `${req.method} ${req.headers["x-api-key"]} ${c.toString()}`));
      req.on("end", () => {
        res.writeHead(200, { "content-type": "text/event-stream" });
        res.write("data: one\n\n");
        setTimeout(() => res.end("data: two\n\n"), 50);
      });
    }, "api.example.test");
    const response = await egressFor("api.example.test").fetchStream({ url: `${site.origin}/v1/chat`, method: "POST", headers: { "x-api-key": "k" }, body: '{"q":1}' });
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(first).toBe("data: one\n\n");
    let rest = "";
    for (let r = await reader.read(); !r.done; r = await reader.read()) rest += new TextDecoder().decode(r.value);
    expect(rest).toBe("data: two\n\n");
    expect(received).toBe('POST k {"q":1}');
  });

  it("returns error statuses as they are, for the SDK to read", async () => {
    site = await startLocalSite((_req, res) => {
      res.writeHead(429, { "retry-after": "3", "content-type": "application/json" });
      res.end('{"error":"slow down"}');
    }, "api.example.test");
    const response = await egressFor("api.example.test").fetchStream({ url: `${site.origin}/x`, method: "POST", body: "{}" });
    expect(response.status).toBe(429);
    expect(response.headers.get("retry-after")).toBe("3");
    expect(await response.text()).toBe('{"error":"slow down"}');
  });

  it("refuses private, loopback and metadata addresses unless the host is allow-listed", async () => {
    site = await startLocalSite((_req, res) => res.end("ok"), "llm.lan.test");
    const strict = new SafeEgress({ resolver: tableResolver({ "llm.lan.test": ["127.0.0.1"] }) });
    await expect(strict.fetchStream({ url: `http://127.0.0.1:${site.port}/v1/models` })).rejects.toMatchObject({ code: "ADDRESS_NOT_ALLOWED" });
    await expect(strict.fetchStream({ url: `${site.origin}/v1/models` })).rejects.toMatchObject({ code: "ADDRESS_NOT_ALLOWED" });
    await expect(strict.fetchStream({ url: "http://169.254.169.254/latest/meta-data/" })).rejects.toMatchObject({ code: "ADDRESS_NOT_ALLOWED" });
    await expect(strict.fetchStream({ url: "file:///etc/passwd" })).rejects.toMatchObject({ code: "SCHEME_NOT_ALLOWED" });
    const allowed = await egressFor("llm.lan.test").fetchStream({ url: `${site.origin}/v1/models` });
    expect(await allowed.text()).toBe("ok");
  });

  it("stops a body larger than the limit", async () => {
    site = await startLocalSite((_req, res) => {
      res.writeHead(200);
      res.end("x".repeat(10_000));
    }, "api.example.test");
    const response = await egressFor("api.example.test").fetchStream({ url: `${site.origin}/big`, maxBytes: 1000 });
    await expect(response.text()).rejects.toMatchObject({ code: "TOO_LARGE" });
  });
});
