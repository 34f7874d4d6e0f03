import { describe, expect, it } from 'vitest';
import type { Translate } from '../i18n/translator';
import type { ContractCloseReason, ContractOrderState, MemberEvent } from '@custos/contract';
import { liveToastText } from './live-toasts';

const t = ((key: string, values?: Record<string, string>) => `${key} ${JSON.stringify(values ?? {})}`) as unknown as Translate;

function contractEvent(state: ContractOrderState, closeReason: ContractCloseReason | null): MemberEvent {
  return {
    id: '1',
    createdAt: '2026-11-27T01:00:00.000Z',
    data: {
      kind: 'contracts.order',
      orderId: 'o-1',
      orderNo: 'C100',
      state,
      closeReason,
      pnl: state === 'closed' ? '5.0000' : null,
    },
  };
}

describe('contract order toasts', () => {
  it('tell of closes the member did not make here: take-profit, stop-loss, stop-out, an operator', () => {
    for (const reason of ['take_profit', 'stop_loss', 'stop_out', 'operator'] as const) {
      expect(liveToastText(t, contractEvent('closed', reason))).toBe(`contracts.live.${reason} {"no":"C100"}`);
    }
  });

  it('stay quiet for what the member’s own sheet has confirmed: opening, their own close, new targets', () => {
    expect(liveToastText(t, contractEvent('open', null))).toBeNull();
    expect(liveToastText(t, contractEvent('closed', 'member'))).toBeNull();
  });
});
