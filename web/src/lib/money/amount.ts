import { money, moneyAmountSchema, type Locale, type Money } from '@custos/contract';
import { fieldLabel, isMessageKey, translate } from '../i18n/server-messages';

/**
 * What a member typed in an amount field, made ready for the shared validator: the decimal comma
 * some keyboards give becomes a point, and spaces go.
 */
export function normaliseAmountInput(text: string): string {
  return text.replace(/,/g, '.').replace(/\s+/g, '');
}

/**
 * The server's own refusal of an amount, in the app's language and the server's wording: the
 * contract's `moneyAmountSchema` (positive, at most four decimal places), "please enter amount"
 * when empty, otherwise "amount: <reason>". Null when the amount is acceptable.
 */
export function amountProblem(value: string, locale: Locale, field = 'amount'): string | null {
  const parsed = moneyAmountSchema.safeParse(value);
  if (parsed.success) return null;
  const reason = parsed.error.issues[0]?.message ?? 'invalid';
  const key = `reason.${reason}`;
  const reasonKey = isMessageKey(key) ? key : 'reason.invalid';
  const label = fieldLabel(locale, field);
  const text = translate(locale, reasonKey, { field: label });
  return reasonKey === 'reason.required' ? text : translate(locale, 'field_error', { field: label, reason: text });
}

/** A valid amount as money, or null. */
export function parseAmount(value: string): Money | null {
  return moneyAmountSchema.safeParse(value).success ? money.parseMoney(value) : null;
}

/** "Insufficient USDT balance" (the server's 409) when the amount is more than what is available. */
export function balanceProblem(amount: Money, available: string, asset: string, locale: Locale): string | null {
  return amount > money.parseMoney(available) ? translate(locale, 'ledger.insufficient_balance', { asset }) : null;
}
