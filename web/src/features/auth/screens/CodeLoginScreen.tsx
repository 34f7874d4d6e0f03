import { useTranslation } from '../../../lib/i18n/translator';
import { Link, useNavigate } from '../../../lib/router/router';
import { sendLoginCode } from '../api/send-login-code';
import { EmailForm } from '../components/EmailForm';

/** login1: passwordless log-in, step 1: the e-mail that receives the code. */
export default function CodeLoginScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <div className="auth-screen">
      <EmailForm
        hint={t('auth.welcomeHint')}
        submitLabel={t('auth.sendCode')}
        onSubmit={(email) => sendLoginCode({ email }).then(() => navigate('/pages/register/verify_code1', { state: { email } }))}
      >
        <p className="auth-switch">
          <Link to="/pages/login/login">{t('auth.passwordLogin')}</Link>
        </p>
      </EmailForm>
    </div>
  );
}
