import { useState } from 'react';
import { Button, Checkbox, Form, Input } from 'antd-mobile';
import { useTranslation } from '../../../lib/i18n/translator';
import { Link, useNavigate, useSearchParams } from '../../../lib/router/router';
import { showToast } from '../../../lib/toast';
import { sendRegisterCode } from '../api/send-register-code';
import { rules } from '../../../components/forms/rules';

/** register: step 1: e-mail, invitation code (prefilled from ?code= of a share link), terms. */
export default function RegisterScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const [agreed, setAgreed] = useState(false);
  const [busy, setBusy] = useState(false);
  return (
    <div className="auth-screen">
      <Form
        layout="vertical"
        initialValues={{ invitationCode: searchParams.get('code') ?? '' }}
        onFinish={(values: { email: string; invitationCode: string }) => {
          if (!agreed) {
            showToast(t('auth.mustAgree'));
            return;
          }
          const email = values.email.trim();
          const invitationCode = values.invitationCode.trim().toUpperCase();
          setBusy(true);
          sendRegisterCode({ email, invitationCode }).then(
            () => navigate('/pages/register/verify_code', { state: { email, invitationCode } }),
            () => setBusy(false),
          );
        }}
        footer={
          <>
            <Checkbox checked={agreed} onChange={setAgreed} data-testid="agree-terms" className="auth-terms">
              {t('auth.agreePrefix')}{' '}
              <Link to="/pages/pdf/pdf?kind=terms" onClick={(event) => event.stopPropagation()}>
                {t('auth.terms')}
              </Link>
            </Checkbox>
            <Button block type="submit" color="primary" size="large" loading={busy}>
              {t('auth.next')}
            </Button>
            <p className="auth-switch">
              {t('auth.haveAccount')} <Link to="/pages/login/login">{t('auth.login')}</Link>
            </p>
          </>
        }
      >
        <Form.Header>{t('auth.registerHint')}</Form.Header>
        <Form.Item name="email" label={t('auth.email')} rules={rules.email()}>
          <Input placeholder={t('auth.emailPlaceholder')} type="email" autoComplete="email" />
        </Form.Item>
        <Form.Item name="invitationCode" label={t('auth.invitationCode')} rules={rules.invitationCode()}>
          <Input placeholder={t('auth.invitationCodePlaceholder')} autoComplete="off" />
        </Form.Item>
      </Form>
    </div>
  );
}
