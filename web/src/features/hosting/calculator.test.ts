import { describe, expect, it } from 'vitest';
import { money, quoteHosting, translate, type HostingPlan } from '@custos/contract';
import { calculateDeposit, depositAll, depositProblem } from './calculator';

const m = money.parseMoney;
const f = money.formatMoney;

const plan: HostingPlan = {
  id: '00000000-0000-4000-8000-000000000030',
  name: '30 days',
  periodDays: 30,
  dailyRate: '0.0012',
  minAmount: '100.0000',
  maxAmount: '50000.0000',
  earlyPenaltyRate: '0.05',
  autoRenewAllowed: true,
  status: 'active',
};
const config = { cashBalance: '2000.0000', timeZone: 'Asia/Shanghai' };
const now = new Date('2026-11-21T16:30:00.000Z');

function figures(amount: string | null, overrides: { cashBalance?: string } = {}) {
  const result = calculateDeposit(amount === null ? null : m(amount), plan, { ...config, ...overrides }, 'en', now);
  return {
    startDate: result.startDate,
    endDate: result.endDate,
    daily: result.quote ? f(result.quote.dailyInterest) : null,
    total: result.quote ? f(result.quote.totalInterest) : null,
    problem: result.problem,
  };
}

describe('deposit calculator', () => {
  it('shows the daily interest, the total over the period and the dates', () => {
    expect(figures('1000')).toEqual({
      startDate: '2026-11-22',
      endDate: '2026-12-22',
      daily: '1.2000',
      total: '36.0000',
      problem: null,
    });
  });

  it('rounds the daily interest down and multiplies it by the days, as the server pays', () => {
    // 123.4567 × 0.0012 = 0.14814804 → 0.1481 a day; × 30 = 4.4430 (not 4.4444).
    expect(figures('123.4567')).toMatchObject({ daily: '0.1481', total: '4.4430' });
    const quoted = quoteHosting(m('123.4567'), plan);
    expect(f(quoted.dailyInterest)).toBe('0.1481');
    expect(f(quoted.totalInterest)).toBe('4.4430');
    // Eight-place rates stay exact: 100 × 0.00123456 = 0.123456 → 0.1234.
    expect(f(calculateDeposit(m('100'), { ...plan, dailyRate: '0.00123456' }, config, 'en', now).quote!.dailyInterest)).toBe(
      '0.1234',
    );
  });

  it('shows the dates before an amount is typed', () => {
    expect(figures(null)).toEqual({ startDate: '2026-11-22', endDate: '2026-12-22', daily: null, total: null, problem: null });
  });

  it('refuses amounts outside the plan’s range and beyond the cash balance, in the server’s words', () => {
    expect(figures('99.9999').problem).toBe('This plan takes from 100.0000 to 50000.0000 USDT');
    expect(figures('99.9999').daily).toBeNull();
    expect(figures('50000.0001', { cashBalance: '99999.0000' }).problem).toBe('This plan takes from 100.0000 to 50000.0000 USDT');
    expect(figures('2000.0001').problem).toBe('Insufficient USDT balance');
    expect(figures('2000').problem).toBeNull();
    expect(depositProblem(m('1'), plan, '5000.0000', 'zh-Hans')).toBe(
      translate('zh-Hans', 'hosting.amount_range', { min: '100.0000', max: '50000.0000' }),
    );
  });

  it('fills "All" with the cash balance up to the plan’s maximum', () => {
    expect(f(depositAll(plan, '2000.1234'))).toBe('2000.1234');
    expect(f(depositAll(plan, '80000.0000'))).toBe('50000.0000');
    expect(f(depositAll(plan, '-1.0000'))).toBe('0.0000');
  });
});
