import type { z } from 'zod';
import { BusinessCode, type OtcChatHistory, type OtcChatMessage, type otcChatSendRequest } from '@custos/contract';
import { isUniqueViolation } from '../../db/unique-violation.js';
import { AppError } from '../../http/app-error.js';
import type { MemberSessionContext } from '../auth/auth.service.js';
import { OPEN_STATES, OTC_CHAT_PER_MINUTE, preview, type OtcDeps } from './otc.shared.js';
import { OtcUnit } from './otc.unit.js';
import type { OtcViews } from './otc.views.js';

/** The order chat between the two parties, and the appeal evidence they may see. */
export class OtcChatService extends OtcUnit {
  constructor(
    deps: OtcDeps,
    private readonly views: OtcViews,
  ) {
    super(deps);
  }

  async chatHistory(
    context: MemberSessionContext,
    orderId: string,
    before: string | undefined,
    limit: number,
  ): Promise<OtcChatHistory> {
    const { order, role } = await this.partyOrder(context, orderId);
    const conversationId = order.conversation_id!;
    const page = await this.chat.orderMessages(conversationId, before, limit);
    const marks = await this.chat.orderReadMarks(conversationId);
    const counterpart = role === 'buyer' ? order.seller_member_id : order.buyer_member_id;
    return {
      items: page.items.map((message) => this.views.toChatMessage(message, order, context.member.id)),
      nextBefore: page.nextBefore,
      counterpartyReadUpTo: marks.get(counterpart) ?? '0',
      open: OPEN_STATES.includes(order.state),
    };
  }

  async chatSend(context: MemberSessionContext, body: z.output<typeof otcChatSendRequest>): Promise<OtcChatMessage> {
    const { order, role } = await this.partyOrder(context, body.orderId);
    if (!OPEN_STATES.includes(order.state)) throw AppError.conflict('otc.chat_closed');
    try {
      await this.rateLimits.consume(OTC_CHAT_PER_MINUTE, context.member.id);
    } catch (error) {
      if (error instanceof AppError && error.code === BusinessCode.TOO_MANY_REQUESTS) {
        throw new AppError(error.code, 'chat.too_many', error.params, error.headers);
      }
      throw error;
    }
    const counterpart = role === 'buyer' ? order.seller_member_id : order.buyer_member_id;
    try {
      const message = await this.db.transaction(async (tx) => {
        const posted = await this.chat.postOrderMessage(
          tx,
          order.conversation_id!,
          { memberId: context.member.id },
          { text: body.text, imageId: body.imageId },
        );
        await this.memberEvents.publish(tx, counterpart, {
          kind: 'otc.chat',
          orderId: order.id,
          messageId: posted.id,
          preview: preview(body.text),
        });
        await this.operatorEvents.publishOtc(tx, { kind: 'otc.chat', orderId: order.id, messageId: posted.id });
        return posted;
      });
      return this.views.toChatMessage(message, order, context.member.id);
    } catch (error) {
      if (isUniqueViolation(error)) throw AppError.badRequest('chat.image_missing');
      throw error;
    }
  }

  async chatRead(context: MemberSessionContext, orderId: string, upTo: string): Promise<void> {
    const { order, role } = await this.partyOrder(context, orderId);
    const counterpart = role === 'buyer' ? order.seller_member_id : order.buyer_member_id;
    await this.db.transaction(async (tx) => {
      // Only a mark that moved is news to the other party (their ticks); a repeated read sends nothing.
      const readUpTo = await this.chat.markOrderRead(tx, order.conversation_id!, context.member.id, upTo);
      if (readUpTo !== null)
        await this.memberEvents.publish(tx, counterpart, { kind: 'otc.chat_read', orderId: order.id, readUpTo });
    });
  }

  async chatImage(context: MemberSessionContext, orderId: string, messageId: string) {
    const { order } = await this.partyOrder(context, orderId);
    return this.chat.orderImage(order.conversation_id!, messageId);
  }

  async evidenceImage(context: MemberSessionContext, orderId: string, uploadId: string) {
    const { order } = await this.partyOrder(context, orderId);
    const image = await this.arbitration.evidenceOfOrder(order.id, uploadId);
    if (!image) throw AppError.notFound();
    return image;
  }
}
