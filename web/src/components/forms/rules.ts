import type { Rule as FormRule, RuleObject } from 'antd-mobile/es/components/form';
import { PASSWORD_MIN_LENGTH, isEmail, isVerificationCode, type MessageKey, type Money } from '@custos/contract';
import { fieldLabel, translate } from '../../lib/i18n/server-messages';
import { currentLocale } from '../../lib/i18n/i18n';
import { amountProblem, normaliseAmountInput, parseAmount } from '../../lib/money/amount';

/** Client-side checks use the contract's validators and the server's own wording, in the app language. */
function message(key: MessageKey, field: string): string {
  const locale = currentLocale();
  return translate(locale, key, { field: fieldLabel(locale, field) });
}

function required(field: string): FormRule {
  return { required: true, whitespace: true, message: message('reason.required', field) };
}

export const rules = {
  email: (): FormRule[] => [
    required('email'),
    {
      validator: async (_rule: RuleObject, value: string) =>
        isEmail(value.trim()) ? undefined : Promise.reject(new Error(message('reason.email', 'email'))),
    },
  ],
  invitationCode: (): FormRule[] => [required('invitationCode')],
  code: (): FormRule[] => [
    required('code'),
    {
      validator: async (_rule: RuleObject, value: string) =>
        isVerificationCode(value) ? undefined : Promise.reject(new Error(message('reason.code', 'code'))),
    },
  ],
  existingPassword: (): FormRule[] => [{ required: true, message: message('reason.required', 'password') }],
  newPassword: (): FormRule[] => [
    { required: true, message: message('reason.required', 'password') },
    { min: PASSWORD_MIN_LENGTH, message: message('reason.password_too_short', 'password') },
  ],
  confirmPassword: (): FormRule[] => [
    { required: true, message: message('reason.required', 'confirmPassword') },
    ({ getFieldValue }: { getFieldValue: (name: string) => unknown }) => ({
      validator: async (_rule: RuleObject, value: string) =>
        value === getFieldValue('password')
          ? undefined
          : Promise.reject(new Error(message('reason.passwords_differ', 'confirmPassword'))),
    }),
  ],
  tradePassword: (): FormRule[] => [{ required: true, message: message('reason.required', 'tradePassword') }],
  /**
   * A money amount as the server checks it (positive, at most four decimal places), then whatever the
   * screen adds (minimum, balance), each refusal in the server's wording.
   */
  amount: (check?: (amount: Money) => string | null): FormRule[] => [
    {
      validator: async (_rule: RuleObject, value: string | undefined) => {
        const text = normaliseAmountInput(value ?? '');
        const problem = amountProblem(text, currentLocale());
        if (problem) throw new Error(problem);
        const more = check?.(parseAmount(text)!);
        if (more) throw new Error(more);
      },
    },
  ],
};
