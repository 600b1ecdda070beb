import nodemailer, { type Transporter } from "nodemailer";
import type { Logger } from "pino";
import { MailDeliveryError, type MailMessage, type Mailer } from "#application/ports/mailer";

/**
 * Mail over SMTP (nodemailer), chosen when SMTP_URL is set
 * (`smtp://user:pass@host:587` upgrades with STARTTLS when offered;
 * `smtps://…:465` is TLS from the start). The server's refusal becomes a
 * MailDeliveryError with its reply, never a silent drop.
 */
export class SmtpMailer implements Mailer {
  private readonly transport: Transporter;

  constructor(
    smtpUrl: string,
    private readonly from: string,
    private readonly logger: Logger,
    options: { timeoutMs?: number } = {},
  ) {
    const timeout = options.timeoutMs ?? 15_000;
    this.transport = nodemailer.createTransport(smtpUrl, {
      connectionTimeout: timeout,
      greetingTimeout: timeout,
      socketTimeout: timeout,
    } as never);
  }

  async send(message: MailMessage): Promise<void> {
    try {
      const info = await this.transport.sendMail({
        from: this.from,
        to: message.to,
        subject: message.subject,
        text: message.text,
        html: message.html,
      });
      this.logger.info({ mail: { subject: message.subject, messageId: info.messageId } }, "mail sent");
    } catch (error) {
      const reason = describeSmtpError(error);
      this.logger.error({ mail: { subject: message.subject }, reason }, "mail not sent");
      throw new MailDeliveryError(`The mail server did not accept the message: ${reason}`, { cause: error });
    }
  }

  close(): void {
    this.transport.close();
  }
}

/** The server's reply, without the mail addresses servers quote in it: it ends up in logs, which a purge cannot clean. */
function describeSmtpError(error: unknown): string {
  return describeSmtpReply(error).replace(/[^\s<>"'@]+@[^\s<>"'@]+/g, "[address]");
}

function describeSmtpReply(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const smtp = error as Error & { responseCode?: number; response?: string; code?: string };
  if (smtp.response) return smtp.response;
  return smtp.code ? `${smtp.code}: ${smtp.message}` : smtp.message;
}
