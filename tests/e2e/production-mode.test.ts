import { readdirSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HttpSession } from "../support/http-session";
import { startSmtpInbox } from "../support/smtp-inbox";
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
