import { useState } from 'react';
import { Form, Input } from 'antd-mobile';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from '../../../lib/i18n/translator';
import { useNavigate } from '../../../lib/router/router';
import { getUserInfo } from '../../../api/get-user-info';
import { userKeys } from '../../../api/keys';
import { GoogleCodeField } from '../../../components/forms/GoogleCodeField';
import { PasswordPairForm } from '../../../components/forms/PasswordPairForm';
import { ResendCodeButton } from '../../../components/forms/ResendCodeButton';
import { rules } from '../../../components/forms/rules';
import { showToast } from '../../../lib/toast';
import { resetTradePassword } from '../api/reset-trade-password';
import { sendTradePasswordCode } from '../api/send-trade-password-code';
import { updateTradePassword } from '../api/update-trade-password';

/** update_pwd1: change the trading password with the old one, or, if forgotten, with an e-mail code. */
export default function TradePasswordChangeScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [forgotten, setForgotten] = useState(false);
  const queryClient = useQueryClient();
  const needsGoogleCode = useQuery({ queryKey: userKeys.info(), queryFn: getUserInfo }).data?.hasAuthenticator ?? false;

  const labels = {
    password: t('tradePassword.password'),
    passwordPlaceholder: t('tradePassword.passwordPlaceholder'),
    confirm: t('tradePassword.confirm'),
    confirmPlaceholder: t('auth.confirmPasswordPlaceholder'),
  };
  const done = async () => {
    await queryClient.invalidateQueries({ queryKey: userKeys.info() });
    showToast(t('tradePassword.changed'));
    void navigate(-1);
  };

  return (
    <div className="auth-screen">
      {forgotten ? (
        <PasswordPairForm
          key="reset"
          header={t('tradePassword.resetHint')}
          labels={labels}
          submitLabel={t('auth.submit')}
          onSubmit={({ code = '', password, confirmPassword }) =>
            resetTradePassword({ code: code.trim(), password, confirmPassword }).then(done)
          }
        >
          <Form.Item
            name="code"
            label={t('auth.code')}
            rules={rules.code()}
            extra={<ResendCodeButton send={sendTradePasswordCode} testId="send-trade-code" />}
          >
            <Input placeholder={t('auth.codePlaceholder')} inputMode="numeric" maxLength={6} autoComplete="one-time-code" />
          </Form.Item>
          {needsGoogleCode && <GoogleCodeField />}
        </PasswordPairForm>
      ) : (
        <PasswordPairForm
          key="change"
          labels={labels}
          submitLabel={t('auth.submit')}
          onSubmit={({ oldTradePassword = '', password, confirmPassword }) =>
            updateTradePassword({ oldTradePassword, password, confirmPassword }).then(done)
          }
        >
          <Form.Item name="oldTradePassword" label={t('tradePassword.old')} rules={rules.existingPassword()}>
            <Input type="password" placeholder={t('tradePassword.oldPlaceholder')} autoComplete="off" />
          </Form.Item>
          {needsGoogleCode && <GoogleCodeField />}
        </PasswordPairForm>
      )}
      <p className="auth-switch">
        <a onClick={() => setForgotten((value) => !value)} data-testid="trade-forgot-toggle">
          {forgotten ? t('tradePassword.remember') : t('tradePassword.forgot')}
        </a>
      </p>
    </div>
  );
}
