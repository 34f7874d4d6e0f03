import { describe, expect, it } from 'vitest';
import { INCOME_STATES, INCOME_TYPES, type IncomeItem } from '@custos/contract';
import en from '../../app/i18n/locales/en.json';
import { INCOME_STATE_COLOURS, incomeStateKey, incomeTypeKey, typeOptions, withIncomeIds } from './income';

const item = (overrides: Partial<IncomeItem> = {}): IncomeItem => ({
  type: 'static',
  asset: 'USDT',
  amount: '1.2000',
  state: 'arrived',
  source: '30 days',
  day: '2026-11-21',
  ...overrides,
});

describe('income log', () => {
  it('names every type and state of the contract as the spec does', () => {
    for (const type of INCOME_TYPES) expect(en.income.types[type], type).toBeTruthy();
    expect(incomeTypeKey('mining')).toBe('income.types.mining');
    for (const state of INCOME_STATES) {
      expect(incomeStateKey(state)).toBe(`income.state.${state}`);
      expect(INCOME_STATE_COLOURS[state]).toBeTruthy();
    }
    expect(en.income.state).toEqual({ to_arrive: 'To arrive', arrived: 'Arrived' });
  });

  it('offers "All" and every listed type, the ones not open yet disabled', () => {
    expect(typeOptions(null)).toEqual([{ value: 'all', disabled: false }]);
    const options = typeOptions(
      INCOME_TYPES.map((type) => ({ type, available: ['static', 'mining', 'dividend'].includes(type) })),
    );
    expect(options.map((option) => option.value)).toEqual(['all', ...INCOME_TYPES]);
    expect(options.filter((option) => !option.disabled).map((option) => option.value)).toEqual([
      'all',
      'static',
      'mining',
      'dividend',
    ]);
    // The contract's order, whatever the server's.
    expect(
      typeOptions([
        { type: 'dividend', available: true },
        { type: 'static', available: true },
      ]).map((option) => option.value),
    ).toEqual(['all', 'static', 'dividend']);
  });

  it('names identical lines apart and the same line alike on every page', () => {
    const page = (items: IncomeItem[], number = 1) => withIncomeIds({ items, total: 10, page: number, pageSize: 2 });
    const twins = page([item(), item(), item({ type: 'mining', asset: 'RAB', source: '10T' })]).items.map((row) => row.id);
    expect(new Set(twins).size).toBe(3);
    expect(page([item({ day: '2026-11-20' })], 2).items[0]!.id).toBe(page([item({ day: '2026-11-20' })], 1).items[0]!.id);
    // A dividend claimed while paging is still the same line.
    expect(page([item({ state: 'to_arrive', type: 'dividend' })]).items[0]!.id).toBe(
      page([item({ state: 'arrived', type: 'dividend' })]).items[0]!.id,
    );
  });
});
