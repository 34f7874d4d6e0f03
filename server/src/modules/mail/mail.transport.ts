import nodemailer from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
}

export interface MailTransport {
  /** 'smtp' delivers; 'log' only writes the mail to the server log (no SMTP configured). */
  kind: 'smtp' | 'log';
  send(mail: OutgoingMail): Promise<void>;
  close(): void;
}

export function createSmtpTransport(url: string, from: string): MailTransport {
  const transporter = nodemailer.createTransport(url);
  return {
    kind: 'smtp',
    async send(mail) {
      await transporter.sendMail({ from, to: mail.to, subject: mail.subject, text: mail.text });
    },
    close() {
      transporter.close();
    },
  };
}

/**
 * Without SMTP (the embedded default) mail goes to the server log, code included, so a newcomer can
 * still register; the console outbox shows it masked. Reading this log takes access to the host,
 * not a console role (docs/decisions/016).
 */
export function createLogTransport(logger: FastifyBaseLogger): MailTransport {
  return {
    kind: 'log',
    async send(mail) {
      logger.warn({ mailTo: mail.to, subject: mail.subject, body: mail.text }, 'mail not sent (no SMTP_URL): logged instead');
    },
    close() {},
  };
}
