/** Outgoing mail. Embedded: the dev mailbox (stored, logged, readable on /dev/mailbox); production: SMTP. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
  /** Mailers that keep copies (the dev mailbox) delete those sent to `address`; returns how many. A purge step. */
  forgetRecipient?(address: string): Promise<number>;
}

export interface DevMailboxEntry {
  id: string;
  to: string;
  subject: string;
  text: string;
  sentAt: string;
}

/** Only the dev mailbox adapter implements this. */
export interface DevMailbox {
  list(limit?: number): Promise<DevMailboxEntry[]>;
}

/** A mail the configured transport did not accept; the message says why, for the operator's log and tests. */
export class MailDeliveryError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "MailDeliveryError";
  }
}
