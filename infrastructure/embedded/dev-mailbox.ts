import type Database from "better-sqlite3";
import type { Logger } from "pino";
import type { IdGenerator } from "#application/ports/ids";
import type { DevMailbox, DevMailboxEntry, MailMessage, Mailer } from "#application/ports/mailer";

/**
 * The embedded mailer: keeps every message in the runtime database (and logs
 * that it did), so a developer can sign up on one machine with no SMTP server
 * (/dev/mailbox).
 */
export class DevMailboxMailer implements Mailer, DevMailbox {
  constructor(
    private readonly db: Database.Database,
    private readonly ids: IdGenerator,
    private readonly logger: Logger,
  ) {
    db.exec(`CREATE TABLE IF NOT EXISTS dev_mailbox (
      id TEXT PRIMARY KEY, recipient TEXT NOT NULL, subject TEXT NOT NULL, body TEXT NOT NULL, sent_at TEXT NOT NULL)`);
  }

  async send(message: MailMessage): Promise<void> {
    const entry: DevMailboxEntry = { id: this.ids.next(), to: message.to, subject: message.subject, text: message.text, sentAt: new Date().toISOString() };
    this.db
      .prepare(`INSERT INTO dev_mailbox (id, recipient, subject, body, sent_at) VALUES (?, ?, ?, ?, ?)`)
      .run(entry.id, entry.to, entry.subject, entry.text, entry.sentAt);
    // No recipient in the log: a log line cannot be purged with the account (decision 081); and no body, which holds
    // codes: whoever reads a log must not be able to sign in with it (/dev/mailbox shows the mail).
    this.logger.info({ mail: { id: entry.id, subject: entry.subject } }, "mail kept in the dev mailbox");
  }

  async forgetRecipient(address: string): Promise<number> {
    return this.db.prepare(`DELETE FROM dev_mailbox WHERE recipient = ? COLLATE NOCASE`).run(address).changes;
  }

  async list(limit = 50): Promise<DevMailboxEntry[]> {
    return this.db
      .prepare(`SELECT id, recipient AS "to", subject, body AS text, sent_at AS sentAt FROM dev_mailbox ORDER BY id DESC LIMIT ?`)
      .all(limit) as DevMailboxEntry[];
  }
}
