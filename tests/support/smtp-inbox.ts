import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

/** The body after the headers, quoted-printable soft line breaks removed (they may split a code). */
const body = (raw: string) => raw.split(/\r?\n\r?\n/).slice(1).join("\n").replace(/=\r?\n/g, "");

export interface ReceivedMail {
  to: string[];
  raw: string;
}

/**
 * A real SMTP server on 127.0.0.1 that keeps what it receives: the mail server
 * of a production-mode app under test (production has no dev mailbox).
 */
export async function startSmtpInbox() {
  const received: ReceivedMail[] = [];
  const server = new SMTPServer({
    disabledCommands: ["STARTTLS", "AUTH"],
    authOptional: true,
    logger: false,
    onData(stream, session, callback) {
      let raw = "";
      stream.on("data", (chunk: Buffer) => (raw += chunk.toString()));
      stream.on("end", () => {
        received.push({ to: session.envelope.rcptTo.map((r) => r.address), raw });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    /** The newest 6-digit code mailed to `email` (waits a little for it to arrive). */
    async codeFor(email: string, timeoutMs = 10_000): Promise<string> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const mail = received.filter((m) => m.to.includes(email)).at(-1);
        const code = mail ? /\b(\d{6})\b/.exec(body(mail.raw))?.[1] : undefined;
        if (code) return code;
        if (Date.now() > deadline) throw new Error(`no code mailed to ${email}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
