import type { AddressInfo } from "node:net";
import pino from "pino";
import { SMTPServer } from "smtp-server";
import { afterEach, describe, expect, it } from "vitest";
import { MailDeliveryError } from "#application/ports/mailer";
import { TOKENS } from "#application/tokens";
import { IdentityService } from "#application/identity/identity-service";
import { createTestRuntime } from "../../tests/support/test-runtime";
import { SmtpMailer } from "./smtp-mailer";

/** Against a real SMTP server (smtp-server) on 127.0.0.1. */
type Received = { from: string; to: string[]; raw: string };
const servers: SMTPServer[] = [];

async function startSmtp(options: { rejectRecipient?: boolean; user?: string; pass?: string } = {}) {
  const received: Received[] = [];
  const server = new SMTPServer({
    disabledCommands: options.user ? ["STARTTLS"] : ["STARTTLS", "AUTH"],
    allowInsecureAuth: true,
    authOptional: !options.user,
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === options.user && auth.password === options.pass) return callback(null, { user: auth.username });
      return callback(new Error("Invalid username or password"));
    },
    onRcptTo(address, _session, callback) {
      if (options.rejectRecipient) {
        const error = new Error(`Mailbox unavailable: <${address.address}>`) as Error & { responseCode: number };
        error.responseCode = 550;
        return callback(error);
      }
      callback();
    },
    onData(stream, session, callback) {
      let raw = "";
      stream.on("data", (chunk: Buffer) => (raw += chunk.toString()));
      stream.on("end", () => {
        received.push({ from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "", to: session.envelope.rcptTo.map((r) => r.address), raw });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  servers.push(server);
  const port = (server.server.address() as AddressInfo).port;
  return { port, received };
}

afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
});

const logger = pino({ level: "silent" });

describe("the SMTP mailer", () => {
  it("delivers the code mail with sender, recipient, subject and body", async () => {
    const smtp = await startSmtp({ user: "app", pass: "s3cret" });
    const mailer = new SmtpMailer(`smtp://app:s3cret@127.0.0.1:${smtp.port}`, "DocuChat <no-reply@docs.example.com>", logger);
    await mailer.send({ to: "alice@example.com", subject: "Your DocuChat verification code", text: "Your DocuChat verification code is 123456." });
    mailer.close();
    expect(smtp.received).toHaveLength(1);
    const [mail] = smtp.received;
    expect(mail.from).toBe("no-reply@docs.example.com");
    expect(mail.to).toEqual(["alice@example.com"]);
    expect(mail.raw).toContain("Subject: Your DocuChat verification code");
    expect(mail.raw).toContain("123456");
  });

  it("turns a refusal into a readable error", async () => {
    const smtp = await startSmtp({ rejectRecipient: true });
    const mailer = new SmtpMailer(`smtp://127.0.0.1:${smtp.port}`, "DocuChat <no-reply@example.com>", logger);
    const error = await mailer.send({ to: "gone@example.com", subject: "s", text: "t" }).catch((e: unknown) => e);
    mailer.close();
    expect(error).toBeInstanceOf(MailDeliveryError);
    expect((error as Error).message).toMatch(/^The mail server did not accept the message: .*550.*Mailbox unavailable/);
    // The address the server quoted is not repeated: the error is logged, and a log cannot be purged.
    expect((error as Error).message).not.toContain("gone@example.com");
    expect((error as Error).message).toContain("[address]");
  });

  it("reports wrong credentials and an unreachable server", async () => {
    const smtp = await startSmtp({ user: "app", pass: "s3cret" });
    const wrong = new SmtpMailer(`smtp://app:nope@127.0.0.1:${smtp.port}`, "x <x@example.com>", logger);
    await expect(wrong.send({ to: "a@example.com", subject: "s", text: "t" })).rejects.toThrow(/Invalid username or password/);
    wrong.close();
    const closedPort = smtp.port;
    await new Promise<void>((resolve) => servers.pop()!.close(() => resolve()));
    const down = new SmtpMailer(`smtp://127.0.0.1:${closedPort}`, "x <x@example.com>", logger, { timeoutMs: 2000 });
    await expect(down.send({ to: "a@example.com", subject: "s", text: "t" })).rejects.toThrow(/ECONNREFUSED/);
    down.close();
  });

  it("is what the runtime mails with when SMTP_URL is set, and the dev mailbox is off", async () => {
    const smtp = await startSmtp();
    const env = await createTestRuntime({ env: { SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, MAIL_FROM: "Docs <mail@docs.example.com>" } });
    try {
      expect(env.runtime.container.isBound(TOKENS.DevMailbox)).toBe(false);
      await env.runtime.container
        .get(IdentityService)
        .register({ username: "erin", email: "erin@example.com", password: "Secret12!" }, { requestId: "r", clientAddress: "10.0.0.1" });
      expect(smtp.received).toHaveLength(1);
      expect(smtp.received[0].to).toEqual(["erin@example.com"]);
      expect(smtp.received[0].from).toBe("mail@docs.example.com");
      expect(smtp.received[0].raw).toMatch(/verification code is \d{6}/);
    } finally {
      await env.cleanup();
    }
  });
});
