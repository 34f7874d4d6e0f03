import { describe, expect, it } from 'vitest';
import { HOSTING_LOG_EVENTS, HOSTING_ORDER_STATUSES, type HostingLogItem, type HostingOrder } from '@custos/contract';
import en from '../../app/i18n/locales/en.json';
import zhHans from '../../app/i18n/locales/zh-Hans.json';
import type { Page } from '../../lib/paging/pages';
import {
  ORDER_SEGMENTS,
  ORDER_STATUS_COLOURS,
  autoRenewControl,
  daysProgress,
  endedOrdersPager,
  logAmountSign,
  logEventKey,
  logRowId,
  orderStatusKey,
  withLogIds,
} from './orders';

const order = (id: string, overrides: Partial<HostingOrder> = {}): HostingOrder => ({
  id,
  planId: 'p30',
  planName: '30 days',
  amount: '1000.0000',
  periodDays: 30,
  dailyRate: '0.0012',
  earlyPenaltyRate: '0.05',
  startDate: '2026-11-21',
  endDate: '2026-12-21',
  createdAt: '2026-11-21T01:00:00.000Z',
  daysAccrued: 3,
  interestSoFar: '3.6000',
  status: 'active',
  autoRenew: false,
  renewedFromId: null,
  closedAt: null,
  returnedAmount: null,
  penalty: null,
  ...overrides,
});

describe('order status', () => {
  it('names every status of the contract as the spec does, with a colour', () => {
    for (const status of HOSTING_ORDER_STATUSES) {
      expect(orderStatusKey(status)).toBe(`hosting.status.${status}`);
      expect(ORDER_STATUS_COLOURS[status], status).toBeTruthy();
    }
    expect(en.hosting.status).toEqual({ active: 'In progress', expired: 'Expired', redeemed: 'Redeemed early' });
    expect(zhHans.hosting.status.active).not.toBe(en.hosting.status.active);
    for (const segment of ORDER_SEGMENTS) expect(en.hosting.segments[segment], segment).toBeTruthy();
  });

  it('counts days of interest out of the period', () => {
    expect(daysProgress(order('a'))).toEqual({ accrued: 3, period: 30 });
    expect(daysProgress(order('a', { daysAccrued: 31 }))).toEqual({ accrued: 30, period: 30 });
  });
});

describe('auto-renew switch', () => {
  const plans = [
    { id: 'p30', autoRenewAllowed: true, status: 'active' as const },
    { id: 'p7', autoRenewAllowed: false, status: 'active' as const },
  ];

  it('is on active orders only', () => {
    expect(autoRenewControl(order('a'), plans)).toEqual({ shown: true, checked: false, disabled: false });
    expect(autoRenewControl(order('a', { status: 'expired' }), plans).shown).toBe(false);
    expect(autoRenewControl(order('a', { status: 'redeemed', autoRenew: true }), plans).shown).toBe(false);
  });

  it('turns on only where the plan is open and allows it, and always turns off', () => {
    expect(autoRenewControl(order('a', { planId: 'p7' }), plans).disabled).toBe(true);
    expect(autoRenewControl(order('a', { planId: 'retired' }), plans).disabled).toBe(true);
    expect(autoRenewControl(order('a', { planId: 'p7', autoRenew: true }), plans)).toEqual({
      shown: true,
      checked: true,
      disabled: false,
    });
    expect(autoRenewControl(order('a', { planId: 'retired', autoRenew: true }), plans).disabled).toBe(false);
  });
});

describe('ended orders', () => {
  /** A server list of `orders`, newest first, paged as the API pages. */
  function server(orders: HostingOrder[]) {
    const calls: number[] = [];
    const fetchAll = (page: number, pageSize: number): Promise<Page<HostingOrder>> => {
      calls.push(page);
      return Promise.resolve({
        items: orders.slice((page - 1) * pageSize, page * pageSize),
        total: orders.length,
        page,
        pageSize,
      });
    };
    return { fetchAll, calls };
  }

  it('walks the whole list, keeps expired and redeemed orders and skips chunks without any', async () => {
    const orders = [
      order('1'),
      order('2'),
      order('3', { status: 'expired' }),
      order('4'),
      order('5'),
      order('6'),
      order('7', { status: 'redeemed' }),
      order('8'),
    ];
    const { fetchAll, calls } = server(orders);
    const pager = endedOrdersPager(fetchAll, 2);
    const first = await pager(1, 20);
    expect(first.items.map((item) => item.id)).toEqual(['3']);
    expect(first.page * first.pageSize < first.total).toBe(true);
    // Chunk 3 (orders 5 and 6) has nothing ended: the walk goes on to chunk 4.
    const second = await pager(2, 20);
    expect(second.items.map((item) => item.id)).toEqual(['7']);
    expect(second.page * second.pageSize < second.total).toBe(false);
    expect(calls).toEqual([1, 2, 3, 4]);
  });

  it('ends with an empty page when nothing ended is left, and starts again on page 1', async () => {
    const { fetchAll, calls } = server([order('1'), order('2', { status: 'expired' }), order('3'), order('4')]);
    const pager = endedOrdersPager(fetchAll, 2);
    expect((await pager(1, 20)).items.map((item) => item.id)).toEqual(['2']);
    expect((await pager(2, 20)).items).toEqual([]);
    expect((await pager(1, 20)).items.map((item) => item.id)).toEqual(['2']);
    expect(calls).toEqual([1, 2, 1]);
  });

  it('drops the answer of a walk started again meanwhile', async () => {
    let release: () => void = () => undefined;
    const orders = [order('1', { status: 'expired' }), order('2', { status: 'redeemed' })];
    const pager = endedOrdersPager(async (page, pageSize) => {
      if (page === 2) await new Promise<void>((resolve) => (release = resolve));
      return { items: orders.slice((page - 1) * pageSize, page * pageSize), total: orders.length, page, pageSize };
    }, 1);
    await pager(1, 20);
    const stale = pager(2, 20);
    const fresh = await pager(1, 20);
    release();
    expect((await stale).items).toEqual([]);
    expect(fresh.items.map((item) => item.id)).toEqual(['1']);
  });
});

describe('order log', () => {
  const item = (overrides: Partial<HostingLogItem>): HostingLogItem => ({
    event: 'accrued',
    amount: '1.2000',
    day: '2026-11-22',
    at: '2026-11-22T16:05:00.000Z',
    ...overrides,
  });

  it('has a text for every event of the contract, in every language', () => {
    for (const event of HOSTING_LOG_EVENTS) {
      expect(logEventKey(event)).toBe(`hosting.log.${event}`);
      expect(en.hosting.log[event], event).toBeTruthy();
      expect(zhHans.hosting.log[event], event).toBeTruthy();
    }
  });

  it('signs money coming back to cash', () => {
    expect(logAmountSign('accrued')).toBe('plus');
    expect(logAmountSign('expired')).toBe('plus');
    expect(logAmountSign('redeemed')).toBe('plus');
    expect(logAmountSign('created')).toBe('none');
    expect(logAmountSign('renewed')).toBe('none');
  });

  it('gives each line an id of what it says and when, so paging never shows one twice', () => {
    const first = item({});
    const nextDay = item({ day: '2026-11-23', at: '2026-11-23T16:05:00.000Z' });
    expect(logRowId(first)).not.toBe(logRowId(nextDay));
    expect(logRowId(first)).toBe(logRowId({ ...first }));
    const on = item({ event: 'auto_renew_on', amount: null, at: '2026-11-22T03:00:00.000Z' });
    const off = item({ event: 'auto_renew_off', amount: null, at: '2026-11-22T03:00:00.000Z' });
    expect(logRowId(on)).not.toBe(logRowId(off));
    const page = withLogIds({ items: [first, nextDay], total: 2, page: 1, pageSize: 20 });
    expect(page.items.map((row) => row.id)).toEqual([logRowId(first), logRowId(nextDay)]);
    expect(page.items[0]).toMatchObject(first);
  });
});
