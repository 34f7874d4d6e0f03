import { useEffect, useState } from 'react';
import { Button, Form, Input } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { CODE_RESEND_COUNTDOWN_S } from '@custos/contract';
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
  const [secondsLeft, setSecondsLeft] = useState(CODE_RESEND_COUNTDOWN_S);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (secondsLeft <= 0) return;
    const timer = setTimeout(() => setSecondsLeft((value) => value - 1), 1000);
    return () => clearTimeout(timer);
  }, [secondsLeft]);

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
        extra={
          <Button
            size="small"
            fill="none"
            color="primary"
            disabled={secondsLeft > 0}
            data-testid="resend-code"
            onClick={() => {
              void resend().then(
                () => setSecondsLeft(CODE_RESEND_COUNTDOWN_S),
                () => undefined,
              );
            }}
          >
            {secondsLeft > 0 ? t('auth.resendIn', { seconds: secondsLeft }) : t('auth.resend')}
          </Button>
        }
      >
        <Input placeholder={t('auth.codePlaceholder')} inputMode="numeric" maxLength={6} autoComplete="one-time-code" />
      </Form.Item>
    </Form>
  );
}
