import { describe, expect, it } from 'vitest';
import { HOSTING_ORDER_STATUSES, SETTLEMENT_RUN_STATUSES, type HostingPlan } from '@custos/contract';
import {
  EMPTY_PLAN_FORM,
  ORDER_STATUS_COLOURS,
  ORDER_STATUS_LABELS,
  PLAN_STATUS_LABELS,
  RUN_STATUS_COLOURS,
  RUN_STATUS_LABELS,
  canRerun,
  isIsoDate,
  percentText,
  planExample,
  planToForm,
  runDuration,
  sortRuns,
  toPlanInput,
  type PlanForm,
} from './hosting';

const form = (overrides: Partial<PlanForm> = {}): PlanForm => ({
  name: '30 days',
  periodDays: '30',
  dailyRate: '0.0012',
  minAmount: '100',
  maxAmount: '50000',
  earlyPenaltyRate: '0.05',
  autoRenewAllowed: true,
  ...overrides,
});

describe('plan form', () => {
  it('becomes the body the server takes, amounts with four places and the period a number', () => {
    expect(toPlanInput(form({ name: '  30 days ', minAmount: ' 100.5 ' }))).toEqual({
      input: {
        name: '30 days',
        periodDays: 30,
        dailyRate: '0.0012',
        minAmount: '100.5000',
        maxAmount: '50000.0000',
        earlyPenaltyRate: '0.05',
        autoRenewAllowed: true,
      },
    });
    expect('input' in toPlanInput(form({ earlyPenaltyRate: '0' }))).toBe(true);
  });

  it('fills in from a plan for editing', () => {
    const plan: HostingPlan = {
      id: 'p',
      name: '90 days',
      periodDays: 90,
      dailyRate: '0.0015',
      minAmount: '500.0000',
      maxAmount: '100000.0000',
      earlyPenaltyRate: '0.08',
      autoRenewAllowed: false,
      status: 'active',
    };
    expect(planToForm(plan)).toEqual({
      name: '90 days',
      periodDays: '90',
      dailyRate: '0.0015',
      minAmount: '500.0000',
      maxAmount: '100000.0000',
      earlyPenaltyRate: '0.08',
      autoRenewAllowed: false,
    });
    expect(toPlanInput(planToForm(plan))).toMatchObject({ input: { periodDays: 90, minAmount: '500.0000' } });
  });

  it('refuses what the contract refuses, field by field', () => {
    expect(toPlanInput({ ...EMPTY_PLAN_FORM })).toMatchObject({
      problems: {
        name: 'Enter the name members see',
        periodDays: 'Enter a whole number of days from 1 to 3650',
        minAmount: 'Enter a positive amount with at most 4 decimal places',
      },
    });
    expect(toPlanInput(form({ periodDays: '0' }))).toEqual({
      problems: { periodDays: 'Enter a whole number of days from 1 to 3650' },
    });
    expect(toPlanInput(form({ periodDays: '3651' }))).toHaveProperty('problems.periodDays');
    expect(toPlanInput(form({ periodDays: '7.5' }))).toHaveProperty('problems.periodDays');
    expect(toPlanInput(form({ dailyRate: '0.12%' }))).toHaveProperty('problems.dailyRate');
    expect(toPlanInput(form({ dailyRate: '0.123456789' }))).toHaveProperty('problems.dailyRate');
    expect(toPlanInput(form({ minAmount: '10.12345' }))).toHaveProperty('problems.minAmount');
    expect(toPlanInput(form({ maxAmount: '0' }))).toHaveProperty('problems.maxAmount');
    expect(toPlanInput(form({ name: 'x'.repeat(41) }))).toEqual({ problems: { name: 'At most 40 characters' } });
  });

  it('refuses a maximum below the minimum and a penalty of the whole principal or more', () => {
    expect(toPlanInput(form({ minAmount: '500', maxAmount: '499.9999' }))).toEqual({
      problems: { maxAmount: 'The maximum must not be less than the minimum' },
    });
    expect('input' in toPlanInput(form({ minAmount: '500', maxAmount: '500' }))).toBe(true);
    expect(toPlanInput(form({ earlyPenaltyRate: '1' }))).toHaveProperty('problems.earlyPenaltyRate');
    expect('input' in toPlanInput(form({ earlyPenaltyRate: '0.99999999' }))).toBe(true);
  });

  it('previews what a deposit earns and what early redemption keeps, as the server computes it', () => {
    expect(planExample({ dailyRate: '0.0012', periodDays: 30, earlyPenaltyRate: '0.05' })).toEqual({
      amount: '1000.0000',
      daily: '1.2000',
      total: '36.0000',
      penalty: '50.0000',
    });
    // 123.4567 × 0.0012 = 0.14814804 → 0.1481 a day (down); × 0.05 = 6.172835 → 6.1729 (up).
    expect(planExample({ dailyRate: '0.0012', periodDays: 30, earlyPenaltyRate: '0.05' }, '123.4567')).toEqual({
      amount: '123.4567',
      daily: '0.1481',
      total: '4.4430',
      penalty: '6.1729',
    });
  });

  it('shows rates as exact percentages', () => {
    expect(percentText('0.0012')).toBe('0.12 %');
    expect(percentText('0.05')).toBe('5 %');
    expect(percentText('0.00123456')).toBe('0.123456 %');
    expect(percentText('0')).toBe('0 %');
    expect(percentText('n/a')).toBe('n/a');
  });
});

describe('labels', () => {
  it('name every status of the contract', () => {
    for (const status of HOSTING_ORDER_STATUSES) {
      expect(ORDER_STATUS_LABELS[status]).toBeTruthy();
      expect(ORDER_STATUS_COLOURS[status]).toBeTruthy();
    }
    expect(ORDER_STATUS_LABELS).toEqual({ active: 'In progress', expired: 'Expired', redeemed: 'Redeemed early' });
    for (const status of SETTLEMENT_RUN_STATUSES) {
      expect(RUN_STATUS_LABELS[status]).toBeTruthy();
      expect(RUN_STATUS_COLOURS[status]).toBeTruthy();
    }
    expect(PLAN_STATUS_LABELS).toEqual({ active: 'Open', retired: 'Retired' });
  });
});

describe('settlement runs', () => {
  const run = (day: string, status: 'running' | 'completed' | 'failed') => ({ day, status });

  it('offer failed days again, newest first', () => {
    expect(canRerun(run('2026-11-20', 'failed'))).toBe(true);
    expect(canRerun(run('2026-11-20', 'completed'))).toBe(false);
    expect(canRerun(run('2026-11-20', 'running'))).toBe(false);
    expect(
      sortRuns([run('2026-11-19', 'completed'), run('2026-11-21', 'failed'), run('2026-11-20', 'completed')]).map((r) => r.day),
    ).toEqual(['2026-11-21', '2026-11-20', '2026-11-19']);
  });

  it('take a real calendar date only', () => {
    expect(isIsoDate('2026-11-20')).toBe(true);
    expect(isIsoDate('2028-02-29')).toBe(true);
    expect(isIsoDate('2026-02-29')).toBe(false);
    expect(isIsoDate('2026-13-01')).toBe(false);
    expect(isIsoDate('20261120')).toBe(false);
    expect(isIsoDate('')).toBe(false);
  });

  it('say how long a run took', () => {
    const startedAt = '2026-11-21T16:05:00.000Z';
    expect(runDuration({ startedAt, finishedAt: '2026-11-21T16:05:12.340Z' })).toBe('12.3 s');
    expect(runDuration({ startedAt, finishedAt: '2026-11-21T16:07:05.000Z' })).toBe('2 min 5 s');
    expect(runDuration({ startedAt, finishedAt: null })).toBe('—');
  });
});
