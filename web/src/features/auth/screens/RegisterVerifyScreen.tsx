import { useTranslation } from '../../../lib/i18n/translator';
import { Navigate, useLocation, useNavigate } from '../../../lib/router/router';
import { checkRegisterInfo } from '../api/check-register-info';
import { sendRegisterCode } from '../api/send-register-code';
import { CodeStep } from '../components/CodeStep';

interface RegisterState {
  email?: string;
  invitationCode?: string;
}

/** verify_code: register step 2: the 6-digit code from the e-mail. */
export default function RegisterVerifyScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { email, invitationCode } = (useLocation().state as RegisterState | null) ?? {};
  if (!email || !invitationCode) return <Navigate to="/pages/register/register" replace />;
  return (
    <div className="auth-screen">
      <CodeStep
        email={email}
        submitLabel={t('auth.next')}
        resend={() => sendRegisterCode({ email, invitationCode })}
        onSubmit={(code) =>
          checkRegisterInfo({ email, code }).then(() =>
            navigate('/pages/register/register1', { state: { email, invitationCode, code } }),
          )
        }
      />
    </div>
  );
}
