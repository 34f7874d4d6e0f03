import type { Rule as FormRule, RuleObject } from 'antd-mobile/es/components/form';
import { PASSWORD_MIN_LENGTH, fieldLabel, isEmail, isVerificationCode, translate, type MessageKey } from '@custos/contract';
import { currentLocale } from '../../lib/i18n/i18n';

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
};
