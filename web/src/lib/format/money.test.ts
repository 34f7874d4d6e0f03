import { describe, expect, it } from 'vitest';
import { money } from '@custos/contract';
import { displayMoney, displayRate, displaySigned, groupDigits, percentOf, signOf, trimMoney } from './money';

describe('money display', () => {
  it('groups thousands without touching the decimals', () => {
    expect(groupDigits('1234567.5000')).toBe('1,234,567.5000');
    expect(groupDigits('-1000.0001')).toBe('-1,000.0001');
    expect(groupDigits('999.9999')).toBe('999.9999');
    expect(groupDigits('12345678901234567890.1234')).toBe('12,345,678,901,234,567,890.1234');
    expect(groupDigits('not a number')).toBe('not a number');
  });

  it('shows bigint money with four places, exactly', () => {
    expect(displayMoney(money.parseMoney('0.0001'))).toBe('0.0001');
    expect(displayMoney(money.parseMoney('90071992547409.9993'))).toBe('90,071,992,547,409.9993');
    expect(displayMoney('2500.0000')).toBe('2,500.0000');
  });

  it('writes the sign of balance changes', () => {
    expect(displaySigned('5.0000')).toBe('+5.0000');
    expect(displaySigned('-1200.0000')).toBe('-1,200.0000');
    expect(displaySigned('0.0000')).toBe('0.0000');
    expect([signOf('0.0001'), signOf('-0.0001'), signOf('0.0000')]).toEqual(['plus', 'minus', 'zero']);
  });

  it('trims trailing zeros for an amount field', () => {
    expect(trimMoney('123.4500')).toBe('123.45');
    expect(trimMoney('100.0000')).toBe('100');
    expect(trimMoney('0.0001')).toBe('0.0001');
    expect(trimMoney('100')).toBe('100');
  });

  it('turns rates into percentages by moving the point', () => {
    expect(percentOf('0.005')).toBe('0.5');
    expect(percentOf('0.1')).toBe('10');
    expect(percentOf('0')).toBe('0');
    expect(percentOf('0.00125')).toBe('0.125');
    expect(percentOf('0.12345678')).toBe('12.345678');
    expect(displayRate('0.50000000')).toBe('0.5');
    expect(displayRate('1250')).toBe('1,250');
  });
});
