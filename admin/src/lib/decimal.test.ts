import { describe, expect, it } from 'vitest';
import { fractionToPercent, signOf, signedText, toMoneyString } from './decimal';

describe('fractionToPercent', () => {
  it('moves the decimal point two places without floating point', () => {
    expect(fractionToPercent('0.005')).toBe('0.5');
    expect(fractionToPercent('0.01')).toBe('1');
    expect(fractionToPercent('0')).toBe('0');
    expect(fractionToPercent('0.1')).toBe('10');
    expect(fractionToPercent('0.12345678')).toBe('12.345678');
    expect(fractionToPercent('0.00000001')).toBe('0.000001');
    expect(fractionToPercent('0.0035')).toBe('0.35');
    // 0.1 + 0.2 style float noise cannot appear.
    expect(fractionToPercent('0.07')).toBe('7');
  });

  it('refuses what is not a plain decimal', () => {
    expect(fractionToPercent('')).toBeNull();
    expect(fractionToPercent('-0.1')).toBeNull();
    expect(fractionToPercent('1e-3')).toBeNull();
    expect(fractionToPercent('abc')).toBeNull();
  });
});

describe('toMoneyString', () => {
  it('pads to four places', () => {
    expect(toMoneyString('10')).toBe('10.0000');
    expect(toMoneyString(' 10.5 ')).toBe('10.5000');
    expect(toMoneyString('0.0001')).toBe('0.0001');
    expect(toMoneyString('007.25')).toBe('7.2500');
  });

  it('refuses more than four places, negatives and junk instead of cutting', () => {
    expect(toMoneyString('1.00001')).toBeNull();
    expect(toMoneyString('-1')).toBeNull();
    expect(toMoneyString('1.')).toBeNull();
    expect(toMoneyString('')).toBeNull();
    expect(toMoneyString('1,5')).toBeNull();
  });
});

describe('signed amounts', () => {
  it('reads the sign exactly and prefixes credits', () => {
    expect(signOf('-0.0001')).toBe(-1);
    expect(signOf('0.0000')).toBe(0);
    expect(signOf('125.5000')).toBe(1);
    expect(signedText('125.5000')).toBe('+125.5000');
    expect(signedText('-3.0000')).toBe('-3.0000');
    expect(signedText('0.0000')).toBe('0.0000');
  });
});

describe('signOf on any precision', () => {
  it('reads sums that come with other scales', () => {
    expect(signOf('0')).toBe(0);
    expect(signOf('-0.00000')).toBe(0);
    expect(signOf('12.3456789')).toBe(1);
    expect(signOf('-0.00000001')).toBe(-1);
  });
});
