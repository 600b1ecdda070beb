import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import https from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TLSSocket } from "node:tls";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EgressError } from "#application/ports/egress";
import { SafeEgress } from "./safe-egress";
import { tableResolver } from "./testing/local-site";

/** A throw-away self-signed certificate for docs.example.test, made with the openssl CLI at test time. */
function makeCertificate(): { key: string; cert: string } | null {
  const dir = mkdtempSync(join(tmpdir(), "egress-tls-"));
  try {
    execFileSync(
      "openssl",
      ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", join(dir, "key.pem"), "-out", join(dir, "cert.pem"), "-days", "2", "-subj", "/CN=docs.example.test", "-addext", "subjectAltName=DNS:docs.example.test"],
      { stdio: "ignore" },
    );
    return { key: readFileSync(join(dir, "key.pem"), "utf8"), cert: readFileSync(join(dir, "cert.pem"), "utf8") };
  } catch {
    return null;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const certificate = makeCertificate();

describe.skipIf(!certificate)("SafeEgress over https (pinned address, original name for SNI and certificate)", () => {
  let server: https.Server;
  let port = 0;
  const seen: { servername: string; host: string }[] = [];

  beforeAll(async () => {
    server = https.createServer({ key: certificate!.key, cert: certificate!.cert }, (req, res) => {
      seen.push({ servername: String((req.socket as TLSSocket).servername), host: req.headers.host ?? "" });
      res.writeHead(200, { "content-type": "text/plain" });
      res.end("secure hello");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );

  const resolver = tableResolver({ "docs.example.test": ["127.0.0.1"], "other.example.test": ["127.0.0.1"] });

  it("verifies the certificate against the name while connecting to the checked address", async () => {
    const egress = new SafeEgress({ allowPrivateHosts: ["docs.example.test"], resolver, extraCaCertificates: [certificate!.cert] });
    const response = await egress.fetch({ url: `https://docs.example.test:${port}/` });
    expect(response.body.toString()).toBe("secure hello");
    expect(seen.at(-1)).toEqual({ servername: "docs.example.test", host: `docs.example.test:${port}` });
  });

  it("refuses an untrusted certificate and a certificate for another name", async () => {
    const untrusted = new SafeEgress({ allowPrivateHosts: ["docs.example.test"], resolver });
    const error = await untrusted.fetch({ url: `https://docs.example.test:${port}/` }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EgressError);
    expect((error as EgressError).code).toBe("NETWORK_ERROR");
    expect((error as EgressError).message).toBe("A secure connection to the site could not be made.");

    const wrongName = new SafeEgress({ allowPrivateHosts: ["other.example.test"], resolver, extraCaCertificates: [certificate!.cert] });
    const mismatch = await wrongName.fetch({ url: `https://other.example.test:${port}/` }).catch((e: unknown) => e);
    expect((mismatch as EgressError).message).toBe("A secure connection to the site could not be made.");
  });
});
