import type { QueryClient, QueryKey } from '@tanstack/react-query';
import type { MemberEventKind } from '@custos/contract';
import { assetKeys } from '../api/keys';
import { feedbackKeys } from '../features/feedback/api/keys';
import { contractKeys } from '../features/contracts/api/keys';
import { chatKeys } from '../features/kefu/api/keys';
import { otcKeys } from '../features/otc/api/keys';
import { depositKeys } from '../features/recharge/api/keys';
import { withdrawalKeys } from '../features/withdraw/api/keys';

const WITHDRAWAL_CHANGED: readonly QueryKey[] = [assetKeys.all, withdrawalKeys.all];

/**
 * The query domains a live event changes (decision 022, 023): every screen that reads them, mounted
 * or cached, is fetched again. Home and the assets tab read the assets domain.
 */
export const LIVE_INVALIDATIONS: Record<MemberEventKind, readonly QueryKey[]> = {
  'deposit.credited': [assetKeys.all, depositKeys.all],
  'withdrawal.approved': WITHDRAWAL_CHANGED,
  'withdrawal.paid': WITHDRAWAL_CHANGED,
  'withdrawal.refunded': WITHDRAWAL_CHANGED,
  'feedback.replied': [feedbackKeys.all],
  // RAB arrived in the balance (the income log still loads with effects and is read again on opening).
  'airdrop.arrived': [assetKeys.all],
  // Customer service: the conversation, its ticks and the floating button's badge.
  'chat.message': [chatKeys.all],
  'chat.read': [chatKeys.all],
  // OTC (decision 032): an order or listing moved (escrow, balances, the market, the order's screen);
  // the other party wrote in an order's chat.
  'otc.order': [otcKeys.all, assetKeys.all],
  'otc.listing': [otcKeys.all, assetKeys.all],
  'otc.chat': [otcKeys.chats()],
  // The other party read the order's chat: the sender's ticks.
  'otc.chat_read': [otcKeys.chats()],
  // Contracts (decision 035): an order opened, closed (by me, a trigger, stop-out or an operator) or
  // changed: the account, open and closed orders, and the balances (margin held or released, P&L).
  'contracts.order': [contractKeys.all, assetKeys.all],
};

export async function invalidateForLiveEvent(queryClient: QueryClient, kind: MemberEventKind): Promise<void> {
  await Promise.all(LIVE_INVALIDATIONS[kind].map((queryKey) => queryClient.invalidateQueries({ queryKey })));
}
