import { useTranslation } from '../../../lib/i18n/translator';
import { Navigate, useLocation } from '../../../lib/router/router';
import { credential } from '../../../lib/auth/credential';
import { relaunch } from '../../../lib/navigation';
import { showToast } from '../../../lib/toast';
import { resetPassword } from '../api/reset-password';
import { PasswordPairForm } from '../../../components/forms/PasswordPairForm';
import { LOGIN_ROUTE } from '../components/session';

/** forget_pwd1: step 3: the new password; every session ends, so the member logs in again. */
export default function ForgotPasswordScreen() {
  const { t } = useTranslation();
  const { email, code } = (useLocation().state as { email?: string; code?: string } | null) ?? {};
  if (!email || !code) return <Navigate to="/pages/forget_pwd/forget_pwd" replace />;
  return (
    <div className="auth-screen">
      <PasswordPairForm
        submitLabel={t('auth.submit')}
        onSubmit={({ password, confirmPassword }) =>
          resetPassword({ email, code, password, confirmPassword }).then(() => {
            credential.clear();
            showToast(t('auth.passwordReset'));
            relaunch(LOGIN_ROUTE);
          })
        }
      />
    </div>
  );
}
