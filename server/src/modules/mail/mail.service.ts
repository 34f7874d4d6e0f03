import type { FastifyBaseLogger } from 'fastify';
import type { AdminMailItem, Locale } from '@custos/contract';
import type { RequestOrigin } from '../../http/origin.js';
import type { AuditRepository } from '../audit/audit.repository.js';
import type { SettingsService } from '../settings/settings.service.js';
import type { MailRepository } from './mail.repository.js';
import type { MailTransport } from './mail.transport.js';
import { renderMail, type MailTemplate } from './templates/index.js';

/**
 * Template parameters that grant access (e-mail codes). They reach the recipient only: the outbox
 * row, which operators read, holds the mail with these masked (docs/decisions/016).
 */
const SECRET_PARAMS = ['code'] as const;
export const MASKED_SECRET = '••••••';
/**
 * A mail carrying a code that could not be delivered within this long is given up: the code has
 * expired (CODE_TTL_MS, 10 minutes) and the member asks for a new one. Its clear copy is erased.
 */
export const SECRET_MAIL_LIFETIME_S = 10 * 60;

/** A mail that fails this many attempts is marked failed and shown so in the console. */
export const MAIL_MAX_ATTEMPTS = 5;
/** Longer than any SMTP exchange; after it a crashed worker's mail can be picked up again. */
const DELIVERY_LEASE_S = 120;

/**
 * Every mail is first written to the outbox, then delivered in the background so a request never
 * waits on (or reveals timing of) the mail relay. The retry job picks up what did not go out.
 */
export class MailService {
  private readonly inFlight = new Set<Promise<void>>();

  constructor(
    private readonly repository: MailRepository,
    private readonly transport: MailTransport,
    private readonly settings: SettingsService,
    private readonly logger: FastifyBaseLogger,
    private readonly audit: AuditRepository,
  ) {}

  get transportKind(): MailTransport['kind'] {
    return this.transport.kind;
  }

  async send(to: string, template: MailTemplate, locale: Locale, params: Record<string, string> = {}): Promise<string> {
    const site = (await this.settings.get('site')).siteName;
    const clear = renderMail(template, locale, { site, ...params });
    const secret = SECRET_PARAMS.some((name) => params[name] !== undefined);
    const masked = secret
      ? renderMail(template, locale, {
          site,
          ...params,
          ...Object.fromEntries(SECRET_PARAMS.map((name) => [name, MASKED_SECRET])),
        })
      : clear;
    const id = await this.repository.insert({
      recipient: to,
      subject: masked.subject,
      body: masked.body,
      template,
      locale,
      pendingDelivery: secret ? { subject: clear.subject, text: clear.body } : null,
    });
    const delivery = this.deliver(id).finally(() => this.inFlight.delete(delivery));
    this.inFlight.add(delivery);
    return id;
  }

  /** One delivery attempt; safe to call twice (only a pending mail is claimed). */
  async deliver(id: string): Promise<void> {
    const mail = await this.repository.claim(id, DELIVERY_LEASE_S);
    if (!mail) return;
    try {
      const content = mail.pendingDelivery ?? { subject: mail.subject, text: mail.body };
      await this.transport.send({ to: mail.recipient, ...content });
      await this.repository.markDelivered(id, this.transport.kind === 'smtp' ? 'sent' : 'logged');
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.logger.error({ mailId: id, err: error }, 'mail delivery failed');
      await this.repository.markFailedAttempt(id, message, mail.attempts >= MAIL_MAX_ATTEMPTS);
    }
  }

  /** For the retry job: pending mails whose first attempt did not succeed. */
  async retryPending(): Promise<number> {
    await this.repository.giveUpSecretMailsOlderThan(SECRET_MAIL_LIFETIME_S);
    const ids = await this.repository.pendingOlderThan(30, 100);
    for (const id of ids) await this.deliver(id);
    return ids.length;
  }

  /**
   * The console's outbox, newest first, codes masked. Every read is audited with the mails it
   * showed, so who looked at whose mail stays on record.
   */
  async outbox(
    reader: { operatorId: string; origin: RequestOrigin },
    recipient: string | undefined,
    page: number,
    pageSize: number,
  ): Promise<{ items: AdminMailItem[]; total: number; page: number; pageSize: number }> {
    const { items, total } = await this.repository.listRecent(pageSize, (page - 1) * pageSize, recipient || undefined);
    await this.audit.record({
      operatorId: reader.operatorId,
      action: 'mail.outbox_read',
      targetType: 'mail_outbox',
      ...(recipient ? { targetId: recipient } : {}),
      after: { recipient: recipient || null, page, pageSize, total, mailIds: items.map((row) => row.id) },
      ip: reader.origin.ip,
      requestId: reader.origin.requestId,
    });
    return {
      items: items.map((row) => ({
        id: row.id,
        recipient: row.recipient,
        subject: row.subject,
        body: row.body,
        template: row.template,
        locale: row.locale,
        status: row.status as AdminMailItem['status'],
        attempts: row.attempts,
        lastError: row.lastError,
        createdAt: row.createdAt.toISOString(),
        sentAt: row.sentAt?.toISOString() ?? null,
      })),
      total,
      page,
      pageSize,
    };
  }

  /** Waits for background deliveries (tests, shutdown). */
  async flush(): Promise<void> {
    await Promise.allSettled([...this.inFlight]);
  }

  close(): void {
    this.transport.close();
  }
}
