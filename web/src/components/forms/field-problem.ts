import type { Locale, MessageKey } from '@custos/contract';
import type { ZodType } from 'zod';
import { fieldLabel, isMessageKey, translate } from '../../lib/i18n/server-messages';

/**
 * What is wrong with one field by the contract's own schema for it, in the server's wording and the
 * given language ("please enter e-mail", "please enter a valid e-mail address"), or null when the
 * server would take it. For forms written without antd-mobile's form library (the log-in page,
 * decision 039).
 */
export function fieldProblem(schema: ZodType, value: unknown, field: string, locale: Locale): string | null {
  const parsed = schema.safeParse(value);
  if (parsed.success) return null;
  const key = `reason.${parsed.error.issues[0]?.message ?? 'invalid'}`;
  const reasonKey: MessageKey = isMessageKey(key) ? key : 'reason.invalid';
  return translate(locale, reasonKey, { field: fieldLabel(locale, field) });
}
