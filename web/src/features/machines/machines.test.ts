import { describe, expect, it } from 'vitest';
import { MACHINE_STATUSES, machineDailyOutput, money, translate, type MachineProduct } from '@custos/contract';
import en from '../../app/i18n/locales/en.json';
import {
  MACHINE_STATUS_COLOURS,
  buyProblem,
  defaultPayment,
  isMachineId,
  machineDetailPath,
  machineStatusKey,
  miningRecordsPath,
  priceIn,
  productOutput,
  summaryOf,
  withMiningIds,
} from './machines';

const f = money.formatMoney;

const product: MachineProduct = {
  id: '00000000-0000-4000-8000-000000000010',
  name: '10T',
  hashrate: '10',
  priceUsdt: '500.0000',
  priceTickets: '100.0000',
  dailyOutputPerT: '0.5',
  lifetimeDays: 360,
  status: 'active',
};

describe('machine output', () => {
  it('is the contract’s daily output and that times the lifetime', () => {
    const output = productOutput(product);
    expect(f(output.daily)).toBe('5.0000');
    expect(f(output.daily)).toBe(f(machineDailyOutput(product)));
    expect(f(output.lifetime)).toBe('1800.0000');
  });

  it('rounds the day’s output down before multiplying by the days, as the server pays', () => {
    // 12.3456 T × 0.12345678 = 1.524148… → 1.5241 a day; × 30 = 45.7230.
    const odd = productOutput({ hashrate: '12.3456', dailyOutputPerT: '0.12345678', lifetimeDays: 30 });
    expect([f(odd.daily), f(odd.lifetime)]).toEqual(['1.5241', '45.7230']);
    expect(f(productOutput({ hashrate: '0.0001', dailyOutputPerT: '0.5', lifetimeDays: 100 }).lifetime)).toBe('0.0000');
  });
});

describe('buying a machine', () => {
  const rich = { usdt: '1000.0000', tickets: '500.0000' };

  it('prices in the chosen asset', () => {
    expect(priceIn(product, 'USDT')).toBe('500.0000');
    expect(priceIn(product, 'TICKET')).toBe('100.0000');
  });

  it('refuses what the server refuses, in its words', () => {
    expect(buyProblem(product, 'USDT', rich, 'en')).toBeNull();
    expect(buyProblem(product, 'TICKET', { usdt: '0.0000', tickets: '100.0000' }, 'en')).toBeNull();
    expect(buyProblem(product, 'USDT', { usdt: '499.9999', tickets: '500.0000' }, 'en')).toBe('Insufficient USDT balance');
    expect(buyProblem(product, 'TICKET', { usdt: '1000.0000', tickets: '99.9999' }, 'en')).toBe(
      translate('en', 'ledger.insufficient_balance', { asset: 'TICKET' }),
    );
    expect(buyProblem({ ...product, status: 'retired' }, 'USDT', rich, 'zh-Hans')).toBe(translate('zh-Hans', 'machine.retired'));
  });

  it('starts with USDT unless only the tickets cover the price', () => {
    expect(defaultPayment(product, rich)).toBe('USDT');
    expect(defaultPayment(product, { usdt: '10.0000', tickets: '100.0000' })).toBe('TICKET');
    expect(defaultPayment(product, { usdt: '10.0000', tickets: '10.0000' })).toBe('USDT');
  });
});

describe('machine links', () => {
  it('open the spec’s pages', () => {
    expect(machineDetailPath(product.id)).toBe(`/pages/goods_detail/goods_detail?id=${product.id}`);
    expect(miningRecordsPath()).toBe('/pages/blance_record/blance_record2');
    expect(miningRecordsPath(product.id)).toBe(`/pages/blance_record/blance_record2?machineId=${product.id}`);
  });

  it('take only ids the server takes', () => {
    expect(isMachineId(product.id)).toBe(true);
    expect(isMachineId('')).toBe(false);
    expect(isMachineId(null)).toBe(false);
    expect(isMachineId('10T')).toBe(false);
  });
});

describe('machine lists', () => {
  it('name every status of the contract, with a colour', () => {
    for (const status of MACHINE_STATUSES) {
      expect(machineStatusKey(status)).toBe(`machines.status.${status}`);
      expect(MACHINE_STATUS_COLOURS[status]).toBeTruthy();
      expect(en.machines.status[status]).toBeTruthy();
    }
  });

  it('give each mining record an id of its machine and day', () => {
    const page = withMiningIds({
      items: [
        { machineId: 'a', name: '10T', hashrate: '10', day: '2026-11-21', amount: '5.0000' },
        { machineId: 'b', name: '10T', hashrate: '10', day: '2026-11-21', amount: '5.0000' },
        { machineId: 'a', name: '10T', hashrate: '10', day: '2026-11-20', amount: '5.0000' },
      ],
      total: 3,
      page: 1,
      pageSize: 20,
    });
    expect(new Set(page.items.map((item) => item.id)).size).toBe(3);
    expect(page.items[0]!.id).toBe('a|2026-11-21');
  });

  it('keep the summary apart from the page of machines', () => {
    const summary = summaryOf({
      totalHashrate: '60',
      running: 2,
      outputSoFar: '12.0000',
      lastDayOutput: '3.0000',
      ticketsAvailable: '5.0000',
      ticketsUsed: '100.0000',
      machines: { items: [], total: 0, page: 1, pageSize: 1 },
    });
    expect(summary).toEqual({
      totalHashrate: '60',
      running: 2,
      outputSoFar: '12.0000',
      lastDayOutput: '3.0000',
      ticketsAvailable: '5.0000',
      ticketsUsed: '100.0000',
    });
  });
});
