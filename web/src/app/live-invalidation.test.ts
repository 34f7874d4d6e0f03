import { describe, expect, it } from 'vitest';
import { QueryClient, type QueryKey } from '@tanstack/react-query';
import { MEMBER_EVENT_KINDS, type MemberEventKind } from '@custos/contract';
import { assetKeys, userKeys } from '../api/keys';
import { balanceLogKeys } from '../features/balance-log/api/keys';
import { contractKeys } from '../features/contracts/api/keys';
import { feedbackKeys } from '../features/feedback/api/keys';
import { chatKeys } from '../features/kefu/api/keys';
import { otcKeys } from '../features/otc/api/keys';
import { depositKeys } from '../features/recharge/api/keys';
import { teamKeys } from '../features/team/api/keys';
import { withdrawalKeys } from '../features/withdraw/api/keys';
import { invalidateForLiveEvent } from './live-invalidation';

const CACHED: Record<string, QueryKey> = {
  assets: assetKeys.summary(),
  user: userKeys.info(),
  deposits: depositKeys.list('TRC20'),
  allDeposits: depositKeys.list(undefined),
  withdrawals: withdrawalKeys.list(undefined),
  withdrawal: withdrawalKeys.detail('w-1'),
  feedback: feedbackKeys.list(),
  fuel: balanceLogKeys.fuelTicket('FUEL'),
  team: teamKeys.info(),
  chat: chatKeys.history(),
  chatUnread: chatKeys.unread(),
  otcMarket: otcKeys.market('sell', '', undefined),
  otcOrder: otcKeys.order('o-1'),
  otcOrders: otcKeys.myOrders('buyer', undefined),
  otcChat: otcKeys.chat('o-1'),
  contractProducts: contractKeys.products(),
  contractInfo: contractKeys.info(),
  contractPending: contractKeys.pending(),
  contractClosed: contractKeys.orders('closed'),
};

async function invalidatedBy(kind: MemberEventKind): Promise<string[]> {
  const client = new QueryClient();
  for (const key of Object.values(CACHED)) client.setQueryData(key, { cached: true });
  await invalidateForLiveEvent(client, kind);
  return Object.entries(CACHED)
    .filter(([, key]) => client.getQueryState(key)?.isInvalidated)
    .map(([name]) => name)
    .sort();
}

describe('live events invalidate the domains they change', () => {
  it('a credited deposit: the assets (home, assets tab) and every deposit list', async () => {
    expect(await invalidatedBy('deposit.credited')).toEqual(['allDeposits', 'assets', 'deposits']);
  });

  it('a withdrawal approved, paid or refunded: the assets and every withdrawal list and detail', async () => {
    for (const kind of ['withdrawal.approved', 'withdrawal.paid', 'withdrawal.refunded'] as const) {
      expect(await invalidatedBy(kind)).toEqual(['assets', 'withdrawal', 'withdrawals']);
    }
  });

  it('a feedback reply: the feedback list only', async () => {
    expect(await invalidatedBy('feedback.replied')).toEqual(['feedback']);
  });

  it('an airdrop arrived: the assets (its RAB)', async () => {
    expect(await invalidatedBy('airdrop.arrived')).toEqual(['assets']);
  });

  it('a chat message or read receipt: the conversation and the floating button’s badge', async () => {
    for (const kind of ['chat.message', 'chat.read'] as const) expect(await invalidatedBy(kind)).toEqual(['chat', 'chatUnread']);
  });

  it('an OTC order or listing moved: every OTC screen (order, lists, market, chats) and the assets', async () => {
    for (const kind of ['otc.order', 'otc.listing'] as const) {
      expect(await invalidatedBy(kind)).toEqual(['assets', 'otcChat', 'otcMarket', 'otcOrder', 'otcOrders']);
    }
  });

  it('the other party wrote in an order’s chat: the order chats only', async () => {
    expect(await invalidatedBy('otc.chat')).toEqual(['otcChat']);
  });

  it('a contract order opened, closed or changed: every contracts screen and the assets (margin held or released, P&L)', async () => {
    expect(await invalidatedBy('contracts.order')).toEqual([
      'assets',
      'contractClosed',
      'contractInfo',
      'contractPending',
      'contractProducts',
    ]);
  });

  it('every event kind the contract knows is mapped', async () => {
    for (const kind of MEMBER_EVENT_KINDS) expect((await invalidatedBy(kind)).length).toBeGreaterThan(0);
  });
});
