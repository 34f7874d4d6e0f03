import { useTranslation } from '../../../lib/i18n/translator';
import { Navigate, useLocation } from '../../../lib/router/router';
import { loginByCode } from '../api/login-by-code';
import { sendLoginCode } from '../api/send-login-code';
import { CodeStep } from '../components/CodeStep';
import { startSession } from '../components/session';

/** verify_code1: passwordless log-in, step 2: the code. */
export default function CodeLoginVerifyScreen() {
  const { t } = useTranslation();
  const email = (useLocation().state as { email?: string } | null)?.email;
  if (!email) return <Navigate to="/pages/login/login1" replace />;
  return (
    <div className="auth-screen">
      <CodeStep
        email={email}
        submitLabel={t('auth.login')}
        resend={() => sendLoginCode({ email })}
        onSubmit={(code) => loginByCode({ email, code }).then(({ token }) => startSession(token))}
      />
    </div>
  );
}
