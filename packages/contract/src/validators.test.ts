import { describe, expect, it } from 'vitest';
import {
  amountSchema,
  calendarDaySchema,
  emailSchema,
  findUnstorableText,
  isAmount,
  isEmail,
  isIdCard,
  isMobile,
  isVerificationCode,
  isStorableText,
  passwordSchema,
  requiredText,
  toStorableText,
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

describe('text PostgreSQL can store', () => {
  it('refuses NUL and unpaired surrogates, keeps paired ones (emoji)', () => {
    expect(isStorableText('plain 文字 😀')).toBe(true);
    expect(isStorableText('a\u0000b')).toBe(false);
    expect(isStorableText('a\uD800b')).toBe(false);
    expect(isStorableText('a\uDC00')).toBe(false);
    expect(isStorableText('\uD83D')).toBe(false);
    expect(toStorableText('a\u0000b\uD800c😀')).toBe('a\uFFFDb\uFFFDc😀');
  });

  it('finds the first unstorable text anywhere in a parsed request, keys included', () => {
    expect(findUnstorableText({ a: 'ok', list: [{ note: 'fine' }] })).toBeNull();
    expect(findUnstorableText({ a: 'ok', list: [{ note: 'x\u0000' }] })).toEqual(['list', '0', 'note']);
    expect(findUnstorableText({ outer: { 'bad\uD800key': 1 } })).toEqual(['outer']);
    expect(findUnstorableText('\uDFFF')).toEqual([]);
    expect(findUnstorableText(42)).toBeNull();
  });

  it('is refused by every required text field with its own reason', () => {
    expect(requiredText(20).safeParse('a\u0000').error?.issues[0]?.message).toBe('text_unstorable');
    expect(requiredText(20).safeParse('name').success).toBe(true);
  });
});

describe('calendar days', () => {
  it('takes real days of 2000 to 2099 only', () => {
    expect(calendarDaySchema.safeParse('2026-12-24').success).toBe(true);
    expect(calendarDaySchema.safeParse('2000-01-01').success).toBe(true);
    expect(calendarDaySchema.safeParse('2099-12-31').success).toBe(true);
    expect(calendarDaySchema.safeParse('0000-01-01').error?.issues[0]?.message).toBe('date_range');
    expect(calendarDaySchema.safeParse('1999-12-31').error?.issues[0]?.message).toBe('date_range');
    expect(calendarDaySchema.safeParse('2100-01-01').error?.issues[0]?.message).toBe('date_range');
    expect(calendarDaySchema.safeParse('2026-02-30').success).toBe(false);
  });
});
