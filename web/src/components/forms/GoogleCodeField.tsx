import { Form, Input } from 'antd-mobile';
import { useTranslation } from '../../lib/i18n/translator';
import { rules } from './rules';

/** The authenticator code field that security changes need once an authenticator is bound. */
export function GoogleCodeField({ name = 'googleCode', label, testId }: { name?: string; label?: string; testId?: string }) {
  const { t } = useTranslation();
  return (
    <Form.Item name={name} label={label ?? t('authenticator.code')} rules={rules.code()}>
      <Input
        placeholder={t('authenticator.codePlaceholder')}
        inputMode="numeric"
        maxLength={6}
        autoComplete="one-time-code"
        data-testid={testId}
      />
    </Form.Item>
  );
}
