import { z } from 'zod';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, VERIFICATION_CODE_LENGTH } from './constants.js';
import { MONEY_STRING_PATTERN } from './money.js';

/**
 * Field validators shared by the server (authoritative) and the apps (early feedback). Each failure
 * carries a message key from `ValidationReason`, which both sides translate.
 */
export const ValidationReason = {
  required: 'required',
  email: 'email',
  mobile: 'mobile',
  idCard: 'id_card',
  amount: 'amount',
  amountPositive: 'amount_positive',
  code: 'code',
  passwordTooShort: 'password_too_short',
  passwordTooLong: 'password_too_long',
  passwordsDiffer: 'passwords_differ',
  tooLong: 'too_long',
  invalid: 'invalid',
  wrongType: 'wrong_type',
  money: 'money',
  amountPlaces: 'amount_places',
  addressInvalid: 'address_invalid',
  cardNumber: 'card_number',
  textUnstorable: 'text_unstorable',
  dateRange: 'date_range',
  dateOrder: 'date_order',
} as const;
export type ValidationReason = (typeof ValidationReason)[keyof typeof ValidationReason];

const EMAIL_PATTERN =
  /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;
/** International mobile number: optional +, country code, 7–15 digits in all (E.164). */
const MOBILE_PATTERN = /^\+?[1-9]\d{6,14}$/;
/** Positive amount with up to two decimal places (what members type). */
const AMOUNT_PATTERN = /^(?:0|[1-9]\d{0,15})(?:\.\d{1,2})?$/;
const CODE_PATTERN = new RegExp(`^\\d{${VERIFICATION_CODE_LENGTH}}$`);

export function isEmail(value: string): boolean {
  return value.length <= 254 && EMAIL_PATTERN.test(value);
}

export function isMobile(value: string): boolean {
  return MOBILE_PATTERN.test(value);
}

/** Whether a string is a positive amount with at most two decimal places. */
export function isAmount(value: string): boolean {
  return AMOUNT_PATTERN.test(value) && /[1-9]/.test(value);
}

export function isVerificationCode(value: string): boolean {
  return CODE_PATTERN.test(value);
}

const ID_CARD_WEIGHTS = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2] as const;
const ID_CARD_CHECK_CHARS = '10X98765432';

/**
 * Resident identity card number (GB 11643): 18 characters, a real birth date, and the ISO 7064
 * MOD 11-2 check character.
 */
export function isIdCard(value: string): boolean {
  const id = value.toUpperCase();
  if (!/^\d{17}[\dX]$/.test(id)) return false;
  const year = Number(id.slice(6, 10));
  const month = Number(id.slice(10, 12));
  const day = Number(id.slice(12, 14));
  const birth = new Date(Date.UTC(year, month - 1, day));
  if (year < 1900 || birth.getUTCFullYear() !== year || birth.getUTCMonth() !== month - 1 || birth.getUTCDate() !== day) {
    return false;
  }
  let total = 0;
  for (let index = 0; index < 17; index += 1) total += Number(id[index]) * ID_CARD_WEIGHTS[index]!;
  return ID_CARD_CHECK_CHARS[total % 11] === id[17];
}

const NUL = String.fromCharCode(0);
/** Half of a UTF-16 surrogate pair without its other half. */
const LONE_SURROGATE_PATTERN = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Whether PostgreSQL can store this text: it refuses NUL in text and JSON, and a lone surrogate has
 * no UTF-8 form (it would break the audit record's JSON).
 */
export function isStorableText(value: string): boolean {
  return !value.includes(NUL) && !LONE_SURROGATE_PATTERN.test(value);
}

const LONE_SURROGATE_GLOBAL = new RegExp(LONE_SURROGATE_PATTERN.source, 'g');

/** The text with each character PostgreSQL cannot store replaced by U+FFFD (for records that must never fail). */
export function toStorableText(value: string): string {
  return value.replaceAll(NUL, '\uFFFD').replace(LONE_SURROGATE_GLOBAL, '\uFFFD');
}

/** How deep `findUnstorableText` looks; request bodies nest far less. */
const MAX_TEXT_SEARCH_DEPTH = 32;

/**
 * The path (field names and indexes) of the first text PostgreSQL cannot store anywhere in a parsed
 * request part, keys included; null when all of it can be stored. The server refuses such requests
 * at its boundary, whatever the call's own schema says.
 */
export function findUnstorableText(value: unknown, path: readonly string[] = [], depth = 0): string[] | null {
  if (typeof value === 'string') return isStorableText(value) ? null : [...path];
  if (value === null || typeof value !== 'object' || depth > MAX_TEXT_SEARCH_DEPTH) return null;
  // Bytes (an uploaded package's body) are not text and are never walked byte by byte.
  if (ArrayBuffer.isView(value)) return null;
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = findUnstorableText(item, [...path, String(index)], depth + 1);
      if (found) return found;
    }
    return null;
  }
  for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
    // A key that cannot be stored cannot be named either.
    if (!isStorableText(key)) return [...path];
    const found = findUnstorableText(item, [...path, key], depth + 1);
    if (found) return found;
  }
  return null;
}

/** Missing → "please enter …"; present but not a string → "wrong type". */
export const stringTypeError = (issue: { input?: unknown }) =>
  issue.input === undefined || issue.input === null ? ValidationReason.required : ValidationReason.wrongType;

/** A required, trimmed text field; empty → "please enter …". */
export function requiredText(maxLength: number) {
  return z
    .string({ error: stringTypeError })
    .trim()
    .min(1, { error: ValidationReason.required })
    .max(maxLength, { error: ValidationReason.tooLong })
    .refine(isStorableText, { error: ValidationReason.textUnstorable });
}

/** The platform's calendar: days outside it are typing mistakes (and year 0000 does not exist in PostgreSQL). */
export const FIRST_CALENDAR_DAY = '2000-01-01';
export const LAST_CALENDAR_DAY = '2099-12-31';

/** A calendar day `YYYY-MM-DD` within the platform's calendar. */
export const calendarDaySchema = z.iso
  .date({ error: ValidationReason.invalid })
  .refine((day) => day >= FIRST_CALENDAR_DAY && day <= LAST_CALENDAR_DAY, { error: ValidationReason.dateRange });

export const emailSchema = requiredText(254).toLowerCase().refine(isEmail, { error: ValidationReason.email });

export const mobileSchema = requiredText(16).refine(isMobile, { error: ValidationReason.mobile });

export const idCardSchema = requiredText(18).refine(isIdCard, { error: ValidationReason.idCard });

/** An amount a member types: positive, at most two decimals. */
export const amountSchema = requiredText(20)
  .refine((value) => AMOUNT_PATTERN.test(value), { error: ValidationReason.amount })
  .refine((value) => /[1-9]/.test(value), { error: ValidationReason.amountPositive });

export const verificationCodeSchema = requiredText(VERIFICATION_CODE_LENGTH).refine(isVerificationCode, {
  error: ValidationReason.code,
});

export const passwordSchema = z
  .string({ error: stringTypeError })
  .min(1, { error: ValidationReason.required })
  .min(PASSWORD_MIN_LENGTH, { error: ValidationReason.passwordTooShort })
  .max(PASSWORD_MAX_LENGTH, { error: ValidationReason.passwordTooLong });

/** Money on the wire: a decimal string with exactly four places. */
export const moneyStringSchema = z.string().regex(MONEY_STRING_PATTERN, { error: ValidationReason.money });
