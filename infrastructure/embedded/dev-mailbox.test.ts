import Database from "better-sqlite3";
import pino from "pino";
import { describe, expect, it } from "vitest";
import { DevMailboxMailer } from "./dev-mailbox";

describe("the dev mailbox", () => {
  it("keeps a mail for /dev/mailbox and logs that it did, without its code or its recipient", async () => {
    const lines: string[] = [];
    const logger = pino({ level: "info" }, { write: (line: string) => void lines.push(line) });
    let id = 0;
    const mailbox = new DevMailboxMailer(new Database(":memory:"), { next: () => `mail-${++id}` } as never, logger);
    await mailbox.send({ to: "reader@example.com", subject: "Your DocuChat verification code", text: "Your code is 482913. It expires in 10 minutes." });

    expect((await mailbox.list())[0]).toMatchObject({ to: "reader@example.com", text: expect.stringContaining("482913") });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain("Your DocuChat verification code");
    expect(lines[0]).not.toContain("482913");
    expect(lines[0]).not.toContain("reader@example.com");
  });
});
