import { useEffect, useState } from 'react';
import { Button } from 'antd-mobile';
import { useTranslation } from '../../lib/i18n/translator';
import { CODE_RESEND_COUNTDOWN_S } from '@custos/contract';

/**
 * "Send code" / "Resend in N s": disabled for 60 s after each successful send. `startCounting`
 * when the first code was already sent by the previous step.
 */
export function ResendCodeButton({
  send,
  startCounting = false,
  testId,
}: {
  send: () => Promise<unknown>;
  startCounting?: boolean;
  testId: string;
}) {
  const { t } = useTranslation();
  const [secondsLeft, setSecondsLeft] = useState(startCounting ? CODE_RESEND_COUNTDOWN_S : 0);
  const [sentOnce, setSentOnce] = useState(startCounting);

  useEffect(() => {
    if (secondsLeft <= 0) return;
    const timer = setTimeout(() => setSecondsLeft((value) => value - 1), 1000);
    return () => clearTimeout(timer);
  }, [secondsLeft]);

  return (
    <Button
      size="small"
      fill="none"
      color="primary"
      disabled={secondsLeft > 0}
      data-testid={testId}
      onClick={() => {
        send().then(
          () => {
            setSentOnce(true);
            setSecondsLeft(CODE_RESEND_COUNTDOWN_S);
          },
          () => undefined,
        );
      }}
    >
      {secondsLeft > 0 ? t('auth.resendIn', { seconds: secondsLeft }) : sentOnce ? t('auth.resend') : t('auth.sendCode')}
    </Button>
  );
}
