import { useState, type ReactNode } from 'react';
import { Button, Form, Input } from 'antd-mobile';
import { useTranslation } from '../../../lib/i18n/translator';
import { rules } from '../../../components/forms/rules';

/** One e-mail field and a button: the first step of code log-in and of the password reset. */
export function EmailForm({
  hint,
  submitLabel,
  onSubmit,
  children,
}: {
  hint: string;
  submitLabel: string;
  onSubmit: (email: string) => Promise<unknown>;
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  return (
    <Form
      layout="vertical"
      onFinish={(values: { email: string }) => {
        setBusy(true);
        // Failures were already shown by the API client; the form just becomes usable again.
        const done = () => setBusy(false);
        onSubmit(values.email.trim()).then(done, done);
      }}
      footer={
        <>
          <Button block type="submit" color="primary" size="large" loading={busy}>
            {submitLabel}
          </Button>
          {children}
        </>
      }
    >
      <Form.Header>{hint}</Form.Header>
      <Form.Item name="email" label={t('auth.email')} rules={rules.email()}>
        <Input placeholder={t('auth.emailPlaceholder')} type="email" autoComplete="email" />
      </Form.Item>
    </Form>
  );
}
