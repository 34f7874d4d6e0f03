import type { Translate } from '../i18n/translator';
import type { MemberEvent } from '@custos/contract';
import { displayMoney } from '../format/money';

/** The toast a live event shows, in the member's language (null: nothing to say, e.g. a read receipt). */
export function liveToastText(t: Translate, event: MemberEvent): string | null {
  const data = event.data;
  switch (data.kind) {
    case 'deposit.credited':
      return t('live.depositCredited', { amount: displayMoney(data.amount), network: data.network });
    case 'withdrawal.approved':
      return t('live.withdrawalApproved', { amount: displayMoney(data.amount) });
    case 'withdrawal.paid':
      return t('live.withdrawalPaid', { amount: displayMoney(data.amount) });
    case 'withdrawal.refunded':
      return t('live.withdrawalRefunded', { amount: displayMoney(data.amount) });
    case 'feedback.replied':
      return t('live.feedbackReplied', { title: data.title });
    case 'airdrop.arrived':
      return t('live.airdropArrived', { name: data.name, amount: displayMoney(data.amount) });
    case 'chat.message':
      return data.preview ? t('live.chatMessage', { preview: data.preview }) : t('live.chatImage');
    case 'chat.read':
      return null;
    case 'otc.order':
      return t(`otc.live.${data.step}`, { no: data.orderNo });
    // A listing's figures change with its orders, which have their own toasts.
    case 'otc.listing':
      return null;
    case 'otc.chat':
      return data.preview ? t('otc.live.chat', { preview: data.preview }) : t('otc.live.chatImage');
    // Ticks on the order's chat: no toast.
    case 'otc.chat_read':
      return null;
    // What the member did on this screen (open, close, targets) the screen has said already; closes by
    // a take-profit, a stop-loss, stop-out or an operator are news.
    case 'contracts.order':
      return data.state === 'closed' && data.closeReason !== null && data.closeReason !== 'member'
        ? t(`contracts.live.${data.closeReason}`, { no: data.orderNo })
        : null;
  }
}
