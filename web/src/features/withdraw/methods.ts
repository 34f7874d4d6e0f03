import type { z } from 'zod';
import { type Locale, type WithdrawMethod, type WithdrawMethodType, type WithdrawSettings } from '@custos/contract';
import { fieldLabel, isMessageKey, translate } from '../../lib/i18n/server-messages';
import type { Translate } from './window';

/** "0x12ab34…9f8e7d": the start and end of an address, for pickers where the whole does not fit. */
export function shortAddress(address: string, head = 8, tail = 6): string {
  return address.length <= head + tail + 1 ? address : `${address.slice(0, head)}…${address.slice(-tail)}`;
}

export interface MethodDisplay {
  /** What the method is: "USDT · BEP20", "Bank of China **** 1234", "Alipay". */
  title: string;
  /** Where the money goes: the address, or the holder with branch or account. */
  detail: string;
}

/** How a saved method reads in the picker and the list; `short` shortens crypto addresses. */
export function methodDisplay(method: WithdrawMethod, t: Translate, short = false): MethodDisplay {
  const join = (...parts: (string | null)[]) => parts.filter((part): part is string => Boolean(part)).join(' · ');
  switch (method.type) {
    case 'crypto': {
      const address = method.address ?? '';
      return {
        title: t('withdraw.methods.crypto', { network: method.network ?? '' }),
        detail: short ? shortAddress(address) : address,
      };
    }
    case 'bank':
      return {
        title: [method.bankName, method.cardNumberMasked].filter(Boolean).join(' '),
        detail: join(method.holderName, method.branch),
      };
    case 'wechat':
    case 'alipay':
      return { title: t(`withdraw.methods.${method.type}`), detail: join(method.holderName, method.account) };
  }
}

/** Whether the operator accepts withdrawals of this kind at the moment. */
export function methodTypeEnabled(type: WithdrawMethodType, settings: Pick<WithdrawSettings, 'methods'>): boolean {
  return settings.methods[type];
}

/** The method picked first: the first one whose kind is open, if any. */
export function defaultMethodId(
  methods: readonly WithdrawMethod[],
  settings: Pick<WithdrawSettings, 'methods'>,
): string | undefined {
  return methods.find((method) => methodTypeEnabled(method.type, settings))?.id;
}

/** The kinds of wallet (not crypto, not bank) the add form offers: only those the operator turned on. */
export function walletTypesOffered(settings: Pick<WithdrawSettings, 'methods'> | null): ('wechat' | 'alipay')[] {
  if (!settings) return [];
  return (['wechat', 'alipay'] as const).filter((type) => settings.methods[type]);
}

/** A validation reason of the contract as the server words it: "please enter bank name", "card number: …". */
export function reasonText(reason: string, field: string, locale: Locale): string {
  const key = `reason.${reason}`;
  const reasonKey = isMessageKey(key) ? key : 'reason.invalid';
  const label = fieldLabel(locale, field);
  const text = translate(locale, reasonKey, { field: label });
  return reasonKey === 'reason.required' ? text : translate(locale, 'field_error', { field: label, reason: text });
}

/**
 * The first refusal per field of a request checked with the contract's own schema (the server runs
 * the same one), in the app language. Empty when the request is acceptable.
 */
export function requestProblems(schema: z.ZodType, values: unknown, locale: Locale): Partial<Record<string, string>> {
  const parsed = schema.safeParse(values);
  if (parsed.success) return {};
  const problems: Partial<Record<string, string>> = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0];
    if (typeof field !== 'string' || problems[field]) continue;
    problems[field] = reasonText(issue.message, field, locale);
  }
  return problems;
}
