import { useState } from 'react';
import { Button, Form, Input } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { rules } from './rules';

/** New password + confirmation ("the two passwords do not match"). */
export function PasswordPairForm({
  submitLabel,
  onSubmit,
}: {
  submitLabel: string;
  onSubmit: (password: string, confirmPassword: string) => Promise<unknown>;
}) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  return (
    <Form
      layout="vertical"
      onFinish={(values: { password: string; confirmPassword: string }) => {
        setBusy(true);
        // Failures were already shown by the API client; the form just becomes usable again.
        const done = () => setBusy(false);
        onSubmit(values.password, values.confirmPassword).then(done, done);
      }}
      footer={
        <Button block type="submit" color="primary" size="large" loading={busy}>
          {submitLabel}
        </Button>
      }
    >
      <Form.Item name="password" label={t('auth.newPassword')} rules={rules.newPassword()}>
        <Input type="password" placeholder={t('auth.newPasswordPlaceholder')} autoComplete="new-password" />
      </Form.Item>
      <Form.Item
        name="confirmPassword"
        label={t('auth.confirmPassword')}
        rules={rules.confirmPassword()}
        dependencies={['password']}
      >
        <Input type="password" placeholder={t('auth.confirmPasswordPlaceholder')} autoComplete="new-password" />
      </Form.Item>
    </Form>
  );
}
