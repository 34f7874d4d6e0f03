import { describe, expect, it } from 'vitest';
import {
  MoneyError,
  add,
  applyBps,
  compare,
  divide,
  formatMoney,
  fromTokenUnits,
  multiply,
  parseMoney,
  roundMoney,
  subtract,
  sum,
  toTokenUnits,
} from './money.js';

const m = parseMoney;

describe('money', () => {
  it('parses and formats with exactly four places', () => {
    expect(formatMoney(m('1250.5'))).toBe('1250.5000');
    expect(formatMoney(m('0'))).toBe('0.0000');
    expect(formatMoney(m('-0.0001'))).toBe('-0.0001');
    expect(formatMoney(m('12345678901234567890.1234'))).toBe('12345678901234567890.1234');
  });

  it('refuses more than four places, garbage and out-of-range values', () => {
    for (const bad of ['1.23456', 'abc', '', '1e5', '1.', '.5', '0x10', ' 1 2 ', 'NaN', '1'.repeat(35)]) {
      expect(() => m(bad), bad).toThrow(MoneyError);
    }
  });

  it('adds without floating-point error', () => {
    expect(formatMoney(add(m('0.1'), m('0.2')))).toBe('0.3000');
    expect(formatMoney(sum(Array.from({ length: 10 }, () => m('0.1'))))).toBe('1.0000');
    expect(formatMoney(subtract(m('1'), m('0.9999')))).toBe('0.0001');
  });

  it('rounds payouts down and fees up', () => {
    // 1000 × 0.00333 = 3.33 exactly; 1234.5678 × 0.0035 = 4.3209873
    expect(formatMoney(multiply(m('1234.5678'), '0.0035', 'down'))).toBe('4.3209');
    expect(formatMoney(multiply(m('1234.5678'), '0.0035', 'up'))).toBe('4.3210');
    expect(formatMoney(multiply(m('1000'), '0.00333', 'down'))).toBe('3.3300');
    expect(formatMoney(applyBps(m('100.0001'), 50, 'up'))).toBe('0.5001');
    expect(formatMoney(applyBps(m('100.0001'), 50, 'down'))).toBe('0.5000');
    expect(formatMoney(divide(m('10'), '3', 'down'))).toBe('3.3333');
    expect(formatMoney(divide(m('10'), '3', 'up'))).toBe('3.3334');
    expect(formatMoney(roundMoney('2.00005', 'up'))).toBe('2.0001');
    expect(formatMoney(roundMoney('2.00005', 'down'))).toBe('2.0000');
  });

  it('rounds negative amounts away from or toward zero symmetrically', () => {
    expect(formatMoney(multiply(m('-1'), '0.33333', 'down'))).toBe('-0.3333');
    expect(formatMoney(multiply(m('-1'), '0.33333', 'up'))).toBe('-0.3334');
  });

  it('converts token base units (18 decimals) rounding credits down', () => {
    expect(formatMoney(fromTokenUnits(1_234_567_890_123_456_789n, 18))).toBe('1.2345');
    expect(formatMoney(fromTokenUnits(999_999_999_999_999n, 18))).toBe('0.0009');
    expect(formatMoney(fromTokenUnits(1_500_000n, 6))).toBe('1.5000');
    expect(toTokenUnits(m('1.2345'), 18)).toBe(1_234_500_000_000_000_000n);
  });

  it('compares', () => {
    expect(compare(m('1'), m('1.0000'))).toBe(0);
    expect(compare(m('1'), m('1.0001'))).toBe(-1);
    expect(compare(m('-1'), m('-2'))).toBe(1);
  });

  it('refuses division by zero', () => {
    expect(() => divide(m('1'), '0', 'down')).toThrow(MoneyError);
  });
});
