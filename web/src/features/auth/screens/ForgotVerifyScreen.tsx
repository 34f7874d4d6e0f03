import { useTranslation } from '../../../lib/i18n/translator';
import { Navigate, useLocation, useNavigate } from '../../../lib/router/router';
import { checkForgotCode } from '../api/check-forgot-code';
import { sendForgotCode } from '../api/send-forgot-code';
import { CodeStep } from '../components/CodeStep';

/** forget_pwd/verify_code: step 2: the code. */
export default function ForgotVerifyScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const email = (useLocation().state as { email?: string } | null)?.email;
  if (!email) return <Navigate to="/pages/forget_pwd/forget_pwd" replace />;
  return (
    <div className="auth-screen">
      <CodeStep
        email={email}
        submitLabel={t('auth.next')}
        resend={() => sendForgotCode({ email })}
        onSubmit={(code) =>
          checkForgotCode({ email, code }).then(() => navigate('/pages/forget_pwd/forget_pwd1', { state: { email, code } }))
        }
      />
    </div>
  );
}
