import { execFileSync } from "node:child_process";
import { readdirSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CROSS_SITE_MESSAGE } from "#app/utils/cross-site.server";
import { MAX_AUDIO_BYTES, uploadTooLargeMessage } from "#domain/library/upload-rules";
import { HttpSession } from "../support/http-session";
import { startSmtpInbox } from "../support/smtp-inbox";
import { decodeSignedCookie, signUpOverHttp } from "./support/accounts";
import { ROOT, startAppServer, type AppServer } from "./support/app-server";

/**
 * The built app as an operator runs it in production (DEPLOYMENT_ENV=production,
 * NODE_ENV=production): it refuses a configuration that would open the dev
 * mailbox, and no development-only route exists (docs/decisions/080).
 */
const SECRET = "prod-secret-prod-secret-prod-secret-0123";

/** Development-only routes live under /dev/ (app/routes/dev.*): every one of them, as a URL path. */
const developmentOnlyPaths = readdirSync(path.join(ROOT, "app", "routes"))
  .filter((file) => file.startsWith("dev."))
  .map((file) => `/${file.replace(/\.tsx?$/, "").split(".").join("/")}`);

describe("production start-up", () => {
  it("stops with a message naming SMTP_URL when no mail server is configured", async () => {
    const error = await startAppServer({ env: { DEPLOYMENT_ENV: "production", APP_SECRET: SECRET } }).then(
      async (app) => {
        await app.stop();
        return null;
      },
      (e: unknown) => e as Error,
    );
    expect(error?.message).toMatch(/exited during start-up/);
    expect(error?.message).toMatch(/SMTP_URL: required when DEPLOYMENT_ENV is production/);
  });
});

describe("the server bundle", () => {
  // Fast start (issue 42, decisions 253–254): each of the supervisor's processes loads the bundle at start, and these
  // were about two thirds of its files. Each is imported where it is used: a production adapter when its variable
  // selects it, the PDF writer on the first export; the chart is drawn only in the browser.
  const loadedAtStart = [
    "@temporalio/client",
    "@eventstore/db-client",
    "bullmq",
    "ioredis",
    "mongodb",
    "kafkajs",
    "@qdrant/js-client-rest",
    "@aws-sdk/client-s3",
    "razorpay",
    "pdf-lib",
    "recharts",
  ];

  it("loads no production adapter's client library, nor the chart library or the PDF writer", () => {
    // The packages in node_modules that importing the bundle loads (CommonJS ones: ES modules leave no trace in the cache).
    const script = `import { createRequire } from "node:module";
      await import(${JSON.stringify(path.join(ROOT, "build", "index.js"))});
      const files = Object.keys(createRequire(import.meta.url).cache);
      console.log(JSON.stringify([...new Set(files.map((f) => /node_modules\\/((?:@[^/]+\\/)?[^/]+)\\//.exec(f)?.[1]).filter(Boolean))]));`;
    const loaded: string[] = JSON.parse(execFileSync(process.execPath, ["--input-type=module", "-e", script], { cwd: ROOT, encoding: "utf8" }));
    expect(loaded).toContain("better-sqlite3");
    expect(loadedAtStart.filter((name) => loaded.includes(name))).toEqual([]);
  });
});

describe("the production app", () => {
  let app: AppServer;
  let inbox: Awaited<ReturnType<typeof startSmtpInbox>>;

  beforeAll(async () => {
    inbox = await startSmtpInbox();
    app = await startAppServer({ env: { DEPLOYMENT_ENV: "production", APP_SECRET: SECRET, SMTP_URL: inbox.url, COOKIE_SECURE: "false" } });
  });
  afterAll(async () => {
    await app?.stop();
    await inbox?.close();
  });

  it("has no development-only route, not even for a browser on the same machine", async () => {
    expect(developmentOnlyPaths).toContain("/dev/mailbox");
    for (const route of developmentOnlyPaths) {
      const response = await new HttpSession().request(`${app.url}${route}`);
      expect(response.status, route).toBe(404);
      expect(await response.text(), route).not.toMatch(/Dev mailbox|verification code/i);
    }
    const login = await (await new HttpSession().request(`${app.url}/login`)).text();
    expect(login).not.toContain("/dev/mailbox");
  });

  it("answers a form posted from another website with 403 and says why", async () => {
    // enctype="text/plain": the form parser cannot read it, which used to end in a 500.
    const plain = await new HttpSession().request(`${app.url}/login`, {
      method: "POST",
      headers: { Origin: "https://evil.example", "Content-Type": "text/plain" },
      body: "username=victim\r\npassword=x",
    });
    expect(plain.status).toBe(403);
    expect(await plain.text()).toBe(CROSS_SITE_MESSAGE);
    const urlencoded = await new HttpSession().request(`${app.url}/logout`, {
      method: "POST",
      headers: { "Sec-Fetch-Site": "cross-site", "Content-Type": "application/x-www-form-urlencoded" },
      body: "intent=logout",
    });
    expect(urlencoded.status).toBe(403);
    expect(await urlencoded.text()).toBe(CROSS_SITE_MESSAGE);
  });

  it("refuses an upload without Content-Length once it passes its type's limit, with a 413 naming that limit", async () => {
    const session = new HttpSession();
    const username = `big${Date.now().toString(36)}`;
    await signUpOverHttp(session, app.url, { username, email: `${username}@example.com`, password: "Reader#2024" }, (email) => inbox.codeFor(email));
    // JSON API writes echo the CSRF cookie's token in a header.
    const csrf = String(decodeSignedCookie(session.cookie(app.url, "__csrf")));
    const registered = await session.request(`${app.url}/api/documents`, {
      method: "POST",
      headers: { "X-CSRF-Token": csrf, "Content-Type": "application/json" },
      body: JSON.stringify({ document_name: "atlas.pdf", document_type: "application/pdf", document_size: 1024, page_count: 1 }),
    });
    expect(registered.status).toBe(201);
    const { url } = (await registered.json()) as { url: string };

    // A stream has no Content-Length (chunked): only what arrives can be counted.
    const chunk = new Uint8Array(1024 * 1024).fill(0x41);
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= 120 * chunk.byteLength) return controller.close();
        sent += chunk.byteLength;
        controller.enqueue(chunk);
      },
    });
    const response = await session.request(`${app.url}${url}`, {
      method: "PUT",
      headers: { "Content-Type": "application/pdf" },
      body,
      duplex: "half",
    } as RequestInit);
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ code: "FILE_TOO_LARGE", message: uploadTooLargeMessage("file") });
    // Refused near the 50 MB document limit, not after the 100 MB audio limit.
    expect(sent).toBeLessThan(MAX_AUDIO_BYTES);
  });
});

describe("the dev mailbox in development", () => {
  const lanAddress = Object.values(os.networkInterfaces())
    .flat()
    .find((a) => a && a.family === "IPv4" && !a.internal)?.address;

  it.skipIf(!lanAddress)("answers on loopback only, even when the app listens on every interface", async () => {
    const app = await startAppServer({ env: { HOST: "0.0.0.0" } });
    try {
      expect((await new HttpSession().request(`${app.url}/dev/mailbox`)).status).toBe(200);
      const remote = `http://${lanAddress}:${app.port}`;
      expect((await new HttpSession().request(`${remote}/dev/mailbox`)).status).toBe(404);
      expect(await (await new HttpSession().request(`${remote}/login`)).text()).not.toContain("/dev/mailbox");
    } finally {
      await app.stop();
    }
  });
});
