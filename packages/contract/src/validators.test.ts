import { describe, expect, it } from 'vitest';
import {
  amountSchema,
  emailSchema,
  isAmount,
  isEmail,
  isIdCard,
  isMobile,
  isVerificationCode,
  passwordSchema,
} from './validators.js';

describe('validators', () => {
  it('e-mail', () => {
    expect(isEmail('member@example.com')).toBe(true);
    expect(isEmail('a.b+c@sub.example.co')).toBe(true);
    for (const bad of ['', 'plain', 'a@b', '@example.com', 'a@.com', 'a b@example.com']) expect(isEmail(bad), bad).toBe(false);
    expect(emailSchema.parse('  Member@Example.COM ')).toBe('member@example.com');
  });

  it('mobile', () => {
    expect(isMobile('+8613800138000')).toBe(true);
    expect(isMobile('13800138000')).toBe(true);
    for (const bad of ['123', '+0123456789', '138-0013-8000', '1'.repeat(16)]) expect(isMobile(bad), bad).toBe(false);
  });

  it('id card with check character and real birth date', () => {
    expect(isIdCard('11010519491231002X')).toBe(true);
    expect(isIdCard('11010519491231002x')).toBe(true);
    expect(isIdCard('110105194912310021')).toBe(false); // wrong check character
    expect(isIdCard('110105194902300028')).toBe(false); // 30 February
    expect(isIdCard('1101051949123100')).toBe(false);
  });

  it('amount with up to two decimals, positive', () => {
    for (const good of ['1', '0.01', '10.5', '999999.99']) expect(isAmount(good), good).toBe(true);
    for (const bad of ['0', '0.00', '-1', '1.234', '01', '1.', 'abc', '']) expect(isAmount(bad), bad).toBe(false);
    expect(amountSchema.safeParse('0').error?.issues[0]?.message).toBe('amount_positive');
    expect(amountSchema.safeParse('1.234').error?.issues[0]?.message).toBe('amount');
    expect(amountSchema.safeParse('').error?.issues[0]?.message).toBe('required');
  });

  it('6-digit code', () => {
    expect(isVerificationCode('012345')).toBe(true);
    for (const bad of ['12345', '1234567', '12a456']) expect(isVerificationCode(bad), bad).toBe(false);
  });

  it('password of at least six characters', () => {
    expect(passwordSchema.safeParse('12345').error?.issues[0]?.message).toBe('password_too_short');
    expect(passwordSchema.safeParse('').error?.issues[0]?.message).toBe('required');
    expect(passwordSchema.safeParse('123456').success).toBe(true);
  });
});
