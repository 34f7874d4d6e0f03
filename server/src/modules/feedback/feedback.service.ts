import type { z } from 'zod';
import type { AdminFeedbackItem, FeedbackItem, FeedbackStatus, pushFeedbackRequest } from '@custos/contract';
import { isUniqueViolation } from '../../db/unique-violation.js';
import type { Db } from '../../db/client.js';
import { AppError } from '../../http/app-error.js';
import type { RequestOrigin } from '../../http/origin.js';
import type { AuditRepository } from '../audit/audit.repository.js';
import type { MemberSessionContext } from '../auth/auth.service.js';
import type { MemberEventsService } from '../notifications/member-events.service.js';
import type { RateLimitRule, RateLimitService } from '../rate-limit/rate-limit.service.js';
import type { FeedbackRepository, FeedbackWithImages } from './feedback.repository.js';

/** Feedback a member may send per hour: plenty for a real problem, not a flood of the operators' queue. */
export const FEEDBACK_PER_MEMBER: RateLimitRule = { name: 'feedback:member', maxAttempts: 10, windowS: 3600 };

/**
 * Feedback (blance_record11): members send it with up to three of their own uploaded images; an
 * operator replies once (audited) and the member hears of it on their live channel.
 */
export class FeedbackService {
  constructor(
    private readonly db: Db,
    private readonly repository: FeedbackRepository,
    private readonly audit: AuditRepository,
    private readonly events: MemberEventsService,
    private readonly rateLimits: RateLimitService,
  ) {}

  async push(context: MemberSessionContext, input: z.output<typeof pushFeedbackRequest>): Promise<FeedbackItem> {
    const memberId = context.member.id;
    await this.rateLimits.consume(FEEDBACK_PER_MEMBER, memberId);
    try {
      const id = await this.db.transaction(async (tx) => {
        if ((await this.repository.countAttachable(memberId, input.imageIds, tx)) !== input.imageIds.length) {
          throw AppError.badRequest('feedback.image_missing');
        }
        const row = await this.repository.insert(
          tx,
          { memberId, title: input.title, content: input.content, orderNo: input.orderNo ?? null },
          input.imageIds,
        );
        return row.id;
      });
      const stored = await this.repository.findWithImages(id);
      return toItem(stored!);
    } catch (error) {
      // Two sends racing for one image: the unique index lets one keep it.
      if (isUniqueViolation(error)) throw AppError.badRequest('feedback.image_missing');
      throw error;
    }
  }

  async list(context: MemberSessionContext, page: number, pageSize: number) {
    const { items, total } = await this.repository.listForMember(context.member.id, pageSize, (page - 1) * pageSize);
    return { items: items.map(toItem), total, page, pageSize };
  }

  async queue(status: FeedbackStatus, page: number, pageSize: number) {
    const { items, total } = await this.repository.listByStatus(status, pageSize, (page - 1) * pageSize);
    return {
      items: items.map((item): AdminFeedbackItem => ({ ...toItem(item), memberId: item.memberId, email: item.email })),
      total,
      page,
      pageSize,
    };
  }

  async imageForOperator(feedbackId: string, uploadId: string) {
    const image = await this.repository.imageOf(feedbackId, uploadId);
    if (!image) throw AppError.notFound();
    return image;
  }

  async reply(operatorId: string, id: string, reply: string, origin: RequestOrigin): Promise<void> {
    await this.db.transaction(async (tx) => {
      const row = await this.repository.lock(tx, id);
      if (!row) throw AppError.notFound();
      if (row.status !== 'awaiting_reply') throw AppError.conflict('feedback.already_replied');
      await this.repository.reply(tx, id, reply, operatorId);
      await this.audit.record(
        {
          operatorId,
          action: 'feedback.replied',
          targetType: 'feedback',
          targetId: id,
          before: { status: row.status },
          after: { status: 'replied', reply, memberId: row.memberId },
          ip: origin.ip,
          requestId: origin.requestId,
        },
        tx,
      );
      await this.events.publish(tx, row.memberId, { kind: 'feedback.replied', feedbackId: id, title: row.title });
    });
  }
}

function toItem(row: FeedbackWithImages): FeedbackItem {
  return {
    id: row.id,
    title: row.title,
    content: row.content,
    orderNo: row.orderNo,
    imageIds: row.imageIds,
    status: row.status as FeedbackStatus,
    reply: row.reply,
    repliedAt: row.repliedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}
