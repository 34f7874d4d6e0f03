import { describe, expect, it } from 'vitest';
import { NETWORKS, WITHDRAWAL_STATUSES, type WithdrawalStatus } from '@custos/contract';
import en from '../../app/i18n/locales/en.json';
import zhHans from '../../app/i18n/locales/zh-Hans.json';
import {
  WITHDRAWAL_STATUS_COLOURS,
  explorerTxUrl,
  payoutTxUrl,
  showsReason,
  withdrawalStatusKey,
  withdrawalTimeline,
} from './records';

const times: { createdAt: string; decidedAt: string | null; completedAt: string | null } = {
  createdAt: '2026-11-20T01:00:00.000Z',
  decidedAt: '2026-11-20T02:00:00.000Z',
  completedAt: '2026-11-20T03:00:00.000Z',
};

describe('withdrawal status', () => {
  it('names every status of the contract as the spec does, with a colour', () => {
    for (const status of WITHDRAWAL_STATUSES) {
      expect(withdrawalStatusKey(status)).toBe(`withdraw.status.${status}`);
      expect(WITHDRAWAL_STATUS_COLOURS[status], status).toBeTruthy();
    }
    expect(Object.keys(en.withdraw.status).sort()).toEqual([...WITHDRAWAL_STATUSES].sort());
    expect(en.withdraw.status).toEqual({
      pending: 'Pending approval',
      processing: 'Processing',
      success: 'Completed',
      failed: 'Payout failed',
      refunded: 'Refunded',
    });
    expect(zhHans.withdraw.status.pending).not.toBe(en.withdraw.status.pending);
  });

  it('shows the reason only for rejections and failed payouts', () => {
    expect(showsReason({ status: 'refunded', reason: 'Name does not match' })).toBe(true);
    expect(showsReason({ status: 'failed', reason: 'out of gas' })).toBe(true);
    expect(showsReason({ status: 'refunded', reason: null })).toBe(false);
    expect(showsReason({ status: 'success', reason: 'x' })).toBe(false);
  });
});

describe('payout links', () => {
  it('open the network’s explorer when the payout is on chain', () => {
    expect(explorerTxUrl('BEP20', '0xabc')).toBe('https://bscscan.com/tx/0xabc');
    expect(payoutTxUrl({ network: 'TRC20', txHash: 'def' })).toBe('https://tronscan.org/#/transaction/def');
    expect(payoutTxUrl({ network: 'BEP20', txHash: null })).toBeNull();
    expect(payoutTxUrl({ network: null, txHash: 'bank-ref' })).toBeNull();
    for (const network of NETWORKS) expect(explorerTxUrl(network, 'x')).toMatch(/^https:\/\//);
  });
});

describe('withdrawal timeline', () => {
  const steps = (status: WithdrawalStatus, overrides: Partial<typeof times> = {}) =>
    withdrawalTimeline({ status, ...times, ...overrides }).map((step) => [step.key, step.time, step.state]);

  it('waits for review, then for the payout', () => {
    expect(steps('pending', { decidedAt: null, completedAt: null })).toEqual([
      ['submitted', times.createdAt, 'finish'],
      ['reviewing', null, 'process'],
      ['paid', null, 'wait'],
    ]);
    expect(steps('processing', { completedAt: null })).toEqual([
      ['submitted', times.createdAt, 'finish'],
      ['reviewed', times.decidedAt, 'finish'],
      ['paying', null, 'process'],
    ]);
  });

  it('ends paid, failed or refunded with its time', () => {
    expect(steps('success')).toEqual([
      ['submitted', times.createdAt, 'finish'],
      ['reviewed', times.decidedAt, 'finish'],
      ['paid', times.completedAt, 'finish'],
    ]);
    expect(steps('failed', { completedAt: null }).at(-1)).toEqual(['failed', null, 'error']);
    // A rejection refunds at the decision.
    expect(steps('refunded', { completedAt: null }).at(-1)).toEqual(['refunded', times.decidedAt, 'error']);
    expect(steps('refunded').at(-1)).toEqual(['refunded', times.completedAt, 'error']);
  });

  it('has a text for every step', () => {
    const keys = new Set(
      WITHDRAWAL_STATUSES.flatMap((status) => withdrawalTimeline({ status, ...times }).map((step) => step.key)),
    );
    for (const key of keys) expect(en.withdraw.timeline[key], key).toBeTruthy();
  });
});
