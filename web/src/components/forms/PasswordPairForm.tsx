import { useState, type ReactNode } from 'react';
import { Button, Form, Input } from 'antd-mobile';
import { useTranslation } from '../../lib/i18n/translator';
import { rules } from './rules';

export interface PasswordPairValues {
  password: string;
  confirmPassword: string;
  /** Whatever extra fields the caller put in (old password, code…). */
  [field: string]: string;
}

interface PasswordPairFormProps {
  submitLabel: string;
  onSubmit: (values: PasswordPairValues) => Promise<unknown>;
  /** Fields shown above the new password (current password, e-mail code…). */
  children?: ReactNode;
  header?: ReactNode;
  labels?: { password: string; passwordPlaceholder: string; confirm: string; confirmPlaceholder: string };
}

/** A new password + its confirmation ("the two passwords do not match"), with optional fields above. */
export function PasswordPairForm({ submitLabel, onSubmit, children, header, labels }: PasswordPairFormProps) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const text = labels ?? {
    password: t('auth.newPassword'),
    passwordPlaceholder: t('auth.newPasswordPlaceholder'),
    confirm: t('auth.confirmPassword'),
    confirmPlaceholder: t('auth.confirmPasswordPlaceholder'),
  };
  return (
    <Form
      layout="vertical"
      onFinish={(values: PasswordPairValues) => {
        setBusy(true);
        // Failures were already shown by the API client; the form just becomes usable again.
        const done = () => setBusy(false);
        onSubmit(values).then(done, done);
      }}
      footer={
        <Button block type="submit" color="primary" size="large" loading={busy}>
          {submitLabel}
        </Button>
      }
    >
      {header && <Form.Header>{header}</Form.Header>}
      {children}
      <Form.Item name="password" label={text.password} rules={rules.newPassword()}>
        <Input type="password" placeholder={text.passwordPlaceholder} autoComplete="new-password" />
      </Form.Item>
      <Form.Item name="confirmPassword" label={text.confirm} rules={rules.confirmPassword()} dependencies={['password']}>
        <Input type="password" placeholder={text.confirmPlaceholder} autoComplete="new-password" />
      </Form.Item>
    </Form>
  );
}
