import { useState } from 'react';
import { Button, Form, Input } from 'antd-mobile';
import { useTranslation } from '../../../lib/i18n/translator';
import { ResendCodeButton } from '../../../components/forms/ResendCodeButton';
import { rules } from '../../../components/forms/rules';

interface CodeStepProps {
  email: string;
  submitLabel: string;
  /** Sends a new code; resolves when the server accepted. */
  resend: () => Promise<unknown>;
  onSubmit: (code: string) => Promise<unknown>;
}

/** The 6-digit code entry with its 60 s resend countdown (the first code was sent by the previous step). */
export function CodeStep({ email, submitLabel, resend, onSubmit }: CodeStepProps) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);

  return (
    <Form
      layout="vertical"
      onFinish={(values: { code: string }) => {
        setBusy(true);
        // Failures were already shown by the API client; the form just becomes usable again.
        const done = () => setBusy(false);
        onSubmit(values.code.trim()).then(done, done);
      }}
      footer={
        <Button block type="submit" color="primary" size="large" loading={busy}>
          {submitLabel}
        </Button>
      }
    >
      <Form.Header>{t('auth.codeSentTo', { email })}</Form.Header>
      <Form.Item
        name="code"
        label={t('auth.code')}
        rules={rules.code()}
        extra={<ResendCodeButton send={resend} startCounting testId="resend-code" />}
      >
        <Input placeholder={t('auth.codePlaceholder')} inputMode="numeric" maxLength={6} autoComplete="one-time-code" />
      </Form.Item>
    </Form>
  );
}
