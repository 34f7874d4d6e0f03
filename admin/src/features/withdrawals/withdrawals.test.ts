import { describe, expect, it } from 'vitest';
import { OPERATOR_ROLES, WITHDRAWAL_STATUSES, type WithdrawSettings, type WithdrawalStatus } from '@custos/contract';
import {
  ACTION_TEXT,
  WITHDRAWAL_STATUS_COLOURS,
  WITHDRAWAL_STATUS_LABELS,
  actionExplanation,
  actionInputProblem,
  feePreview,
  isIsoDate,
  riskHint,
  settingsChanges,
  sortHolidays,
  toWithdrawSettings,
  withdrawalActions,
} from './withdrawals';

const row = (
  status: WithdrawalStatus,
  methodType: 'crypto' | 'bank' | 'wechat' | 'alipay' = 'crypto',
  network: 'BEP20' | 'TRC20' | null = 'BEP20',
  txHash: string | null = null,
) => ({ status, methodType, network, txHash, received: '98.9000' });

const settings: WithdrawSettings = {
  enabled: true,
  feeFixed: '1.0000',
  feeRate: '0.001',
  minimum: '10.0000',
  maximum: '5000.0000',
  dailyLimit: '10000.0000',
  openDays: [1, 2, 3, 4, 5],
  openTime: '09:00',
  closeTime: '21:00',
  methods: { crypto: true, bank: true, wechat: false, alipay: false },
  securityCoolingOffHours: 24,
};

describe('withdrawal queue', () => {
  it('names and colours every status of the contract', () => {
    for (const status of WITHDRAWAL_STATUSES) {
      expect(WITHDRAWAL_STATUS_LABELS[status], status).toBeTruthy();
      expect(WITHDRAWAL_STATUS_COLOURS[status], status).toBeTruthy();
    }
  });

  it('reads risk hints as warnings, unknown codes as words', () => {
    expect(riskHint('first_withdrawal').label).toBe('First withdrawal');
    expect(riskHint('address_shared')).toMatchObject({ label: 'Address used by another member', colour: 'red' });
    for (const code of ['first_withdrawal', 'new_account', 'address_shared', 'large_amount', 'recent_deposit']) {
      expect(riskHint(code).label, code).not.toContain('_');
    }
    expect(riskHint('many_devices')).toMatchObject({ label: 'Many devices', colour: 'orange' });
  });

  it('offers approve and reject on pending requests, to roles that review withdrawals', () => {
    expect(withdrawalActions('finance', row('pending'))).toEqual(['approve', 'reject']);
    expect(withdrawalActions('super_admin', row('pending', 'bank', null))).toEqual(['approve', 'reject']);
    for (const role of OPERATOR_ROLES) {
      if (role !== 'finance' && role !== 'super_admin') expect(withdrawalActions(role, row('pending')), role).toEqual([]);
    }
  });

  it('marks payouts made outside paid (or gives them up); a payout the server signed is left to the tracker', () => {
    expect(withdrawalActions('finance', row('processing', 'crypto', 'BEP20', '0xabc'))).toEqual([]);
    // BEP20 without a hot wallet is paid outside like TRC20, bank and wallets.
    expect(withdrawalActions('finance', row('processing'))).toEqual(['markPaid', 'refund']);
    expect(withdrawalActions('finance', row('processing', 'crypto', 'TRC20'))).toEqual(['markPaid', 'refund']);
    expect(withdrawalActions('finance', row('processing', 'bank', null))).toEqual(['markPaid', 'refund']);
    expect(withdrawalActions('support', row('processing', 'alipay', null))).toEqual([]);
  });

  it('retries or refunds failed payouts; nothing on finished ones', () => {
    expect(withdrawalActions('finance', row('failed', 'crypto', 'BEP20', '0xabc'))).toEqual(['retry', 'refund']);
    expect(withdrawalActions('finance', row('success', 'crypto', 'BEP20', '0xabc'))).toEqual([]);
    expect(withdrawalActions('finance', row('refunded'))).toEqual([]);
  });

  it('asks for a reason to reject or refund and a reference to mark paid', () => {
    expect(ACTION_TEXT.reject.input).toBe('reason');
    expect(ACTION_TEXT.refund.input).toBe('reason');
    expect(ACTION_TEXT.markPaid.input).toBe('reference');
    expect(ACTION_TEXT.approve.input).toBeNull();
    expect(actionInputProblem('reject', '  ')).toBe('Enter the reason shown to the member');
    expect(actionInputProblem('refund', 'x'.repeat(201))).toBe('At most 200 characters');
    expect(actionInputProblem('refund', 'Name does not match the card')).toBeNull();
    expect(actionInputProblem('markPaid', '')).toBe('Enter the payment reference');
    expect(actionInputProblem('markPaid', 'x'.repeat(121))).toBe('At most 120 characters');
    expect(actionInputProblem('approve', '')).toBeNull();
  });

  it('says how approving pays: by the server where a hot wallet is configured, outside otherwise', () => {
    expect(actionExplanation('approve', row('pending'), ['BEP20'])).toBe(
      'The server signs and broadcasts 98.9000 USDT on BEP20 from the hot wallet at once.',
    );
    expect(actionExplanation('approve', row('pending', 'crypto', 'TRC20'), ['BEP20'])).toContain('then mark the withdrawal paid');
    expect(actionExplanation('approve', row('pending'), [])).toContain('then mark the withdrawal paid');
    expect(actionExplanation('approve', row('pending', 'bank', null), ['BEP20'])).toContain('outside the platform');
    expect(actionExplanation('approve', row('pending'), null)).toMatch(/^If a BEP20 hot wallet is configured/);
    expect(actionExplanation('markPaid', row('processing', 'crypto', 'TRC20'), [])).toContain('transaction hash');
    expect(actionExplanation('markPaid', row('processing', 'bank', null), [])).toContain('payment reference');
  });
});

describe('withdrawal settings form', () => {
  it('turns typed amounts into the wire form, a zero fixed fee into "0"', () => {
    const result = toWithdrawSettings({
      ...settings,
      feeFixed: '0',
      minimum: ' 10 ',
      maximum: '5000.5',
      dailyLimit: '10000',
      openDays: [5, 1, 3, 1],
    });
    expect(result).toEqual({
      settings: { ...settings, feeFixed: '0', maximum: '5000.5000', openDays: [1, 3, 5] },
    });
    expect(toWithdrawSettings({ ...settings, feeFixed: '0.0000' })).toMatchObject({ settings: { feeFixed: '0' } });
    expect(toWithdrawSettings({ ...settings, feeFixed: '2.5' })).toMatchObject({ settings: { feeFixed: '2.5000' } });
  });

  it('refuses what the server would', () => {
    expect(toWithdrawSettings({ ...settings, minimum: '0' })).toEqual({
      problem: 'Minimum per withdrawal: enter a positive amount with at most 4 decimal places',
    });
    expect(toWithdrawSettings({ ...settings, maximum: '1.23456' })).toHaveProperty('problem');
    expect(toWithdrawSettings({ ...settings, feeRate: '1.5' })).toHaveProperty('problem');
    expect(toWithdrawSettings({ ...settings, feeRate: '0.000000001' })).toHaveProperty('problem');
    expect(toWithdrawSettings({ ...settings, feeRate: '0' })).toMatchObject({ settings: { feeRate: '0' } });
    expect(toWithdrawSettings({ ...settings, openTime: '9:00' })).toEqual({
      problem: 'Opening time: enter a time as HH:MM (00:00–23:59)',
    });
    expect(toWithdrawSettings({ ...settings, closeTime: '24:00' })).toHaveProperty('problem');
    expect(toWithdrawSettings({ ...settings, securityCoolingOffHours: 721 })).toEqual({
      problem: 'Pause after a security reset (hours): enter whole hours from 0 to 720',
    });
    expect(toWithdrawSettings({ ...settings, securityCoolingOffHours: 0 })).toMatchObject({
      settings: { securityCoolingOffHours: 0 },
    });
    expect(toWithdrawSettings({ ...settings, minimum: '6000' })).toEqual({
      problem: 'The minimum must not be more than the maximum',
    });
  });

  it('lists what changed for the confirmation', () => {
    const next = { ...settings, feeRate: '0.002', openDays: [1, 2, 3], methods: { ...settings.methods, alipay: true } };
    expect(settingsChanges(settings, next)).toEqual([
      { label: 'Fee rate', before: '0.001', after: '0.002' },
      { label: 'Open days', before: 'Mon, Tue, Wed, Thu, Fri', after: 'Mon, Tue, Wed' },
      { label: 'Alipay', before: 'off', after: 'on' },
    ]);
    expect(settingsChanges(settings, { ...settings })).toEqual([]);
  });

  it('previews the fee as the server charges it (the rate part rounded up)', () => {
    expect(feePreview(settings, '100')).toEqual({ fee: '1.1000', received: '98.9000' });
    expect(feePreview(settings, '123.4567')).toEqual({ fee: '1.1235', received: '122.3332' });
    expect(feePreview({ feeFixed: '0', feeRate: '0' }, '10')).toEqual({ fee: '0.0000', received: '10.0000' });
  });
});

describe('holidays', () => {
  it('take calendar dates only, listed in order', () => {
    expect(isIsoDate('2026-10-01')).toBe(true);
    expect(isIsoDate('2026-02-30')).toBe(false);
    expect(isIsoDate('2026-1-1')).toBe(false);
    expect(isIsoDate('')).toBe(false);
    expect(sortHolidays([{ date: '2026-10-02' }, { date: '2026-01-01' }, { date: '2026-10-01' }])).toEqual([
      { date: '2026-01-01' },
      { date: '2026-10-01' },
      { date: '2026-10-02' },
    ]);
  });
});
