import { describe, expect, it } from 'vitest';
import { fieldLabel, money, translate } from '@custos/contract';
import { amountProblem, balanceProblem, normaliseAmountInput, parseAmount } from './amount';

describe('amount fields', () => {
  it('accept positive amounts with up to four decimal places', () => {
    for (const value of ['1', '0.0001', '10.5', '1234.5678', '0.1']) expect(amountProblem(value, 'en'), value).toBeNull();
    expect(parseAmount('10.5')).toBe(money.parseMoney('10.5'));
    expect(parseAmount('10.12345')).toBeNull();
  });

  it('refuse five decimals with the server’s own message, in the app language', () => {
    expect(amountProblem('1.23456', 'en')).toBe('amount: please enter an amount with at most 4 decimal places');
    expect(amountProblem('1.23456', 'zh-Hans')).toBe(
      translate('zh-Hans', 'field_error', {
        field: fieldLabel('zh-Hans', 'amount'),
        reason: translate('zh-Hans', 'reason.amount_places'),
      }),
    );
  });

  it('ask for an amount when empty and refuse zero, signs and other text', () => {
    expect(amountProblem('', 'en')).toBe('please enter amount');
    expect(amountProblem('0', 'en')).toBe('amount: the amount must be greater than 0');
    expect(amountProblem('0.0000', 'en')).toBe('amount: the amount must be greater than 0');
    for (const value of ['-1', '1e3', '01', '.5', '1.', 'abc']) expect(amountProblem(value, 'en'), value).not.toBeNull();
  });

  it('take a decimal comma as a point', () => {
    expect(normaliseAmountInput(' 12,5 ')).toBe('12.5');
    expect(amountProblem(normaliseAmountInput('12,5'), 'en')).toBeNull();
  });

  it('refuse more than the balance with the server’s insufficient-balance message', () => {
    expect(balanceProblem(money.parseMoney('100.0001'), '100.0000', 'USDT', 'en')).toBe('Insufficient USDT balance');
    expect(balanceProblem(money.parseMoney('100'), '100.0000', 'USDT', 'en')).toBeNull();
  });
});
